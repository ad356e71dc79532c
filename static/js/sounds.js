/* 二人麻将 Online sound effects (static/sounds/*.wav, synthesized by mahjong.assets.sounds).

   <script src="{% static 'js/sounds.js' %}" data-base="{% static 'sounds/' %}" defer></script>

   MahjongSounds.play("discard")      draw | discard | claim (chi, pon, kan) | win | tick
   MahjongSounds.toggleMuted()        -> the new muted state (remembered in localStorage)
   MahjongSounds.bindToggle(button)   keeps aria-pressed and the button's text in step
   MahjongSounds.countdown(seconds)   call on every clock update: ticks once per second
                                      while 1-5 seconds are left

   Nothing plays before the player's first click, tap or key press on the page (browsers
   refuse autoplay anyway; this keeps the console quiet and the first sound on time). */
(function () {
  "use strict";
  var KEY = "mahjong.sounds.muted";
  var NAMES = ["draw", "discard", "claim", "win", "tick"];
  var ALIASES = { chi: "claim", pon: "claim", kan: "claim", hu: "win" };
  var script = document.currentScript;
  var base = (script && script.dataset.base) || "/static/sounds/";
  var audio = {};
  var unlocked = false;
  var listeners = [];

  function stored() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  var muted = stored();

  function load(name) {
    if (!audio[name]) {
      audio[name] = new Audio(base + name + ".wav");
      audio[name].preload = "auto";
    }
    return audio[name];
  }

  function unlock() {
    if (unlocked) return;
    unlocked = true;
    NAMES.forEach(load);
    ["pointerdown", "keydown", "touchstart"].forEach(function (type) {
      window.removeEventListener(type, unlock, true);
    });
  }
  ["pointerdown", "keydown", "touchstart"].forEach(function (type) {
    window.addEventListener(type, unlock, true);
  });

  function play(name) {
    name = ALIASES[name] || name;
    if (muted || !unlocked || NAMES.indexOf(name) < 0) return false;
    var a = load(name);
    try {
      a.currentTime = 0;
      var p = a.play();
      if (p && p.catch) p.catch(function () {});
    } catch (e) { return false; }
    return true;
  }

  function setMuted(value) {
    muted = !!value;
    try { window.localStorage.setItem(KEY, muted ? "1" : "0"); } catch (e) { /* private mode */ }
    listeners.forEach(function (fn) { fn(muted); });
    return muted;
  }

  function bindToggle(button, labels) {
    labels = labels || { on: button.dataset.labelOn, off: button.dataset.labelOff };
    function show(m) {
      button.setAttribute("aria-pressed", m ? "true" : "false");
      var text = m ? labels.off : labels.on;
      if (text) button.textContent = text;
    }
    button.addEventListener("click", function () { setMuted(!muted); });
    listeners.push(show);
    show(muted);
  }

  var lastTick = null;
  function countdown(seconds) {
    var s = Math.ceil(Number(seconds));
    if (!(s >= 1 && s <= 5)) { lastTick = null; return false; }
    if (s === lastTick) return false;
    lastTick = s;
    return play("tick");
  }

  window.MahjongSounds = {
    names: NAMES.slice(),
    play: play,
    isMuted: function () { return muted; },
    setMuted: setMuted,
    toggleMuted: function () { return setMuted(!muted); },
    bindToggle: bindToggle,
    countdown: countdown,
    isUnlocked: function () { return unlocked; }
  };

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-sound-toggle]").forEach(function (b) { bindToggle(b); });
  });
})();
