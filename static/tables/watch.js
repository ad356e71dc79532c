// The spectator's clock: counts down to the server's deadline (data-deadline) of whoever
// must act. Spectators send nothing over their socket.
(function () {
  function tick() {
    var clock = document.getElementById("mj-watch-clock");
    var out = clock && clock.querySelector(".mj-seconds");
    if (!out) return;
    var deadline = clock.dataset.deadline;
    if (!deadline) { out.textContent = ""; return; }
    var left = Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
    // "15s" / "15秒": the unit is the page's language (data-unit, translated)
    out.textContent = (clock.dataset.unit || "{n}s").replace("{n}", left);
    clock.classList.toggle("urgent", left <= 5);
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:oobAfterSwap", tick);
})();
