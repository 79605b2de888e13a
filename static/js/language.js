// Choosing a language in the header switches to it at once (the button is for pages without scripts).
(function () {
  "use strict";
  var select = document.getElementById("language");
  if (select) select.addEventListener("change", function () { select.form.submit(); });
})();
