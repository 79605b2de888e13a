// Cards move on the table: each update is swapped in at once (nothing waits for an
// animation), then every card that changed place is drawn sliding from where it was.
// A card new to the page comes from the talon (a draw) or from the seat that played it;
// a card that left the page flies to the discard pile or to the hand that took it.
(function () {
  "use strict";
  var socketElt = document.getElementById("table-socket");
  if (!socketElt) return;
  var reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
  var DURATION = 320;
  var before = null;

  function rectOf(el) { return el ? el.getBoundingClientRect() : null; }
  function centre(rect) { return {x: rect.left + rect.width / 2, y: rect.top + rect.height / 2}; }

  function picture() {
    var game = document.getElementById("game");
    if (!game || game.dataset.phase === "waiting") return null;
    var cards = {};
    game.querySelectorAll("#hand .card[data-code], #table .card[data-code]").forEach(function (el) {
      cards[el.dataset.code] = {el: el, rect: rectOf(el), inHand: !!el.closest("#hand")};
    });
    var seats = {};
    game.querySelectorAll(".opponents .seat[data-seat]").forEach(function (el) {
      seats[el.dataset.seat] = {count: parseInt(el.dataset.cards || "0", 10), rect: rectOf(el.querySelector(".backs") || el)};
    });
    var talon = game.querySelector(".talon");
    var discard = game.querySelector(".discard");
    return {
      game: game.dataset.gameId,
      cards: cards,
      seats: seats,
      defender: defenderRect(game),
      talon: rectOf(game.querySelector(".stock") || talon),
      talonCount: talon ? parseInt(talon.dataset.talon || "0", 10) : 0,
      discard: rectOf(discard),
      discardCount: discard ? parseInt(discard.dataset.discard || "0", 10) : 0,
      hand: rectOf(game.querySelector("#hand")),
    };
  }

  function defenderRect(game) {
    var el = game.querySelector('.seat[data-role="defender"] .backs') || game.querySelector(".me.role-defender #hand");
    return rectOf(el);
  }

  // The card's own frame may be rotated (a beating card lies askew): move in that frame.
  function localDelta(el, dx, dy) {
    var transform = el.parentElement ? getComputedStyle(el.parentElement).transform : "none";
    if (!transform || transform === "none") return {x: dx, y: dy};
    var matrix = new DOMMatrixReadOnly(transform);
    if (matrix.isIdentity) return {x: dx, y: dy};
    var inverse = matrix.inverse();
    return {x: inverse.a * dx + inverse.c * dy, y: inverse.b * dx + inverse.d * dy};
  }

  function slide(el, from, to) {
    var d = localDelta(el, from.left - to.left, from.top - to.top);
    var scale = to.width ? from.width / to.width : 1;
    if (Math.abs(d.x) < 1 && Math.abs(d.y) < 1 && Math.abs(scale - 1) < 0.02) return false;
    el.classList.remove("moving");
    el.style.transformOrigin = "0 0";
    el.style.transform = "translate(" + d.x + "px," + d.y + "px) scale(" + scale + ")";
    return true;
  }

  function ghost(source, from, to) {
    var el = source ? source.cloneNode(true) : document.createElement("span");
    if (!source) el.className = "back";
    el.classList.add("ghost");
    el.removeAttribute("id");
    el.style.left = from.left + "px";
    el.style.top = from.top + "px";
    el.style.width = from.width + "px";
    el.style.height = from.height + "px";
    el.style.setProperty("--w", from.width + "px");
    document.body.appendChild(el);
    var a = centre(from), b = centre(to);
    el.dataset.to = "translate(" + (b.x - a.x) + "px," + (b.y - a.y) + "px) scale(.6)";
    return el;
  }

  function grownSeats(old, now) {
    return Object.keys(now.seats).filter(function (s) { return old.seats[s] && now.seats[s].count > old.seats[s].count; });
  }

  function shrunkSeat(old, now) {
    var s = Object.keys(now.seats).filter(function (k) { return old.seats[k] && now.seats[k].count < old.seats[k].count; });
    return s.length ? now.seats[s[0]].rect : null;
  }

  function play(old, now) {
    var moving = [];
    var ghosts = [];
    var grown = grownSeats(old, now);
    var drew = now.talonCount < old.talonCount;
    var takerRect = null;
    var leaving = Object.keys(old.cards).filter(function (code) { return !now.cards[code] && !old.cards[code].inHand; });
    if (leaving.length && now.discardCount <= old.discardCount) {
      var takers = grown.filter(function (s) { return now.seats[s].count - old.seats[s].count >= leaving.length; });
      takerRect = takers.length ? now.seats[takers[0]].rect : null;
    }
    var from = shrunkSeat(old, now) || old.defender || old.talon;
    Object.keys(now.cards).forEach(function (code) {
      var card = now.cards[code];
      var was = old.cards[code];
      var start = was ? was.rect : (card.inHand ? now.talon : from);
      if (start && slide(card.el, start, card.rect)) moving.push(card.el);
    });
    leaving.forEach(function (code) {
      var to = takerRect || now.discard;
      if (to) ghosts.push(ghost(old.cards[code].el, old.cards[code].rect, to));
    });
    if (drew && now.talon) {
      grown.forEach(function (s) {
        var extra = Math.min(now.seats[s].count - old.seats[s].count, 6);
        if (takerRect && now.seats[s].rect === takerRect) return;
        for (var i = 0; i < extra; i++) ghosts.push(ghost(null, now.talon, now.seats[s].rect));
      });
    }
    if (!moving.length && !ghosts.length) return;
    socketElt.dataset.moves = String(parseInt(socketElt.dataset.moves || "0", 10) + moving.length + ghosts.length);
    document.body.getBoundingClientRect();
    requestAnimationFrame(function () {
      moving.forEach(function (el) {
        el.classList.add("moving");
        el.style.transform = "";
        el.addEventListener("transitionend", function done() {
          el.classList.remove("moving");
          el.style.transformOrigin = "";
        }, {once: true});
      });
      ghosts.forEach(function (el) {
        el.classList.add("flying");
        el.style.transform = el.dataset.to;
        el.style.opacity = "0";
        setTimeout(function () { el.remove(); }, DURATION + 80);
      });
    });
  }

  function transferSlide(old, now) {
    var headline = document.querySelector("#headline.kind-transfer");
    var table = document.getElementById("table");
    if (!headline || !table || !old.defender) return;
    var target = defenderRect(document.getElementById("game"));
    if (!target) return;
    var a = centre(old.defender), b = centre(target);
    table.style.setProperty("--slide-x", ((b.x - a.x) * 0.25) + "px");
    table.style.setProperty("--slide-y", ((b.y - a.y) * 0.25) + "px");
    table.classList.remove("sliding");
    table.getBoundingClientRect();
    table.classList.add("sliding");
  }

  function still() { return reduced.matches || document.hidden; }

  socketElt.addEventListener("htmx:wsBeforeMessage", function () {
    before = still() ? null : picture();
  });

  socketElt.addEventListener("htmx:wsAfterMessage", function () {
    var old = before;
    before = null;
    if (!old || still()) return;
    var now = picture();
    if (!now || now.game !== old.game) return;
    var transferred = document.querySelector("#headline.kind-transfer") && old.defender && !samePlace(old.defender, defenderRect(document.getElementById("game")));
    play(old, now);
    if (transferred) transferSlide(old, now);
  });

  function samePlace(a, b) { return b && Math.abs(a.left - b.left) < 2 && Math.abs(a.top - b.top) < 2; }
})();
