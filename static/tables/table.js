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

// The heartbeat: while the table's WebSocket is open, a ping every data-heartbeat seconds
// tells the server this player is still here (a connection counts only while it pings).
(function () {
  var timer = null;
  document.addEventListener("htmx:wsOpen", function (event) {
    var table = document.querySelector(".mj-table[data-heartbeat]");
    var every = table ? Number(table.dataset.heartbeat) : 0;
    var socket = event.detail.socketWrapper;
    clearInterval(timer);
    if (every > 0) {
      timer = setInterval(function () { socket.send(JSON.stringify({ ping: 1 })); }, every * 1000);
    }
  });
  document.addEventListener("htmx:wsClose", function () { clearInterval(timer); timer = null; });
})();
