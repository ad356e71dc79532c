// The clock of whoever must act: counts down to the server's deadline (data-deadline).
(function () {
  function tick() {
    var clock = document.getElementById("mj-clock");
    if (!clock) return;
    var out = clock.querySelector(".mj-seconds");
    var deadline = clock.dataset.deadline;
    if (!out) return;
    if (!deadline) { out.textContent = ""; return; }
    var left = Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
    out.textContent = left + "s";
    clock.classList.toggle("urgent", left <= 5);
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:oobAfterSwap", tick);
})();
