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
  document.addEventListener("htmx:afterSettle", function () {
    if (!document.querySelector(".card-filter")) filter = { text: "", kind: "" };
    apply();
    swaps += 1;
    document.body.dataset.swaps = String(swaps);
  });
  // The game's stream tells this pad of every entry, its own too: one the pad
  // already shows (its event's id, the game's version, is not past the pad's)
  // is not fetched again, so a tap's own answer is the pad's only redraw.
  document.addEventListener("htmx:confirm", function (event) {
    var trigger = event.detail.triggeringEvent;
    if (!trigger || trigger.type !== "sse:game-event" || !trigger.detail) return;
    var status = document.getElementById("status");
    var shown = status ? Number(status.dataset.version) : NaN;
    if (Number(trigger.detail.lastEventId) <= shown) event.preventDefault();
  });
  document.addEventListener("DOMContentLoaded", apply);
})();
