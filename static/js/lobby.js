(function () {
  "use strict";
  document.body.addEventListener("htmx:oobErrorNoTarget", function (event) {
    var row = event.detail.content;
    var rows = document.getElementById("table-rows");
    if (row && rows && row.classList && row.classList.contains("table-row")) {
      row.removeAttribute("hx-swap-oob");
      rows.insertBefore(row, rows.firstChild);
      htmx.process(row);
    }
  });
})();
