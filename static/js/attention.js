// When the game waits on this player and the tab is in the background, the title and
// the icon say so; a short sound too, if the player turned it on (remembered here).
(function () {
  "use strict";
  var socketElt = document.getElementById("table-socket");
  if (!socketElt) return;
  var KEY = "durak.sound";
  var icon = document.querySelector('link[rel="icon"]');
  var plainIcon = icon ? icon.getAttribute("href") : "";
  var turnIcon = icon ? icon.dataset.turn : "";
  var plainTitle = document.title;
  var toggle = document.getElementById("sound-toggle");
  var audio = null;
  var waited = myMove();

  function soundOn() {
    try { return window.localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }

  function myMove() {
    return !!document.querySelector("#game .me.waited-on");
  }

  function chime() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    var now = audio.currentTime;
    [660, 880].forEach(function (pitch, i) {
      var tone = audio.createOscillator();
      var level = audio.createGain();
      tone.frequency.value = pitch;
      level.gain.setValueAtTime(0.0001, now + i * 0.12);
      level.gain.exponentialRampToValueAtTime(0.2, now + i * 0.12 + 0.02);
      level.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.18);
      tone.connect(level).connect(audio.destination);
      tone.start(now + i * 0.12);
      tone.stop(now + i * 0.12 + 0.2);
    });
  }

  function show() {
    var mine = myMove();
    var signal = mine && document.visibilityState === "hidden";
    document.title = signal ? (socketElt.dataset.yourMove || "") + " · " + plainTitle : plainTitle;
    if (icon && turnIcon) icon.setAttribute("href", signal ? turnIcon : plainIcon);
    if (mine && !waited && document.visibilityState === "hidden" && soundOn()) chime();
    waited = mine;
  }

  function showToggle() {
    if (toggle) toggle.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  }

  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      var on = !soundOn();
      try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
      showToggle();
      if (on) chime();
    });
    showToggle();
  }
  socketElt.addEventListener("htmx:wsAfterMessage", show);
  document.addEventListener("visibilitychange", show);
})();
