// The new-game form: a seat option ("who speaks first") names the players
// chosen above it, and offers only the seats that are taken.
(function () {
  "use strict";
  var form = document.getElementById("new-game");
  if (!form) return;
  var seats = form.querySelectorAll("select[name=seat]");
  function update() {
    form.querySelectorAll("select[data-seat-choice] option[data-seat]").forEach(function (option) {
      var seat = seats[Number(option.getAttribute("data-seat"))];
      var picked = seat && seat.value ? seat.options[seat.selectedIndex].text : "";
      option.hidden = !picked;
      option.disabled = !picked;
      if (picked) option.textContent = picked;
    });
  }
  seats.forEach(function (select) { select.addEventListener("change", update); });
  update();
})();
