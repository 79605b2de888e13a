(function () {
  "use strict";
  // A row for a table this page has not listed yet gets a place at the top first, so the
  // update always finds its target.
  var lobby = document.querySelector(".lobby[ws-connect]");
  if (!lobby) return;
  lobby.addEventListener("htmx:wsBeforeMessage", function (event) {
    var rows = document.getElementById("table-rows");
    var found = /id="(table-row-\d+)"/g;
    var match;
    while (rows && (match = found.exec(event.detail.message)) !== null) {
      if (document.getElementById(match[1])) continue;
      var row = document.createElement("tr");
      row.id = match[1];
      rows.insertBefore(row, rows.firstChild);
    }
  });
})();
