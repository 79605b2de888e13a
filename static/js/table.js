(function () {
  "use strict";
  var socketElt = document.getElementById("table-socket");
  if (!socketElt) return;
  var mode = null; // {kind: "transfer"} or {kind: "target", card: "TH"}

  function game() { return document.getElementById("game"); }
  function version() { var g = game(); return g ? g.dataset.version : ""; }

  // A message of what changed swaps pieces of #game; #game-attrs carries what the section
  // and the player's own seat say of the whole (version, phase, role, classes).
  function applyAttrs() {
    var attrs = document.getElementById("game-attrs");
    var g = game();
    if (!attrs || !g) return;
    var a = attrs.dataset;
    g.className = "game phase-" + a.phase;
    ["version", "phase", "seat", "role", "gameId"].forEach(function (key) { g.dataset[key] = a[key]; });
    var me = document.getElementById("me");
    if (me) me.className = a.meClass;
    (a.seats || "").split(" ").filter(Boolean).forEach(function (state) {
      var parts = state.split(":");
      var seat = document.getElementById("seat-" + parts[0]);
      if (!seat) return;
      seat.dataset.cards = parts[1];
      seat.dataset.role = parts[2];
      seat.className = "seat role-" + parts[2] + (parts[3] === "1" ? " waited-on" : "") +
        (parts[0] === a.newDefender ? " new-defender" : "");
    });
    var countdown = document.getElementById("countdown");
    if (countdown) {
      countdown.dataset.deadline = a.deadline;
      countdown.dataset.kind = a.kind;
      countdown.hidden = a.phase !== "closing";
    }
  }
  applyAttrs();

  function send(values) {
    var form = document.getElementById("move-form");
    ["action", "card", "target", "version"].forEach(function (name) {
      form.elements[name].value = values[name] === undefined ? "" : values[name];
    });
    htmx.trigger(form, "submit");
  }

  function clearMode() {
    mode = null;
    document.querySelectorAll(".choosing").forEach(function (el) { el.classList.remove("choosing"); });
    document.querySelectorAll("#table .attack-card").forEach(function (b) { b.disabled = true; });
    var t = document.querySelector('[data-action="transfer"]');
    if (t) t.setAttribute("aria-pressed", "false");
  }

  function say(text) {
    var n = document.getElementById("notice");
    if (n) { n.className = "notice info"; n.textContent = text; }
  }

  document.addEventListener("click", function (event) {
    var plain = event.target.closest('#actions [data-action="take"], #actions [data-action="pass"]');
    if (plain) {
      if (!plain.disabled) send({action: plain.dataset.action, version: version()});
      return;
    }
    var transfer = event.target.closest('[data-action="transfer"]');
    if (transfer && !transfer.disabled) {
      var cards = (transfer.dataset.cards || "").split(" ").filter(Boolean);
      if (cards.length === 1) { send({action: "transfer", card: cards[0], version: version()}); return; }
      if (mode && mode.kind === "transfer") { clearMode(); return; }
      clearMode();
      mode = {kind: "transfer"};
      transfer.setAttribute("aria-pressed", "true");
      document.getElementById("hand").classList.add("choosing");
      say(socketElt.dataset.pickTransfer || "");
      return;
    }
    var card = event.target.closest("#hand .hand-card");
    if (card) {
      var code = card.dataset.card;
      if (mode && mode.kind === "transfer") {
        if (card.classList.contains("can-transfer")) { send({action: "transfer", card: code, version: version()}); }
        clearMode();
        return;
      }
      var action = card.dataset.action;
      if (!action) return;
      var targets = (card.dataset.targets || "").split(" ").filter(Boolean);
      if (action === "defend" && targets.length > 1) {
        clearMode();
        mode = {kind: "target", card: code};
        card.classList.add("choosing");
        document.querySelectorAll("#table .attack-card").forEach(function (b) {
          if (targets.indexOf(b.dataset.target) >= 0) { b.disabled = false; b.classList.add("choosing"); }
        });
        say(socketElt.dataset.pickTarget || "");
        return;
      }
      send({action: action, card: code, target: targets[0] || "", version: version()});
      clearMode();
      return;
    }
    var target = event.target.closest("#table .attack-card");
    if (target && mode && mode.kind === "target") {
      send({action: "defend", card: mode.card, target: target.dataset.target, version: version()});
      clearMode();
    }
  });

  document.addEventListener("keydown", function (event) { if (event.key === "Escape") clearMode(); });

  socketElt.addEventListener("htmx:wsBeforeMessage", function (event) {
    var incoming = document.createElement("template");
    incoming.innerHTML = event.detail.message;
    var current = parseInt(version() || "0", 10);
    var next = incoming.content.getElementById("game");
    if (next) {
      if (next.dataset.version && parseInt(next.dataset.version, 10) < current) event.preventDefault();
      return;
    }
    var changes = incoming.content.getElementById("game-attrs");
    if (!changes || changes.dataset.base === undefined) return;
    var g = game();
    if (!g || g.dataset.gameId !== changes.dataset.gameId || String(current) !== changes.dataset.base) {
      // Changes to a version this page does not show: ask for the whole picture.
      event.preventDefault();
      if (!g || g.dataset.gameId !== changes.dataset.gameId || parseInt(changes.dataset.version, 10) > current) {
        send({action: "sync"});
      }
    }
  });

  var shownVersion = version();
  socketElt.addEventListener("htmx:wsAfterMessage", function () {
    applyAttrs();
    clearMode();
    startTimers();
    if (version() !== shownVersion) {
      shownVersion = version();
      var n = document.getElementById("notice");
      if (n) n.textContent = "";
    }
    showBalance();
    var log = document.getElementById("log");
    if (log) log.scrollTop = log.scrollHeight;
  });

  function showBalance() {
    var now = document.getElementById("chips-now");
    var shown = document.querySelector(".site-header .balance");
    if (now && shown) shown.textContent = shown.textContent.replace(/\d[\d\s,.\u00a0]*/, now.dataset.chips + " ");
  }

  // Seated players report in now and then, so the table can show who is offline.
  setInterval(function () {
    if (game() && game().dataset.seat !== "") send({action: "ping"});
  }, 20000);

  socketElt.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event.code;
    if ([1006, 1011, 1012, 1013].indexOf(code) >= 0) return; // the extension retries these
    if (code === 4403) return;
    setTimeout(function () { event.detail.socketWrapper.reconnect(); }, 1000);
  });

  var frame = null;
  var offset = 0; // the server's clock minus this one's, as of the last message
  function startTimers() {
    var bar = document.getElementById("countdown");
    // A seat's timer and the player's own run to the game's one deadline, in #game-attrs.
    var timers = Array.prototype.slice.call(document.querySelectorAll("#game .timer"));
    var attrs = document.getElementById("game-attrs") || document.getElementById("game");
    if (attrs && attrs.dataset.now) offset = parseInt(attrs.dataset.now, 10) - Date.now();
    var deadline = attrs ? parseInt(attrs.dataset.deadline || "", 10) : NaN;
    if (frame) cancelAnimationFrame(frame);
    function step() {
      var t = Date.now() + offset;
      if (bar && bar.dataset.deadline && !bar.hidden) {
        var left = parseInt(bar.dataset.deadline, 10) - t;
        var whole = parseInt(bar.dataset.window || "8000", 10);
        bar.querySelector(".bar").style.width = Math.max(0, Math.min(100, 100 * left / whole)) + "%";
      }
      timers.forEach(function (timer) {
        if (isNaN(deadline)) return;
        var secs = Math.max(0, Math.ceil((deadline - t) / 1000));
        timer.querySelector(".seconds").textContent = secs + " " + (socketElt.dataset.secondsUnit || "s");
      });
      frame = requestAnimationFrame(step);
    }
    step();
  }
  startTimers();
})();
