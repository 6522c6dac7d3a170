// The replay viewer: every step's line and table are fetched once, then each
// step is drawn in place (no request); the address follows the step.
(function () {
  "use strict";

  function start() {
    var stepper = document.getElementById("stepper");
    if (!stepper) return;
    var last = Number(stepper.dataset.last);
    var current = Number(stepper.dataset.step);
    var data = null;
    var shownTable = -1;
    var host = document.getElementById("table-host");
    var number = document.getElementById("step-number");
    var line = document.getElementById("step-line");
    var slider = document.getElementById("slider");
    var links = { first: document.getElementById("first"), prev: document.getElementById("prev"),
                  next: document.getElementById("next"), last: document.getElementById("last"),
                  self: document.getElementById("step-link") };
    var items = {};
    document.querySelectorAll("#contents a[data-step]").forEach(function (a) {
      items[a.dataset.step] = a.parentNode;
    });

    function address(step) {
      var url = new URL(window.location.href);
      url.searchParams.set("step", String(step));
      return url.pathname + url.search;
    }

    function show(step, push) {
      step = Math.min(Math.max(step, 1), last);
      if (!data) { window.location.assign(address(step)); return; }
      var s = data.steps[step - 1];
      if (s[2] !== shownTable) { host.innerHTML = data.tables[s[2]]; shownTable = s[2]; }
      number.textContent = String(step);
      line.textContent = s[1];
      slider.value = String(step);
      links.first.href = address(1);
      links.prev.href = address(Math.max(step - 1, 1));
      links.next.href = address(Math.min(step + 1, last));
      links.last.href = address(last);
      links.self.href = address(step);
      if (items[current]) { items[current].classList.remove("current"); items[current].removeAttribute("aria-current"); }
      if (items[step]) {
        items[step].classList.add("current");
        items[step].setAttribute("aria-current", "step");
        var chapter = items[step].closest("details");
        if (chapter && !chapter.open) chapter.open = true;
      }
      current = step;
      stepper.dataset.step = String(step);
      if (push) window.history.replaceState({ step: step }, "", address(step));
    }

    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var target = event.target;
      if (target && target.id !== "slider" && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
      var moves = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 1, End: last };
      if (!(event.key in moves)) return;
      event.preventDefault();
      show(moves[event.key], true);
    });
    document.addEventListener("click", function (event) {
      var a = event.target.closest && event.target.closest("#stepper a, #contents a[data-step], #step-link");
      if (!a || !data || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
      var step = Number(new URL(a.href).searchParams.get("step"));
      if (!step) return;
      event.preventDefault();
      show(step, true);
    });
    slider.addEventListener("input", function () { if (data) show(Number(slider.value), true); });
    slider.addEventListener("change", function () { if (!data) slider.form.submit(); });

    fetch(stepper.dataset.steps, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (body) {
        data = body;
        last = body.last;
        shownTable = body.steps[current - 1] ? body.steps[current - 1][2] : -1;
        document.body.dataset.replayReady = "true";
      })
      .catch(function () { /* the links still work, a page per step */ });
  }

  document.addEventListener("DOMContentLoaded", start);
})();
