// The scorepad: find a card by name or kind among the buttons already on the
// page (no request), and keep that filter across the pad's swaps.
(function () {
  "use strict";
  var filter = { text: "", kind: "" };
  var swaps = 0;

  function apply() {
    document.querySelectorAll(".pad").forEach(function (pad) {
      var search = pad.querySelector(".card-search");
      if (!search) return;
      if (search.value !== filter.text) search.value = filter.text;
      pad.querySelectorAll(".kind").forEach(function (button) {
        button.setAttribute("aria-pressed", String(button.dataset.kind === filter.kind));
      });
      pad.querySelectorAll(".buttons [data-name]").forEach(function (card) {
        var shown = (!filter.kind || card.dataset.kind === filter.kind) &&
          (!filter.text || card.dataset.name.indexOf(filter.text) !== -1);
        card.hidden = !shown;
      });
    });
  }

  document.addEventListener("input", function (event) {
    if (!event.target.classList || !event.target.classList.contains("card-search")) return;
    filter.text = event.target.value.trim().toLowerCase();
    apply();
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.kind");
    if (!button) return;
    filter.kind = button.dataset.kind || "";
    apply();
  });
  function shownVersion() {
    var status = document.getElementById("status");
    return status ? Number(status.dataset.version) : NaN;
  }
  // Whether a request was made for the game's stream (``detail.elt`` is the
  // element an event is fired on; the request's own config keeps its cause).
  function fromStream(detail) {
    var trigger = detail && detail.requestConfig && detail.requestConfig.triggeringEvent;
    return Boolean(trigger && trigger.type === "sse:game-event");
  }
  // Counts the answers to this phone's own taps (a stream's redraw is not
  // one): what a tap waits for before the next.
  var answered = null;
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!document.querySelector(".card-filter")) filter = { text: "", kind: "" };
    apply();
    if (fromStream(event.detail) || event.detail.xhr === answered) return;
    answered = event.detail.xhr;
    swaps += 1;
    document.body.dataset.swaps = String(swaps);
  });
  // A redraw fetched for the stream may come back after a tap's own answer
  // that is newer: the pad never goes back to an older version of the game.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!fromStream(event.detail) || typeof event.detail.serverResponse !== "string") return;
    var found = /id="status" data-version="(\d+)"/.exec(event.detail.serverResponse);
    if (found && Number(found[1]) < shownVersion()) event.detail.shouldSwap = false;
  });
  // The game's stream tells this pad of every entry, its own too: one the pad
  // already shows (its event's id, the game's version, is not past the pad's)
  // is not fetched again, so a tap's own answer is the pad's only redraw.
  document.addEventListener("htmx:confirm", function (event) {
    var trigger = event.detail.triggeringEvent;
    if (!trigger || trigger.type !== "sse:game-event" || !trigger.detail) return;
    if (Number(trigger.detail.lastEventId) <= shownVersion()) event.preventDefault();
  });
  document.addEventListener("DOMContentLoaded", apply);
})();
