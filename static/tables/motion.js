// The table's motion, over the fragments a push has just swapped in: a discard travels from
// where it left to its place in the river, a call (碰 吃 杠 胡 自摸 报听) shows large over the
// claimer's seat, and a win turns its hand face up, its fans one by one and its points
// counting up. Everything here only decorates what the server already showed: each
// animation starts after the swap and ends within BUDGET, nothing waits for one, and no
// click is held back. The browser's reduced-motion setting, or the table's Motion switch,
// turns all of it off (a call then shows still).
(function () {
  "use strict";

  var BUDGET = 300;      // ms: every move's animation ends within it
  var CALL_SHOWN = 1000; // ms the call's word stays (still, after its 200 ms entrance)
  var CALLS = { chi: "吃", pon: "碰", kan: "杠", ankan: "杠", addkan: "杠", ting: "报听",
    discard_win: "胡", self_draw: "自摸" };
  var reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  function table() { return document.querySelector(".mj-table"); }
  function on() {
    var t = table();
    return !!t && t.dataset.motion !== "off" && !(reduced && reduced.matches) && !!Element.prototype.animate;
  }

  // Where the player's discard left from: the tile clicked (by mouse, touch, key or the
  // comfort switch, which all click), while its row is still on screen.
  var leftFrom = null;
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("#mj-hand .tile-button");
    var tile = button && button.querySelector(".tile");
    if (tile) leftFrom = { rect: tile.getBoundingClientRect(), at: Date.now() };
  }, true);

  function fromRect(el) {
    var r = el && el.getBoundingClientRect();
    return r && r.width ? r : null;
  }
  // The opponent's discard leaves from the end of their concealed row.
  function opponentHand() {
    var backs = document.querySelectorAll("#mj-opponent .mj-count .tile");
    return fromRect(backs[backs.length - 1] || document.querySelector("#mj-opponent .mj-row"));
  }
  function ownHand() {
    var drawn = document.querySelector("#mj-hand [data-drawn] .tile");
    return fromRect(drawn || document.querySelector("#mj-hand .mj-own"));
  }

  // A discard, from the hand it left to the river's latest place (FLIP: the tile is
  // already where it belongs; it starts drawn over where it came from and glides home).
  function discard(mine) {
    var tile = document.querySelector("#mj-rivers .river." + (mine ? "me" : "opp") + " .latest .tile");
    if (!tile) return false;
    var recent = leftFrom && Date.now() - leftFrom.at < 10000 ? leftFrom.rect : null;
    var from = mine ? recent || ownHand() : opponentHand();
    leftFrom = null;
    var to = fromRect(tile);
    if (!from || !to) return false;
    var dx = from.left + from.width / 2 - (to.left + to.width / 2);
    var dy = from.top + from.height / 2 - (to.top + to.height / 2);
    var scale = from.width / to.width;
    tile.animate([
      { transform: "translate(" + dx + "px, " + dy + "px) scale(" + scale + ")", opacity: mine ? 1 : 0.4 },
      { transform: "none", opacity: 1 }
    ], { duration: 240, easing: "cubic-bezier(.2, .75, .3, 1)" });
    return true;
  }

  // The call's word, large over the seat that made it. It leaves with the seat's next
  // fragment or after CALL_SHOWN, whichever comes first.
  function call(kind, mine) {
    var text = CALLS[kind];
    var seat = document.getElementById(mine ? "mj-hand" : "mj-opponent");
    if (!text || !seat) return;
    var old = seat.querySelector(".mj-call");
    if (old) old.remove();
    var word = document.createElement("span");
    word.className = "mj-call";
    word.dataset.call = kind;
    word.setAttribute("aria-hidden", "true");  // the live region says it (table.js)
    word.textContent = text;
    seat.appendChild(word);
    if (on()) {
      word.animate([
        { transform: "translate(-50%, -50%) scale(1.8)", opacity: 0 },
        { transform: "translate(-50%, -50%) scale(1)", opacity: 1 }
      ], { duration: 200, easing: "cubic-bezier(.2, .9, .3, 1.3)" });
    }
    setTimeout(function () { word.remove(); }, CALL_SHOWN);
  }

  // The win: the winning hand (and the loser's hand) turn face up, the fans come in one by
  // one, the points count up; all within BUDGET. The final figures are in the page from
  // the start: the count shows on top of them and ends on the same text.
  function reveal(card) {
    if (!card || !on()) return;
    var tiles = Array.prototype.slice.call(card.querySelectorAll(".decomposition .tile"))
      .concat(Array.prototype.slice.call(document.querySelectorAll("#mj-opponent .mj-concealed .tile")));
    var flip = 150, step = tiles.length > 1 ? (BUDGET - flip) / (tiles.length - 1) : 0;
    tiles.forEach(function (tile, i) {
      tile.animate([{ transform: "perspective(400px) rotateY(90deg)" }, { transform: "none" }],
        { duration: flip, delay: i * step, easing: "ease-out", fill: "backwards" });
    });
    var fans = card.querySelectorAll("tr[data-fan]");
    var each = 100, gap = fans.length > 1 ? (BUDGET - each) / (fans.length - 1) : 0;
    Array.prototype.forEach.call(fans, function (row, i) {
      row.animate([{ opacity: 0, transform: "translateX(-.5rem)" }, { opacity: 1, transform: "none" }],
        { duration: each, delay: i * gap, easing: "ease-out", fill: "backwards" });
    });
    Array.prototype.forEach.call(card.querySelectorAll(".settlement b[data-delta]"), countUp);
  }
  function countUp(el) {
    var target = Number(el.dataset.delta), final = el.textContent;
    if (!Number.isFinite(target) || !target || !window.requestAnimationFrame) return;
    var sign = final.trim().charAt(0) === "+" ? "+" : "";
    var start = null;
    function frame(now) {
      if (!el.isConnected) return;
      if (start === null) start = now;
      var t = Math.min(1, (now - start) / BUDGET);
      el.textContent = t < 1 ? (target > 0 ? sign : "") + Math.round(target * (1 - Math.pow(1 - t, 3))) : final;
      if (t < 1) window.requestAnimationFrame(frame);
    }
    window.requestAnimationFrame(frame);
  }

  window.MahjongMotion = { on: on, discard: discard, call: call, reveal: reveal };
})();
