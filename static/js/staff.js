(function () {
  "use strict";
  var room = document.getElementById("control-room");
  if (!room) return;
  var rows = document.getElementById("staff-rows");
  var table = rows.closest("table");
  var notice = document.getElementById("staff-notice");
  var liveState = document.getElementById("live-state");
  var clockOffset = Number(room.dataset.now) - Date.now();
  var stuckAfter = Number(room.dataset.stuckAfter) * 1000;
  var socket = null;
  var retry = 500;

  function shown() {
    var checked = room.querySelector("[data-filter]:checked");
    return checked ? checked.value : "all";
  }

  function lateMs(row) {
    var deadline = Number(row.dataset.deadline);
    if (!deadline) return 0;
    return Math.max(0, Date.now() + clockOffset - deadline);
  }

  function matches(row) {
    var filter = shown();
    if (filter === "stuck") return lateMs(row) > stuckAfter;
    return filter === "all" || row.dataset.state === filter;
  }

  var order = {
    late: function (a, b) { return lateMs(b) - lateMs(a); },
    name: function (a, b) { return a.dataset.name.localeCompare(b.dataset.name); },
    stake: function (a, b) { return Number(b.dataset.stake) - Number(a.dataset.stake); },
    bank: function (a, b) { return Number(b.dataset.bank) - Number(a.dataset.bank); },
    players: function (a, b) { return Number(b.dataset.players) - Number(a.dataset.players); },
    newest: function (a, b) { return Number(b.dataset.tableId) - Number(a.dataset.tableId); }
  };

  function arrange() {
    var sort = table.dataset.sort in order ? table.dataset.sort : "late";
    var all = Array.prototype.slice.call(rows.querySelectorAll("tr.table-row"));
    all.sort(function (a, b) { return order[sort](a, b) || Number(a.dataset.tableId) - Number(b.dataset.tableId); });
    var visible = 0;
    all.forEach(function (row) {
      rows.appendChild(row);
      row.hidden = !matches(row);
      if (!row.hidden) visible += 1;
    });
    document.getElementById("no-rows").hidden = visible > 0;
  }

  function tick() {
    rows.querySelectorAll("tr.table-row").forEach(function (row) {
      var late = lateMs(row);
      var label = row.querySelector(".late");
      if (label) label.textContent = late >= 1000 ? room.dataset.lateTemplate.replace("{s}", Math.round(late / 1000)) : "";
      row.classList.toggle("stuck", late > stuckAfter);
    });
    if (shown() === "stuck" || table.dataset.sort === "late") arrange();
  }

  function parseRow(html) {
    var holder = document.createElement("tbody");
    holder.innerHTML = html;
    return holder.querySelector("tr");
  }

  function replaceRows(changed) {
    Object.keys(changed).forEach(function (id) {
      var old = document.getElementById("staff-table-" + id);
      var open = old && old.querySelector("details[open]");
      var typed = old ? Array.prototype.map.call(old.querySelectorAll("input[name=reason], input[name=text]"), function (i) { return i.value; }) : [];
      if (!changed[id]) { if (old) old.remove(); return; }
      var row = parseRow(changed[id]);
      if (!row) return;
      if (open) row.querySelector("details").open = true;
      row.querySelectorAll("input[name=reason], input[name=text]").forEach(function (input, i) { if (typed[i]) input.value = typed[i]; });
      if (old) old.replaceWith(row); else rows.appendChild(row);
    });
    arrange();
  }

  function addAudit(html) {
    var list = document.getElementById("audit-rows");
    var row = parseRow(html);
    if (!list || !row) return;
    var empty = list.querySelector("tr.empty");
    if (empty) empty.remove();
    if (!document.getElementById(row.id)) list.insertBefore(row, list.firstChild);
  }

  function say(text, ok) {
    notice.textContent = text;
    notice.className = "notice " + (ok ? "info" : "error");
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + room.dataset.socket);
    socket.onopen = function () {
      retry = 500;
      liveState.textContent = room.dataset.connected;
      liveState.classList.add("online");
    };
    socket.onclose = function () {
      liveState.textContent = room.dataset.disconnected;
      liveState.classList.remove("online");
      socket = null;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
    socket.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (message.rows) replaceRows(message.rows);
      if (message.audit) addAudit(message.audit);
      if (message.banners) {
        var banners = document.getElementById("site-banners");
        if (banners) banners.outerHTML = message.banners;
      }
      if (message.result) say(message.result.message, message.result.ok);
    };
  }

  rows.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-staff-action]");
    if (!form) return;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      if (!form.querySelector("input[name=csrfmiddlewaretoken]")) {
        var token = document.createElement("input");
        token.type = "hidden";
        token.name = "csrfmiddlewaretoken";
        token.value = room.dataset.csrf;
        form.appendChild(token);
      }
      return;
    }
    event.preventDefault();
    var message = {action: form.dataset.staffAction, table: Number(form.dataset.table)};
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") message[name] = name === "position" ? Number(value) : value;
    });
    socket.send(JSON.stringify(message));
    form.reset();
  });

  room.addEventListener("change", function (event) {
    if (event.target.matches("[data-filter]")) arrange();
    if (event.target.matches("[data-sort]")) { table.dataset.sort = event.target.value; arrange(); }
  });
  room.addEventListener("click", function (event) {
    var header = event.target.closest("[data-sort-by]");
    if (!header) return;
    table.dataset.sort = header.dataset.sortBy;
    var select = room.querySelector("[data-sort]");
    if (select) select.value = header.dataset.sortBy;
    arrange();
  });

  arrange();
  setInterval(tick, 1000);
  connect();
})();
