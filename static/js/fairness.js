/* The provably fair deal in the browser.
   At a table: whenever the page shows a new commitment for the next deal ([data-commitment]
   with [data-seed-url], i.e. the reader sits there), send a random seed of our own for it.
   On a game's page: "verify" recomputes the seed's SHA-256 and the deal with Web Crypto. */
(function () {
  "use strict";

  function hex(bytes) {
    return Array.prototype.map.call(new Uint8Array(bytes), function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }

  var sent = {}, accepted = {};
  function showAccepted() {
    document.querySelectorAll("[data-commitment][data-seed-url]").forEach(function (el) {
      var mark = el.querySelector(".seed-sent");
      if (mark && accepted[el.dataset.commitment]) mark.hidden = false;
    });
  }
  function contribute() {
    /* A live update may draw the waiting table again: an accepted seed's mark stays shown. */
    showAccepted();
    document.querySelectorAll("[data-commitment][data-seed-url]").forEach(function (el) {
      var commitment = el.dataset.commitment;
      if (sent[commitment]) return;
      sent[commitment] = true;
      var seed = hex(crypto.getRandomValues(new Uint8Array(16)));
      var body = new URLSearchParams({seed: seed, commitment: commitment});
      fetch(el.dataset.seedUrl, {method: "POST", body: body, credentials: "same-origin",
                                 headers: {"X-CSRFToken": csrfToken()}})
        .then(function (response) {
          if (response.ok) accepted[commitment] = true;
          showAccepted();
        })
        .catch(function () { sent[commitment] = false; });
    });
  }
  contribute();
  new MutationObserver(contribute).observe(document.body, {childList: true, subtree: true});

  /* ------------------------------------------------------------------ verify */
  var RANKS = "6789TJQKA", SUITS = "SCDH";
  var encoder = new TextEncoder();

  function sha256(text) {
    return crypto.subtle.digest("SHA-256", encoder.encode(text)).then(hex);
  }

  function fairDeck(seed, salt) {
    var cards = [];
    for (var r = 0; r < RANKS.length; r++) for (var s = 0; s < SUITS.length; s++) cards.push(RANKS[r] + SUITS[s]);
    return crypto.subtle.importKey("raw", encoder.encode(seed), {name: "HMAC", hash: "SHA-256"}, false, ["sign"])
      .then(function (key) {
        return Promise.all(cards.map(function (card) {
          return crypto.subtle.sign("HMAC", key, encoder.encode(salt + "|" + card)).then(hex);
        }));
      })
      .then(function (keys) {
        var order = cards.map(function (card, i) { return {card: card, key: keys[i]}; });
        order.sort(function (a, b) { return a.key < b.key ? -1 : a.key > b.key ? 1 : 0; });
        return order.map(function (entry) { return entry.card; });
      });
  }

  function verify(button) {
    var data = JSON.parse(document.getElementById("fairness-data").textContent);
    var out = document.getElementById("verify-result");
    var say = function (ok, text) {
      out.textContent = text;
      out.className = "verify-result " + (ok ? "ok" : "bad");
      out.dataset.verified = ok ? "yes" : "no";
    };
    if (!window.crypto || !crypto.subtle) { say(false, button.dataset.noCrypto); return; }
    var salt = ["durak-deal/1", String(data.deal_game)].concat(data.client_seeds).join("|");
    Promise.all([sha256(data.seed), fairDeck(data.seed, salt)]).then(function (results) {
      if (results[0] !== data.seed_hash) { say(false, button.dataset.badHash); return; }
      var deck = results[1], hands = data.hands, n = hands.length;
      for (var i = 0; i < n; i++) {
        if (deck.slice(6 * i, 6 * i + 6).join(" ") !== hands[i].join(" ")) { say(false, button.dataset.badDeal); return; }
      }
      if (deck.slice(6 * n).join(" ") !== data.talon.join(" ")) { say(false, button.dataset.badDeal); return; }
      say(true, button.dataset.ok);
    }).catch(function () { say(false, button.dataset.noCrypto); });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest('[data-action="verify"]');
    if (button) verify(button);
  });
})();
