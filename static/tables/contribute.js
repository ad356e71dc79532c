// The player's share of the next wall (issue 30, docs/RELIABILITY.md "The wall no one can
// choose"): the "Next hand" click carries 32 random bytes from the browser's own
// cryptographic generator. The server committed to its seed for that hand before (the
// commitment is on the result panel), and deals from a hash of its seed and both
// players' values, so it cannot pick the wall, and neither can the opponent. A page
// without this script sends none; that seat's part is then the server's alone, and the
// finished hand's page says so.
(function () {
  "use strict";

  function randomHex() {
    var bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  document.addEventListener("htmx:configRequest", function (e) {
    var button = e.detail.elt;
    if (!button || !button.hasAttribute || !button.hasAttribute("data-contribute")) return;
    if (!window.crypto || !crypto.getRandomValues) return;
    e.detail.parameters.contribution = randomHex();
  });
})();
