(function () {
  "use strict";
  var socketElt = document.getElementById("table-socket");
  if (!socketElt) return;
  var mode = null; // {kind: "transfer"} or {kind: "target", card: "TH"}

  function game() { return document.getElementById("game"); }
  function version() { var g = game(); return g ? g.dataset.version : ""; }

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
    var next = incoming.content.getElementById("game");
    if (!next || !next.dataset.version) return;
    var current = parseInt(version() || "0", 10);
    if (parseInt(next.dataset.version, 10) < current) event.preventDefault();
  });

  var shownVersion = version();
  socketElt.addEventListener("htmx:wsAfterMessage", function () {
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
  function startTimers() {
    var bar = document.getElementById("countdown");
    var timers = Array.prototype.slice.call(document.querySelectorAll("#game .timer[data-deadline]"));
    var now = Date.now();
    [bar].concat(timers).forEach(function (el) {
      if (el && el.dataset.now) el._offset = parseInt(el.dataset.now, 10) - now;
    });
    if (frame) cancelAnimationFrame(frame);
    function step() {
      var t = Date.now();
      if (bar && bar.dataset.deadline && !bar.hidden) {
        var left = parseInt(bar.dataset.deadline, 10) - (t + bar._offset);
        var whole = parseInt(bar.dataset.window || "8000", 10);
        bar.querySelector(".bar").style.width = Math.max(0, Math.min(100, 100 * left / whole)) + "%";
      }
      timers.forEach(function (timer) {
        var secs = Math.max(0, Math.ceil((parseInt(timer.dataset.deadline, 10) - (t + timer._offset)) / 1000));
        timer.querySelector(".seconds").textContent = secs + " " + (socketElt.dataset.secondsUnit || "s");
      });
      frame = requestAnimationFrame(step);
    }
    step();
  }
  startTimers();
})();
