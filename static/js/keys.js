// Playing from the keyboard (described on the rules page): 1-9 and 0 tap the cards of the
// hand from the left (or, while choosing, the highlighted cards on the table); Q, W and E
// press Transfer, Take and Pass; the arrows move between the cards; Escape cancels.
(function () {
  "use strict";
  if (!document.getElementById("table-socket")) return;
  var BUTTONS = {KeyQ: "transfer", KeyW: "take", KeyE: "pass"};

  function typing(target) {
    return target && target.closest && target.closest("input, select, textarea, [contenteditable]");
  }

  function press(el) {
    if (el && !el.disabled) { el.focus(); el.click(); }
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    var hand = Array.prototype.slice.call(document.querySelectorAll("#hand .hand-card"));
    var digit = /^Digit(\d)$/.exec(event.code);
    if (digit) {
      var index = digit[1] === "0" ? 9 : parseInt(digit[1], 10) - 1;
      var targets = document.querySelectorAll("#table .attack-card.choosing");
      press(targets.length ? targets[index] : hand[index]);
      event.preventDefault();
      return;
    }
    if (BUTTONS[event.code]) {
      press(document.querySelector('#game button[data-action="' + BUTTONS[event.code] + '"]'));
      event.preventDefault();
      return;
    }
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      if (!hand.length) return;
      var at = hand.indexOf(document.activeElement);
      var step = event.key === "ArrowRight" ? 1 : -1;
      hand[at < 0 ? 0 : (at + step + hand.length) % hand.length].focus();
      event.preventDefault();
    }
  });
})();
