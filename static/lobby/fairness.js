// The hand page checks its own fairness proof (issue 30): SHA-256(seed || salt), the salt
// being the first 16 bytes of SHA-256("mahjong-salt|" || seed), exactly the bytes the
// server hashes (mahjong/engine/wall.py), must equal the commitment published when the
// hand began. WebCrypto does it in the browser, so the check needs no trust in the page's
// server-side verdict; the CLI remains for those who trust no page at all. crypto.subtle
// exists only in a secure context (https, or this machine): elsewhere the page says so.
(function () {
  "use strict";

  function bytesOf(hex) {
    if (!/^([0-9a-f]{2})*$/i.test(hex)) return null;
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
    return out;
  }

  function hexOf(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function joined(a, b) {
    var out = new Uint8Array(a.length + b.length);
    out.set(a, 0);
    out.set(b, a.length);
    return out;
  }

  function commitmentOf(seed) {
    var label = new TextEncoder().encode("mahjong-salt|");
    return crypto.subtle.digest("SHA-256", joined(label, seed)).then(function (salted) {
      var salt = new Uint8Array(salted).slice(0, 16);
      return crypto.subtle.digest("SHA-256", joined(seed, salt));
    }).then(hexOf);
  }

  function show(box, state) {
    var result = box.querySelector("[data-fairness-result]");
    result.dataset.state = state;
    result.textContent = result.dataset[state];
  }

  function check(box) {
    var seed = bytesOf(box.dataset.seed || "");
    var published = (box.dataset.commitment || "").toLowerCase();
    if (!window.crypto || !crypto.subtle || !window.TextEncoder) return show(box, "unavailable");
    if (!seed || !seed.length) return show(box, "bad");
    commitmentOf(seed).then(function (computed) {
      show(box, computed === published ? "ok" : "bad");
    }, function () { show(box, "unavailable"); });
  }

  document.querySelectorAll("[data-fairness]").forEach(check);
})();
