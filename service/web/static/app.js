// tablerecord's pages: a few lines of plain JavaScript on top of server-rendered HTML.
(function () {
  "use strict";

  var palette = ["#1b6ca8", "#d1495b", "#2e933c", "#edae49", "#7b4b94", "#00798c", "#8f2d56", "#5c5c5c"];

  function data(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  // League: every player's rating after each rated game of the page.
  function ratingChart() {
    var chart = data("rating-data");
    var canvas = document.getElementById("rating-chart");
    if (!chart || !canvas || !window.Chart) return;
    new window.Chart(canvas, {
      type: "line",
      data: {
        datasets: chart.series.map(function (s, i) {
          return {
            label: s.name,
            data: s.points.map(function (p) { return { x: p[0], y: p[1] }; }),
            borderColor: palette[i % palette.length],
            backgroundColor: palette[i % palette.length],
            pointRadius: 2,
            tension: 0,
          };
        }),
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        parsing: false,
        scales: { x: { type: "linear", title: { display: true, text: "rated game" }, ticks: { stepSize: 1, precision: 0 } },
                  y: { title: { display: true, text: "rating" }, ticks: { precision: 0 } } },
        plugins: {
          legend: { position: "bottom" },
          tooltip: { callbacks: { title: function (items) {
            var game = items.length ? items[0].parsed.x : null;
            var date = chart.dates && chart.dates[game];
            return game === null ? "" : "Game " + game + (date ? ", " + date : "");
          } } },
        },
      },
    });
  }

  // Statistics: win rate by seat; each player's win rate beside their luck.
  function statisticsCharts() {
    var stats = data("stats-data");
    if (!stats || !window.Chart) return;
    var bySeat = document.getElementById("seat-chart");
    if (bySeat) {
      new window.Chart(bySeat, {
        type: "bar",
        data: {
          labels: stats.by_seat.map(function (r) { return r.label; }),
          datasets: [{ label: "win rate", data: stats.by_seat.map(function (r) { return r.win_rate; }),
                       backgroundColor: palette[0] }],
        },
        options: { animation: false, maintainAspectRatio: false, scales: { y: { min: 0, max: 1 } } },
      });
    }
    var luck = document.getElementById("luck-chart");
    if (luck) {
      new window.Chart(luck, {
        type: "bar",
        data: {
          labels: stats.players.map(function (p) { return p.name; }),
          datasets: [
            { label: "win rate", data: stats.players.map(function (p) { return p.win_rate; }), backgroundColor: palette[0] },
            { label: "luck (percentile)", data: stats.players.map(function (p) { return p.luck; }), backgroundColor: palette[3] },
          ],
        },
        options: { animation: false, maintainAspectRatio: false, scales: { y: { min: 0, max: 1 } } },
      });
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    ratingChart();
    statisticsCharts();
  });
})();

// "Copy the link" buttons: copy the named field's text (the field stays selectable without script).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    field.select();
    var done = function () { button.textContent = "Copied"; };
    if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () {});
    else if (document.execCommand && document.execCommand("copy")) done();
  });
})();

// A page still being prepared (a replay the worker has not drawn yet) looks
// again every two seconds and shows itself once it is ready: one reload then,
// rather than a refresh every two seconds while a reader is on it.
(function () {
  "use strict";
  var LOOKS = 150;

  function awaitReady() {
    if (!document.querySelector("[data-await-ready]")) return;
    var looks = 0;
    function look() {
      if (++looks > LOOKS) return;
      var again = function () { setTimeout(look, 2000); };
      fetch(location.href, { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html" } })
        .then(function (response) { return response.ok ? response.text() : ""; })
        .then(function (page) {
          if (page && page.indexOf("data-await-ready") < 0) location.reload(); else again();
        }, again);
    }
    setTimeout(look, 2000);
  }

  document.addEventListener("DOMContentLoaded", awaitReady);
})();
