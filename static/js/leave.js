// Leaving a running game asks first, and says what happens to the seat and the stake.
(function () {
  "use strict";
  var dialog = document.getElementById("leave-dialog");
  if (!dialog) return;
  document.addEventListener("click", function (event) {
    if (event.target.closest('[data-action="leave-game"]')) {
      dialog.showModal();
    } else if (event.target.closest('#leave-dialog [data-action="stay"]')) {
      dialog.close();
    }
  });
  dialog.addEventListener("htmx:afterRequest", function () { dialog.close(); });
})();
