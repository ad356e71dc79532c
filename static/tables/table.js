// The table page's behaviour. The server stays authoritative: everything here either shows
// what the server sent (clock, sounds, animations, emotes) or clicks the same buttons a
// player would (keyboard play, the comfort switches), so every move takes the normal path.
(function () {
  "use strict";

  function $(selector) { return document.querySelector(selector); }
  function table() { return $(".mj-table"); }
  function pref(name) {
    var chip = $('.mj-tools [data-pref="' + name + '"]');
    return !!chip && chip.getAttribute("aria-pressed") === "true";
  }
  function sounds() { return window.MahjongSounds; }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }

  // ----- the clock: counts down to the server's deadline; the last five seconds of the
  // player's own turn tick, and a screen reader hears one announcement at five seconds.
  var announced = null;
  function tick() {
    var clock = document.getElementById("mj-clock");
    var say = document.getElementById("mj-clock-say");
    if (!clock) return;
    var out = clock.querySelector(".mj-seconds");
    var deadline = clock.dataset.deadline;
    if (!out) return;
    // a turn the server plays for the player (托管, a ready hand with nothing to decide)
    // is not the player's deadline: no seconds in red, no tick, no "five seconds left"
    if (!deadline || clock.dataset.auto) {
      out.textContent = "";
      clock.classList.remove("urgent");
      if (say && say.textContent) say.textContent = "";
      return;
    }
    var left = Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
    // "15s" / "15秒": the unit is the page's language (data-unit, translated)
    out.textContent = (clock.dataset.unit || "{n}s").replace("{n}", left);
    clock.classList.toggle("urgent", left <= 5);
    var mine = clock.dataset.turn === "me";
    if (mine && sounds()) sounds().countdown(left);
    if (say && announced !== deadline) {
      if (mine && left > 0 && left <= 5) {
        announced = deadline;
        say.textContent = say.dataset.say;
      } else if (say.textContent) {
        say.textContent = "";
      }
    }
  }
  setInterval(tick, 250);

  // ----- what changed with a push: one sound and a short animation for the new tiles.
  var last = null;
  function snapshot() {
    var status = document.getElementById("mj-status");
    var outcome = $("[data-outcome]");
    var drawn = $("#mj-hand [data-drawn] [data-tile]");
    return {
      version: status ? status.dataset.version : "",
      rivers: document.querySelectorAll("#mj-rivers .tile").length,
      oppRiver: document.querySelectorAll("#mj-rivers .river.opp .tile").length,
      melds: document.querySelectorAll(".mj-table .meld").length,
      mine: document.querySelectorAll("#mj-hand .meld").length,
      myTing: !!$("#mj-hand [data-ting]"),
      oppTing: !!$("#mj-opponent [data-ting]"),
      drawn: drawn ? drawn.dataset.tile : "",
      outcome: outcome ? outcome.dataset.outcome : ""
    };
  }
  function enter(elements) {
    elements.forEach(function (el) { if (el) el.classList.add("tile--enter"); });
  }
  function motion() { return window.MahjongMotion; }
  function react() {
    var now = snapshot();
    if (last && now.version !== last.version) {
      var sound = null;
      if (now.outcome && !last.outcome) {
        sound = now.outcome === "self_draw" || now.outcome === "discard_win" ? "win" : null;
        // the hand is over: bring the result (heading, fans, next hand) to the player
        var card = $("#mj-result [data-outcome]");
        if (card) card.focus({ preventScroll: false });
        if (card && motion()) {
          if (card.dataset.winner) motion().call(now.outcome, card.dataset.winner === "me");
          motion().reveal(card);
        }
      } else if (now.melds > last.melds) {
        sound = "claim";
        var mine = now.mine > last.mine;
        var melds = document.querySelectorAll((mine ? "#mj-hand" : "#mj-opponent") + " .meld");
        var meld = melds[melds.length - 1];
        if (meld) enter(Array.prototype.slice.call(meld.querySelectorAll(".tile")));
        if (meld && motion()) motion().call(meld.dataset.call, mine);
      } else if (now.drawn && now.rivers === last.rivers) {
        sound = "draw";
      } else if (now.rivers > last.rivers) {
        sound = "discard";
      }
      // 报听: said large over the seat that declared it
      if (!now.outcome && (now.myTing && !last.myTing || now.oppTing && !last.oppTing)) {
        if (motion()) motion().call("ting", now.myTing && !last.myTing);
        sound = sound === "discard" || !sound ? "claim" : sound;
      }
      if (now.rivers > last.rivers) {
        var travelled = motion() && motion().on() && motion().discard(now.oppRiver === last.oppRiver);
        if (!travelled) enter([$("#mj-rivers .latest .tile")]);
      }
      if (now.drawn && (now.drawn !== last.drawn || now.rivers !== last.rivers)) {
        enter([$("#mj-hand [data-drawn] .tile")]);
        if (!sound) sound = "draw";
      }
      if (sound && sounds()) sounds().play(sound);
      if (!now.outcome) say(last, now);
    }
    last = now;
    autoplay(now);
  }
  // A screen reader hears what a sighted player sees happen: the opponent's discard or
  // claim and the tile just drawn (the page's polite live region; the texts come
  // translated from the template, the tiles' names from their alt text).
  function names(selector) {
    return Array.prototype.map.call(document.querySelectorAll(selector), function (img) { return img.alt; });
  }
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (_m, key) { return values[key] || ""; });
  }
  function say(before, now) {
    var out = document.getElementById("mj-say");
    if (!out) return;
    var name = out.dataset.opp, lines = [];
    var melds = document.querySelectorAll("#mj-opponent .meld");
    if (now.melds > before.melds && now.mine === before.mine && melds.length) {
      var meld = melds[melds.length - 1];
      var tiles = Array.prototype.map.call(meld.querySelectorAll("img"), function (img) { return img.alt; });
      lines.push(fill(out.dataset.meld, { name: name, meld: meld.getAttribute("aria-label") + " " + tiles.join(" ") }));
    } else if (now.oppRiver > before.oppRiver) {
      lines.push(fill(out.dataset.discard, { name: name, tile: names("#mj-rivers .river.opp .tile img").pop() }));
    }
    if (now.drawn && (now.drawn !== before.drawn || now.rivers !== before.rivers)) {
      lines.push(fill(out.dataset.draw, { tile: names("#mj-hand [data-drawn] img").pop() }));
    }
    if (lines.length) out.textContent = lines.join(". ");
  }
  var pending = false;
  function afterSwap() {
    if (pending) return;
    pending = true;
    setTimeout(function () { pending = false; tick(); react(); }, 0);
  }
  document.addEventListener("htmx:oobAfterSwap", afterSwap);
  document.addEventListener("htmx:afterSettle", afterSwap);

  // ----- the comfort switches: click what the player would have clicked, once per version.
  var fired = null;
  function fire(button, version) {
    fired = version;
    setTimeout(function () {
      var status = document.getElementById("mj-status");
      if (button.isConnected && status && status.dataset.version === version) button.click();
    }, 400);
  }
  function autoplay(now) {
    if (now.outcome || fired === now.version || !$('#mj-clock[data-turn="me"]')) return;
    var hu = $('#mj-prompt [data-verb="hu"]');
    if (hu) { if (pref("auto_win")) fire(hu, now.version); return; }  // a win is never passed
    var pass = $('#mj-prompt [data-verb="pass"]');
    if (pass) { if (pref("auto_pass")) fire(pass, now.version); return; }
    var drawn = $("#mj-hand button[data-drawn]");
    if (drawn && pref("discard_drawn") && !$("#mj-prompt [data-action]")) fire(drawn, now.version);
  }

  // ----- keyboard play: 1-9 0 - = q w e r t discard that tile, arrows + Enter choose one, h p c k the
  // claims, Space or Esc pass. Keys never fire while typing in a field.
  var VERB_KEYS = { h: ["hu"], p: ["pon"], c: ["chi"], k: ["kan", "ankan", "addkan"] };
  function handButtons() { return Array.prototype.slice.call(document.querySelectorAll("#mj-hand .tile-button")); }
  function prompt(verbs) {
    for (var i = 0; i < verbs.length; i++) {
      var b = $('#mj-prompt [data-verb="' + verbs[i] + '"]');
      if (b) return b;
    }
    return null;
  }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || !table()) return;
    if (document.querySelector("[popover]:popover-open")) return;  // Esc closes it first
    if (e.target.closest && e.target.closest("input, select, textarea, [contenteditable], [popover]")) return;
    var key = e.key, target = null;
    if (/^[0-9=qwert-]$/i.test(key)) {  // Caps Lock on still plays the tile
      target = $('#mj-hand button[data-key="' + key.toLowerCase() + '"]');
    } else if (VERB_KEYS[key.toLowerCase()]) {
      target = prompt(VERB_KEYS[key.toLowerCase()]);
    } else if (key === "Escape" || (key === " " && !(e.target.closest && e.target.closest("button, a")))) {
      target = prompt(["pass", "guo"]);
    } else if (key === "ArrowLeft" || key === "ArrowRight") {
      var buttons = handButtons();
      if (!buttons.length) return;
      var at = buttons.indexOf(document.activeElement);
      var next = at < 0 ? (key === "ArrowLeft" ? buttons.length - 1 : 0)
        : Math.min(buttons.length - 1, Math.max(0, at + (key === "ArrowLeft" ? -1 : 1)));
      e.preventDefault();
      buttons[next].focus();
      return;
    }
    if (target) { e.preventDefault(); target.click(); }
  });
  // Keep keyboard focus at the table when a push replaces the fragment that had it (else
  // it falls to <body> and a keyboard or screen-reader player starts again from the top
  // bar after every move): the same control if the new fragment has it (Leave, Next
  // hand, a claim of the same kind), else the closed table's way out, else the hand --
  // the tile at the same place or the nearest, or the row itself while it has no tile to
  // play (the opponent's turn), so the next push can bring focus back to a tile.
  var FOCUS_KEYS = ["data-testid", "data-verb", "data-pref"];
  var handAt = 0;   // the hand tile that last had the focus
  var lostIn = "";  // the id of the fragment being replaced around the focus
  var lostKey = "";
  function focusKey(el) {
    for (var i = 0; i < FOCUS_KEYS.length; i++) {
      if (el.hasAttribute(FOCUS_KEYS[i])) return "[" + FOCUS_KEYS[i] + '="' + el.getAttribute(FOCUS_KEYS[i]) + '"]';
    }
    return "";
  }
  function handFocus() {
    var buttons = handButtons();
    return buttons.length ? buttons[Math.min(handAt, buttons.length - 1)] : $("#mj-hand .mj-own");
  }
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var old = e.detail.target, active = document.activeElement;
    if (!old || !old.id || !active || active === document.body || !old.contains(active)) return;
    var at = handButtons().indexOf(active);
    if (at >= 0) handAt = at;
    lostIn = old.id;
    lostKey = at >= 0 ? "" : focusKey(active);
  });
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    if (!lostIn || e.target.id !== lostIn) return;
    var fragment = e.target, key = lostKey;
    lostIn = lostKey = "";
    if (document.activeElement && document.activeElement !== document.body) return;
    var next = (key && fragment.querySelector(key))
      || (fragment.id === "mj-result" && fragment.querySelector("a[href], button"))
      || handFocus();
    if (next) next.focus({ preventScroll: true });
  });

  // An open <details> (the result's "How points are counted") stays open when a push
  // re-renders its fragment: the opponent's "next hand" re-sent the result while the
  // player was reading it, and it snapped shut.
  var openDetails = {};
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var old = e.detail.target;
    if (!old || !old.id) return;
    openDetails[old.id] = Array.prototype.map.call(
      old.querySelectorAll("details[open][data-testid]"), function (d) { return d.dataset.testid; });
  });
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    var keys = openDetails[e.target.id] || [];
    delete openDetails[e.target.id];
    keys.forEach(function (key) {
      var details = e.target.querySelector('details[data-testid="' + key + '"]');
      if (details) details.open = true;
    });
  });

  // ----- switches remembered on the account (accounts.preferences.toggle).
  function remember(name, on) {
    var t = table();
    if (!t) return;
    var body = new URLSearchParams({ name: name, on: on ? "1" : "0" });
    fetch(t.dataset.toggleUrl, { method: "POST", body: body, headers: { "X-CSRFToken": csrf() },
      credentials: "same-origin" }).catch(function () {});
  }
  document.addEventListener("click", function (e) {
    var chip = e.target.closest && e.target.closest(".mj-tools [data-pref]");
    if (!chip) return;
    var on = chip.getAttribute("aria-pressed") !== "true";
    chip.setAttribute("aria-pressed", on ? "true" : "false");
    remember(chip.dataset.pref, on);
    if (chip.dataset.pref === "sound_on" && sounds()) sounds().setMuted(!on);
    if (chip.dataset.pref === "emotes_muted" && on) hideEmote();
    if (chip.dataset.pref === "motion_on" && table()) table().dataset.motion = on ? "on" : "off";
    if (last) { fired = null; autoplay(snapshot()); }
  });

  // ----- emotes: an opponent's shows for three seconds, unless emotes are muted; the
  // player's own (the send's answer: "You: …") too, muted or not.
  var emoteTimer = null;
  function hideEmote() {
    var box = document.getElementById("mj-emote");
    if (box) box.textContent = "";
  }
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    // the bubble's own swap only: every push swaps a dozen parts, and each restarted the
    // three seconds, so in a brisk hand an emote stayed on screen for good
    if (e.target.id !== "mj-emote") return;
    var box = e.target;
    if (!box.firstElementChild) return;
    if (pref("emotes_muted") && !box.firstElementChild.dataset.own) { hideEmote(); return; }
    clearTimeout(emoteTimer);
    emoteTimer = setTimeout(hideEmote, 3000);
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    // a refused emote (the cooldown's 429, a muted player's 403) carries a notice saying
    // why: htmx swaps no error answer by itself, and the click seemed to do nothing
    var sent = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("[data-emote-id]");
    if (!sent || [403, 429].indexOf(e.detail.xhr.status) < 0) return;
    e.detail.shouldSwap = true;
    e.detail.isError = false;
  });
  document.addEventListener("click", function (e) {
    var sent = e.target.closest && e.target.closest("[data-emote-id]");
    var pop = sent && sent.closest("[popover]");
    if (pop && pop.hidePopover) pop.hidePopover();
  });

  document.addEventListener("DOMContentLoaded", function () {
    var t = table();
    if (t && sounds()) sounds().setMuted(t.dataset.soundOn === "0");
    last = snapshot();
    tick();
  });
})();

// Reconnecting: htmx's ws extension waits up to 64 s between tries ("full-jitter": a random
// wait below 1, 2, 4 ... 64 s). A player whose network came back after a minute away
// would stay on a dead page for up to another minute while the escape clock runs (90 s,
// RULES.md 3.13: a 70 s outage became an escape). The wait doubles from 1 s to a cap of
// RECONNECT_CAP, each between half and all of it, so returning players are heard within
// seconds and a restarted server still gets its clients back spread over a few seconds.
(function () {
  var RECONNECT_CAP = 5000;  // ms
  if (window.htmx) {
    htmx.config.wsReconnectDelay = function (retries) {
      var wait = Math.min(1000 * Math.pow(2, retries), RECONNECT_CAP);
      return wait / 2 + Math.random() * wait / 2;
    };
  }
  // While the socket is down and being retried, the page says so: the screen is not
  // following the table, and a click would go out by HTTP. Only the closes htmx retries
  // (an abnormal close, a server error or restart); any other one ends the socket for good.
  var RETRIED = [1006, 1011, 1012, 1013];
  function banner(shown) {
    var el = document.getElementById("mj-offline");
    if (el) el.hidden = !shown;
  }
  // data-socket="open" on the table while its socket is up: the server has seated the
  // connection in the table's group (it joins before accepting), so a hint reaches it.
  function mark(open) {
    var table = document.querySelector(".mj-table");
    if (!table) return;
    if (open) table.setAttribute("data-socket", "open");
    else table.removeAttribute("data-socket");
  }
  // The session ended (a log-out elsewhere, a ban, a password change): the page reloads,
  // and the server says why (a banned player is told the reason) instead of a clock
  // that sat at 0s on a table the page no longer followed.
  var SESSION_ENDED = 4401;
  document.addEventListener("htmx:wsClose", function (e) {
    var code = e.detail && e.detail.event && e.detail.event.code;
    if (code === SESSION_ENDED) { window.location.reload(); return; }
    banner(RETRIED.indexOf(code) >= 0);
    mark(false);
  });
  document.addEventListener("htmx:wsOpen", function () { banner(false); mark(true); });
  // The browser hears of a lost network before the socket does: the socket still looks
  // open (no close comes until the connection times out, minutes on a phone), so the
  // clock ran down to 0s and sat there with nothing saying the screen had stopped
  // following the table. Back online, a socket still open carries on (a dead one closes,
  // and the close above shows the banner again while it is retried).
  window.addEventListener("offline", function () { banner(true); });
  window.addEventListener("online", function () {
    var table = document.querySelector(".mj-table");
    if (table && table.hasAttribute("data-socket")) banner(false);
  });
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
      timer = setInterval(function () {
        // the page's version rides along: a page left behind by a lost push is re-rendered
        var status = document.getElementById("mj-status");
        var version = status ? Number(status.dataset.version) : NaN;
        var beat = Number.isInteger(version) ? { ping: 1, version: version } : { ping: 1 };
        socket.send(JSON.stringify(beat));
      }, every * 1000);
    }
  });
  document.addEventListener("htmx:wsClose", function () { clearInterval(timer); timer = null; });
})();

// Moves: one per view, marked at once. While the table's WebSocket is open a move button's
// POST is sent as a socket message instead ({"action", "version"}, what the consumer
// takes): the server answers both screens through the sockets anyway, and a message costs
// it a fraction of an HTTP request (no session, log-in or table look-up per click).
// Without an open socket the button's own hx-post goes out, and its answer carries the
// fragments. Either way the clicked button is marked in the same frame (the tile lifts, a
// claim looks pressed: the click is seen before the server's answer, however far it is),
// and the table takes no other move until a push answers with the next view, or with this
// one and a notice: a second click on the same view would only be refused as stale. Nothing
// is guessed: the mark goes with the fragments the answer replaces.
(function () {
  var socket = null;
  var waiting = false;
  var release = null;
  var GIVE_UP = 8000;  // ms: the heartbeat re-renders a page whose push was lost well before
  function table() { return document.querySelector(".mj-table[data-act-url]"); }
  function answered() {
    waiting = false;
    clearTimeout(release);
    var t = table();
    if (t) t.removeAttribute("data-move-sent");
    document.querySelectorAll(".mj-table .mj-sent").forEach(function (b) { b.classList.remove("mj-sent"); });
  }
  function mark(button, t) {
    waiting = true;
    button.classList.add("mj-sent");
    t.setAttribute("data-move-sent", "");
    clearTimeout(release);
    release = setTimeout(answered, GIVE_UP);
  }
  document.addEventListener("htmx:wsOpen", function (event) { socket = event.detail.socketWrapper; });
  document.addEventListener("htmx:wsClose", function () { socket = null; });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var t = table();
    var button = event.detail.elt;
    if (!t || button.getAttribute("hx-post") !== t.dataset.actUrl) return;
    var move;
    try { move = JSON.parse(button.getAttribute("hx-vals")); } catch (e) { return; }
    if (waiting) { event.preventDefault(); return; }
    mark(button, t);
    if (!socket) return;
    event.preventDefault();
    socket.sendImmediately(JSON.stringify({ action: move.action, version: move.version }));
  });
  // every push, the move's own answer included, carries the status line
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.target.id === "mj-status") answered();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (waiting && event.detail.failed) answered();  // the HTTP fallback got no fragments
  });
})();
