/* The replay viewer: draws each step of a game rebuilt by the server (games/viewer.py) as one
   seat saw it, or with every hand open; steps with buttons, arrow keys, a slider or autoplay
   at a chosen speed; the move log follows the step. A file exported from a game page can be
   loaded too (it is verified by the server, nothing is stored). */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var L = JSON.parse(document.getElementById("replay-labels").textContent);
  var board = document.getElementById("replay-board");
  var slider = root.querySelector('[data-control="slider"]');
  var seatSelect = root.querySelector('[data-control="seat"]');
  var speedSelect = root.querySelector('[data-control="speed"]');
  var playButton = root.querySelector('[data-control="play"]');
  var logList = document.getElementById("replay-log");
  var positionText = document.getElementById("replay-position");
  var clockText = document.getElementById("replay-clock");
  var timerBox = document.getElementById("replay-timer");
  var SYMBOLS = {S: "\u2660", C: "\u2663", D: "\u2666", H: "\u2665"};
  var data = null, step = 0, playing = null, uploaded = null, animation = null;
  var mostWait = Number(root.dataset.mostWait) || 2;

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, key) { return values[key]; })
                   .replace(/%s/g, function () { return values._; });
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function card(code) {
    var rank = code[0] === "T" ? "10" : code[0], symbol = SYMBOLS[code[1]];
    var face = el("span", "card" + (code[1] === "D" || code[1] === "H" ? " red" : ""));
    face.dataset.code = code;
    face.dataset.rank = rank;
    face.dataset.suit = symbol;
    face.setAttribute("aria-hidden", "true");
    face.textContent = symbol;
    return face;
  }

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }

  function load(seat) {
    var url, options = {credentials: "same-origin"};
    if (root.dataset.url) {
      url = root.dataset.url + "?seat=" + encodeURIComponent(seat);
    } else {
      url = root.dataset.upload + "?seat=" + encodeURIComponent(seat);
      options.method = "POST";
      options.body = uploaded;
      options.headers = {"Content-Type": "application/json", "X-CSRFToken": csrfToken()};
    }
    return fetch(url, options).then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) throw new Error(body.error || L.failed);
        return body;
      });
    });
  }

  function name(seat) { return data.players[seat].name; }

  function seatBox(view, seat, open) {
    var role = view.roles[seat];
    var box = el("div", "seat role-" + role);
    box.dataset.seat = seat;
    box.dataset.cards = view.counts[seat];
    box.dataset.role = role;
    var title = el("div", "seat-name", name(seat));
    if (data.players[seat].bot) title.appendChild(el("span", "mark bot", L.bot));
    box.appendChild(title);
    var roles = el("div", "seat-role");
    roles.appendChild(el("span", "role-badge", L[role] || role));
    if (view.passed.indexOf(seat) >= 0) roles.appendChild(el("span", "mark passed", L.passed));
    box.appendChild(roles);
    if (open) {
      var hand = el("div", "known open-hand");
      view.hands[seat].forEach(function (code) { hand.appendChild(card(code)); });
      box.appendChild(hand);
    } else {
      var backs = el("div", "backs");
      backs.setAttribute("aria-label", fill(L.cards, {_: view.counts[seat]}));
      for (var i = 0; i < Math.min(view.counts[seat], 12); i++) backs.appendChild(el("span", "back"));
      backs.appendChild(el("span", "count", String(view.counts[seat])));
      box.appendChild(backs);
      if (view.known[seat].length) {
        var known = el("div", "known");
        view.known[seat].forEach(function (code) { known.appendChild(card(code)); });
        box.appendChild(known);
      }
    }
    if (view.deadline !== null && waitedOn(view) === seat) box.classList.add("waited-on");
    return box;
  }

  function waitedOn(view) {
    if (view.waiting_for === "lead") return view.attacker;
    if (view.waiting_for === "defence") return view.defender;
    return null;
  }

  function felt(view) {
    var felt = el("div", "felt");
    var deck = el("div", "deck");
    var stock = el("div", "stock");
    var trump = el("div", "trump replay-trump" + (view.talon ? "" : " gone"));
    trump.dataset.card = view.talon ? view.trump_card : "";
    if (view.talon) trump.appendChild(card(view.trump_card));
    else trump.appendChild(el("span", "trump-suit-big" + ("DH".indexOf(view.trump) >= 0 ? " red" : ""), SYMBOLS[view.trump]));
    stock.appendChild(trump);
    if (view.talon > 1) stock.appendChild(el("span", "back talon-back"));
    deck.appendChild(stock);
    deck.appendChild(el("div", "talon", fill(L.talon, {_: view.talon})));
    deck.appendChild(el("div", "discard", fill(L.discard, {_: view.discard})));
    felt.appendChild(deck);
    var pairs = el("div", "pairs replay-table");
    view.table.forEach(function (pair) {
      var box = el("div", "pair" + (pair[1] ? " beaten" : ""));
      box.dataset.attack = pair[0];
      if (pair[1]) box.dataset.defence = pair[1];
      var attack = el("span", "attack-card"); attack.appendChild(card(pair[0])); box.appendChild(attack);
      if (pair[1]) { var defence = el("span", "defence-card"); defence.appendChild(card(pair[1])); box.appendChild(defence); }
      pairs.appendChild(box);
    });
    if (!view.table.length) pairs.appendChild(el("p", "empty", view.phase === "over" ? L.over : L.empty));
    felt.appendChild(pairs);
    if (view.phase !== "over") {
      felt.appendChild(el("p", "round-info", fill(L.round, {
        round: view.round, attacker: name(view.attacker), defender: name(view.defender), limit: view.limit
      })));
    }
    return felt;
  }

  function draw() {
    var frame = data.steps[step], view = frame.view, open = data.seat === null;
    board.textContent = "";
    board.dataset.step = step;
    board.dataset.phase = view.phase;
    board.dataset.seat = open ? "all" : data.seat;
    var others = el("div", "opponents count-" + (open ? view.players : view.players - 1));
    for (var k = 0; k < view.players; k++) {
      var seat = open ? k : (data.seat + 1 + k) % view.players;
      if (!open && seat === data.seat) continue;
      others.appendChild(seatBox(view, seat, open));
    }
    board.appendChild(others);
    board.appendChild(felt(view));
    if (!open) {
      var me = el("div", "me role-" + view.roles[data.seat]);
      var title = el("div", "me-name");
      title.appendChild(el("span", "", name(data.seat)));
      title.appendChild(el("span", "role-badge", L[view.roles[data.seat]] || ""));
      me.appendChild(title);
      var hand = el("div", "hand replay-hand");
      view.hand.forEach(function (code) { var holder = el("span", "hand-card"); holder.dataset.card = code; holder.appendChild(card(code)); hand.appendChild(holder); });
      me.appendChild(hand);
      if (waitedOn(view) === data.seat && view.deadline !== null) me.classList.add("waited-on");
      board.appendChild(me);
    }
    slider.value = step;
    positionText.textContent = fill(L.step, {step: step + 1, steps: data.steps.length});
    clockText.textContent = fill(L.clock, {time: minutes(frame.at - data.start)});
    showTimer(frame, 0);
    logList.querySelectorAll("li").forEach(function (line) {
      var at = Number(line.dataset.step);
      line.classList.toggle("current", at === step);
      line.classList.toggle("future", at > step);
    });
    var current = logList.querySelector("li.current") || logList.querySelector("li:not(.future):last-of-type");
    if (current) logList.scrollTop = current.offsetTop - logList.offsetTop - logList.clientHeight / 2;
  }

  function minutes(seconds) {
    var whole = Math.max(0, Math.floor(seconds));
    var m = Math.floor(whole / 60), s = whole % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function timerLength(view) {
    var rules = data.rules;
    if (view.waiting_for === "window") return rules.throw_in_window;
    if (view.waiting_for === "close") return rules.close_delay;
    return rules.move_time;
  }

  function showTimer(frame, elapsed) {
    var view = frame.view;
    if (view.deadline === null || view.phase === "over") { timerBox.hidden = true; return; }
    var left = Math.max(0, view.deadline - frame.at - elapsed);
    var who = waitedOn(view);
    timerBox.hidden = false;
    timerBox.dataset.kind = view.waiting_for;
    timerBox.querySelector(".replay-timer-text").textContent = fill(L[view.waiting_for], {
      name: who === null ? "" : name(who), seconds: Math.ceil(left * 10) / 10
    });
    timerBox.querySelector(".bar").style.width = Math.min(100, 100 * left / timerLength(view)) + "%";
  }

  function go(target) {
    if (!data) return;
    step = Math.max(0, Math.min(data.steps.length - 1, target));
    draw();
  }

  function stop() {
    if (playing) clearTimeout(playing);
    if (animation) cancelAnimationFrame(animation);
    playing = animation = null;
    playButton.setAttribute("aria-pressed", "false");
    playButton.textContent = playButton.dataset.play;
  }

  function play() {
    if (!data) return;
    if (step >= data.steps.length - 1) go(0);
    playButton.setAttribute("aria-pressed", "true");
    playButton.textContent = playButton.dataset.pause;
    var next = function () {
      if (step >= data.steps.length - 1) { stop(); return; }
      var speed = Number(speedSelect.value) || 1;
      // A long think is cut to mostWait seconds of game time; the timer runs through all of it.
      var gap = data.steps[step + 1].at - data.steps[step].at;
      var shown = Math.min(gap, mostWait);
      var wait = Math.max(150, shown * 1000 / speed);
      var began = performance.now(), frame = data.steps[step];
      var tick = function (now) {
        showTimer(frame, Math.min(gap, (now - began) / wait * gap));
        animation = requestAnimationFrame(tick);
      };
      animation = requestAnimationFrame(tick);
      playing = setTimeout(function () {
        cancelAnimationFrame(animation);
        go(step + 1);
        next();
      }, wait);
    };
    next();
  }

  // What was said at the table, in the log at the step it was said in (text, never HTML).
  function chatLine(entry) {
    var line = el("li", "chat-line" + (entry.hidden ? " is-hidden" : ""));
    line.appendChild(el("span", "chat-author", entry.author));
    line.appendChild(document.createTextNode(": "));
    line.appendChild(el(entry.hidden ? "em" : "span", "chat-text", entry.text));
    return line;
  }

  function show(frames, keep) {
    data = frames;
    root.querySelectorAll("button[data-control], #replay-slider").forEach(function (control) {
      control.disabled = false;
    });
    slider.max = data.steps.length - 1;
    logList.textContent = "";
    data.log.forEach(function (entry) {
      var line = entry.chat ? chatLine(entry) : el("li", "", entry.text);
      line.dataset.step = entry.step;
      line.dataset.seq = entry.seq;
      line.addEventListener("click", function () { stop(); go(entry.step); });
      logList.appendChild(line);
    });
    var moves = document.getElementById("moves");
    if (moves) moves.closest("section").hidden = true;
    markCoachNotes();
    go(keep ? step : 0);
  }

  var coachNotes = null;
  function markCoachNotes() {
    if (!root.dataset.coachUrl) return;
    coachNotes = coachNotes || fetch(root.dataset.coachUrl).then(function (response) {
      return response.ok ? response.json() : {notes: []};
    }).catch(function () { return {notes: []}; });
    coachNotes.then(function (body) {
      body.notes.forEach(function (note) {
        var line = logList.querySelector('li[data-seq="' + note.seq + '"]');
        if (!line || line.querySelector(".coach-mark")) return;
        line.classList.add("coach-marked");
        line.appendChild(el("span", "coach-mark", note.text));
      });
    });
  }

  function fail(error) {
    var target = document.getElementById("replay-error");
    if (target) { target.textContent = error.message; root.hidden = true; }
    else board.textContent = error.message;
  }

  function reload() {
    stop();
    load(seatSelect.value).then(function (frames) { show(frames, true); }).catch(fail);
  }

  root.addEventListener("click", function (event) {
    var control = event.target.closest("button[data-control]");
    if (!control || !data) return;
    var what = control.dataset.control;
    if (what === "play") { if (playing) stop(); else play(); return; }
    stop();
    if (what === "first") go(0);
    if (what === "back") go(step - 1);
    if (what === "forward") go(step + 1);
    if (what === "last") go(data.steps.length - 1);
  });
  slider.addEventListener("input", function () { stop(); go(Number(slider.value)); });
  seatSelect.addEventListener("change", reload);
  document.addEventListener("keydown", function (event) {
    if (!data || root.hidden) return;
    var tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowRight") { stop(); go(step + 1); event.preventDefault(); }
    else if (event.key === "ArrowLeft") { stop(); go(step - 1); event.preventDefault(); }
    else if (event.key === "Home") { stop(); go(0); event.preventDefault(); }
    else if (event.key === "End") { stop(); go(data.steps.length - 1); event.preventDefault(); }
  });

  var file = document.getElementById("replay-file");
  if (file) {
    file.addEventListener("change", function () {
      var chosen = file.files[0];
      if (!chosen) return;
      var error = document.getElementById("replay-error");
      error.textContent = "";
      chosen.text().then(function (text) {
        uploaded = text;
        seatSelect.value = "all";
        return load("all");
      }).then(function (frames) {
        seatSelect.querySelectorAll("option:not([value=all])").forEach(function (o) { o.remove(); });
        frames.players.forEach(function (player) {
          var option = el("option", "", player.name);
          option.value = player.seat;
          seatSelect.appendChild(option);
        });
        root.hidden = false;
        show(frames, false);
      }).catch(fail);
    });
  } else {
    load(seatSelect.value).then(function (frames) { show(frames, false); }).catch(fail);
  }
})();
