// The replay (牌谱) viewer's keys and auto-play. Each step is a server-rendered board
// fetched by the nav links (htmx, the URL keeps ?step=N); this file only clicks them.
(function () {
  "use strict";
  var timer = null;

  function board() { return document.getElementById("replay-board"); }
  function nav(name) { return document.querySelector('#replay-board [data-nav="' + name + '"]'); }
  function go(name) { var link = nav(name); if (link) link.click(); return !!link; }
  function atEnd() {
    var b = board();
    return !b || Number(b.dataset.step) >= Number(b.dataset.last);
  }
  function playButton() { return document.getElementById("replay-play"); }
  function delay() { return Number(document.getElementById("replay-speed").value) || 1000; }

  function setPlaying(on) {
    var button = playButton();
    if (!on && timer) { clearTimeout(timer); timer = null; }
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? button.dataset.pause : button.dataset.play;
  }
  function playing() { return playButton().getAttribute("aria-pressed") === "true"; }

  // One step per tick; the next tick is scheduled when the step has been swapped in, so a
  // slow response never makes steps pile up.
  function tick() {
    timer = null;
    if (!playing()) return;
    if (atEnd() || !go("next")) setPlaying(false);
  }
  function schedule() {
    if (timer) clearTimeout(timer);
    timer = playing() && !atEnd() ? setTimeout(tick, delay()) : null;
    if (playing() && atEnd()) setPlaying(false);
  }

  function toggle() {
    if (playing()) { setPlaying(false); return; }
    setPlaying(true);
    if (atEnd()) go("first"); // play again from the deal; the swap schedules the next step
    else schedule();
  }

  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  // A key pressed while a step is on its way would click the links of the board still
  // shown, asking for the same step again (three quick presses of → went two steps): keys
  // wait their turn and are sent one per swapped-in board.
  var loading = false, queued = [];
  function step(name) {
    if (!loading) { go(name); return; }
    if (name === "first" || name === "last") queued = [name];
    else queued.push(name);
  }

  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea" || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      toggle();
    } else if (KEYS[event.key]) {
      event.preventDefault();
      setPlaying(false);
      step(KEYS[event.key]);
    }
  });

  // Listened for on the document, not on the button and the select: the browser's Back
  // restores the page from htmx's history cache as new elements, which would have lost
  // listeners of their own (Play then did nothing).
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("#replay-play")) return;
    event.preventDefault();
    playButton().blur(); // space must not also "click" the focused button
    toggle();
  });
  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "replay-speed") schedule();
  });
  function forBoard(event) {
    var target = event.detail && event.detail.target;
    return target && target.id === "replay-board";
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (forBoard(event)) loading = true;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.target || event.target.id !== "replay-board") return;
    loading = false;
    if (queued.length) go(queued.shift());
    else schedule();
  });
  ["htmx:responseError", "htmx:sendError"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (forBoard(event)) { loading = false; queued = []; }
    });
  });
  document.addEventListener("htmx:historyRestore", function () {
    if (timer) { clearTimeout(timer); timer = null; }
    loading = false;
    queued = [];
    if (playButton()) setPlaying(false); // a restored page was cached mid-play: it is paused
  });
})();
