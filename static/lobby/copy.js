// "Copy link" of a private room: the button copies its field's text (the room's full URL)
// and a live region says so. Where the clipboard API is missing (a page served over plain
// http to another address is no secure context) or refused, the field is selected and
// copied the old way, or left selected for the player's own Ctrl+C, and the region says
// which. Without this script the button stays hidden: the field alone still works.
(function () {
  "use strict";
  var clearing = null;

  function say(status, text) {
    if (clearing) clearTimeout(clearing);
    // emptied first: the same words again (a second click) are announced again
    status.textContent = "";
    setTimeout(function () { status.textContent = text; }, 50);
    clearing = setTimeout(function () { status.textContent = ""; }, 6000);
  }

  function selectAndCopy(field, status) {
    field.focus();
    field.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    say(status, copied ? status.dataset.copied : status.dataset.selected);
  }

  function copy(button) {
    var field = document.getElementById(button.dataset.copy);
    var status = document.getElementById(button.dataset.copyStatus);
    if (!field || !status) return;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(
        function () { say(status, status.dataset.copied); },
        function () { selectAndCopy(field, status); }
      );
    } else {
      selectAndCopy(field, status);
    }
  }

  function reveal() {
    document.querySelectorAll("button[data-copy]").forEach(function (b) { b.hidden = false; });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (button) copy(button);
    if (event.target.id === "room-share") event.target.select();  // the link, whole
  });
  document.addEventListener("DOMContentLoaded", reveal);
  document.addEventListener("htmx:afterSettle", reveal);
})();
