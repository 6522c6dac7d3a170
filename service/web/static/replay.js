// The replay viewer. The page ships the step asked for and a window of steps
// around it (each step's line, and the tables they show as templates); those
// are drawn in place with no request. Other steps are fetched a chunk at a time
// as the reader comes near them (stepping, a jump, the slider), and the first
// and last chunks early for Home and End. The address follows the step. Every
// step drawn fires a "replay:drawn" event on the document (its detail names it).
(function () {
  "use strict";

  function start() {
    var stepper = document.getElementById("stepper");
    var shipped = document.getElementById("replay-window");
    if (!stepper) return;
    var last = Number(stepper.dataset.last);
    var current = Number(stepper.dataset.step);
    var chunk = Number(stepper.dataset.chunk) || 25;
    var ahead = Math.ceil(chunk / 2);
    var ready = false;
    var drawing = null;
    var known = {}; // step -> [step, line, table, retracted]
    var tables = {}; // table number -> HTML fragment, its parts as placeholders
    var parts = {}; // a part's name -> its HTML (a seat's area, a group, a diagram)
    var asked = {}; // first step of a chunk -> its request, while out
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

    // Keeps a window of steps; one drawn from another version of the game sends
    // the reader to the page of the step they are on (its tables are numbered anew).
    function keep(body) {
      if (drawing === null) drawing = body.drawn;
      if (body.drawn !== drawing) {
        window.location.assign(address(current));
        throw new Error("the game moved on");
      }
      last = body.last;
      body.steps.forEach(function (s) { known[s[0]] = s; });
      Object.keys(body.tables).forEach(function (k) { tables[k] = body.tables[k]; });
      Object.keys(body.parts).forEach(function (k) { parts[k] = body.parts[k]; });
    }

    // A fragment with its parts (and theirs) put in place.
    function expand(html) {
      return html.replace(/<!--p:(\w+)-->/g, function (_, name) { return expand(parts[name]); });
    }

    function fetchChunk(step) {
      var from = Math.floor((step - 1) / chunk) * chunk + 1;
      if (asked[from]) return asked[from];
      var url = new URL(stepper.dataset.steps, window.location.href);
      url.searchParams.set("from", String(from));
      url.searchParams.set("to", String(Math.min(from + chunk - 1, last)));
      asked[from] = fetch(url.pathname + url.search, {
        credentials: "same-origin", headers: { Accept: "application/json" },
      })
        .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
        .then(keep)
        .finally(function () { delete asked[from]; });
      return asked[from];
    }

    // Fetches what is missing within a half chunk of ``step``, and the first and last steps.
    function near(step) {
      var wanted = [Math.max(step - ahead, 1), step, Math.min(step + ahead, last), 1, last];
      wanted.forEach(function (s) {
        if (!known[s]) fetchChunk(s).catch(function () { /* asked again when needed */ });
      });
    }

    function draw(step) {
      var s = known[step];
      if (s[2] !== shownTable) { host.innerHTML = expand(tables[s[2]]); shownTable = s[2]; }
      line.textContent = s[1];
      host.removeAttribute("aria-busy");
      stepper.dataset.drawn = String(step);
      document.dispatchEvent(new CustomEvent("replay:drawn", { detail: { step: step } }));
    }

    function show(step, push) {
      step = Math.min(Math.max(step, 1), last);
      if (!ready) { window.location.assign(address(step)); return; }
      number.textContent = String(step);
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
      if (known[step]) {
        draw(step);
        near(step);
        return;
      }
      // Far from what is held: its chunk first, alone, then what lies near it.
      host.setAttribute("aria-busy", "true");
      if (items[step]) line.textContent = items[step].textContent;
      fetchChunk(step).then(
        function () { if (current === step) { draw(step); near(step); } },
        function () { if (current === step) window.location.assign(address(step)); }
      );
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
      if (!a || !ready || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
      var step = Number(new URL(a.href).searchParams.get("step"));
      if (!step) return;
      event.preventDefault();
      show(step, true);
    });
    slider.addEventListener("input", function () { if (ready) show(Number(slider.value), true); });
    slider.addEventListener("change", function () { if (!ready) slider.form.submit(); });

    try {
      var body = JSON.parse(shipped.textContent);
      document.querySelectorAll("template[data-table]").forEach(function (t) {
        body.tables[t.dataset.table] = t.innerHTML;
      });
      document.querySelectorAll("template[data-part]").forEach(function (t) {
        body.parts[t.dataset.part] = t.innerHTML;
      });
      keep(body);
    } catch (e) {
      return; /* the links still work, a page per step */
    }
    shownTable = known[current] ? known[current][2] : -1;
    stepper.dataset.drawn = String(current);
    ready = true;
    document.body.dataset.replayReady = "true";
    near(current);
  }

  document.addEventListener("DOMContentLoaded", start);
})();
