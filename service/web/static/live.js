// A live part redrawn by an event of its page's stream (htmx's SSE extension)
// asks for the page as of that event when it says so (``data-min-position``):
// the event's id, its log position, goes as ``min_position``, so that what a
// projection shows (a league's standings) is read once it has taken the event in.
document.addEventListener("htmx:configRequest", (e) => {
  const cause = e.detail.triggeringEvent;
  const id = cause && cause.type.startsWith("sse:") && cause.detail && cause.detail.lastEventId;
  if (id && e.detail.elt.hasAttribute("data-min-position")) {
    e.detail.parameters.min_position = id;
  }
});
