(function () {
  "use strict";
  var chat = document.getElementById("chat");
  if (!chat) return;
  var body = document.getElementById("chat-body");
  var toggle = chat.querySelector(".chat-toggle");
  var badge = chat.querySelector(".chat-unread");
  var phone = window.matchMedia("(max-width: 700px)");
  var unread = 0;
  var lastSeen = 0;
  var BUBBLE_MS = 4000;

  function lines() { return document.getElementById("chat-lines"); }
  function folded() { return phone.matches && !chat.classList.contains("open"); }

  function showUnread() {
    badge.hidden = unread === 0;
    badge.textContent = unread > 99 ? "99+" : String(unread);
  }

  function setOpen(open) {
    chat.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) { unread = 0; showUnread(); scrollDown(true); }
  }

  function scrollDown(always) {
    var list = lines();
    if (!list) return;
    var nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 60;
    if (always || nearBottom) list.scrollTop = list.scrollHeight;
  }

  function mark(line) {
    if (line.dataset.author === chat.dataset.me) line.classList.add("mine");
    var id = parseInt(line.dataset.message || "0", 10);
    var fresh = id > lastSeen;
    if (fresh) lastSeen = id;
    return fresh && !line.classList.contains("mine");
  }

  function seen(list) {
    if (list) list.querySelectorAll(".chat-line").forEach(mark);
  }

  new MutationObserver(function (records) {
    var news = 0;
    records.forEach(function (record) {
      record.addedNodes.forEach(function (node) {
        if (node.nodeType !== 1) return;
        if (node.id === "chat-lines") { seen(node); return; }
        if (node.classList.contains("chat-line") && mark(node)) news += 1;
      });
    });
    if (news && folded()) { unread += news; showUnread(); }
    scrollDown(false);
  }).observe(body, {childList: true, subtree: true});

  toggle.addEventListener("click", function () { setOpen(!chat.classList.contains("open")); });
  phone.addEventListener("change", function () { setOpen(!phone.matches); });

  function command(values) {
    var form = document.getElementById("chat-command");
    ["action", "player", "message", "reason"].forEach(function (name) {
      form.elements[name].value = values[name] === undefined ? "" : values[name];
    });
    htmx.trigger(form, "submit");
  }

  chat.addEventListener("click", function (event) {
    var mute = event.target.closest("[data-chat-mute]");
    if (mute) { command({action: "chat-mute", player: mute.dataset.chatMute}); return; }
    var unmute = event.target.closest("[data-chat-unmute]");
    if (unmute) { command({action: "chat-unmute", player: unmute.dataset.chatUnmute}); return; }
    var hide = event.target.closest("[data-chat-hide]");
    if (hide) {
      var reason = window.prompt(chat.dataset.hidePrompt || "");
      if (reason && reason.trim()) command({action: "chat-hide", message: hide.dataset.chatHide, reason: reason});
    }
  });

  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target;
    if (form && form.id === "chat-form") { form.elements.text.value = ""; form.elements.text.focus(); }
  });

  // A quick reaction shows for a moment by the seat of the one who sent it.
  function seatOf(position) {
    var game = document.getElementById("game");
    if (!game) return null;
    var mine = game.dataset.seat === position && game.querySelector(".me");
    return mine || game.querySelector('.seat[data-seat="' + position + '"]') || game;
  }

  function place(bubble) {
    var seat = seatOf(bubble.dataset.seat);
    if (seat) {
      var box = seat.getBoundingClientRect();
      bubble.style.left = (box.left + window.scrollX + box.width / 2) + "px";
      bubble.style.top = (box.top + window.scrollY) + "px";
    }
    setTimeout(function () { bubble.remove(); }, BUBBLE_MS);
  }

  var layer = document.getElementById("reactions");
  new MutationObserver(function (records) {
    records.forEach(function (record) {
      record.addedNodes.forEach(function (node) {
        if (node.nodeType === 1 && node.classList.contains("reaction-bubble")) place(node);
      });
    });
  }).observe(layer, {childList: true});

  seen(lines());
  setOpen(!phone.matches);
  scrollDown(true);
})();
