"""Whole hands in a real browser: two players through quick match, a player against a
bot, an idle player the server plays for, and a reload in the middle of a hand."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import FAST_TIMERS, shot
from tests.e2e.tour import new_player_page, sit_vs_bot

pytestmark = pytest.mark.e2e

TURN_OR_END = (
    "!!document.querySelector('#mj-clock[data-turn=me]')"
    " || !!document.querySelector('[data-outcome]')"
)


def version(page) -> int:
    return int(page.get_attribute("#mj-status", "data-version"))


def ended(page) -> bool:
    return page.query_selector("[data-outcome]") is not None


def choose(page) -> str | None:
    """What a simple player clicks: a win, else let a claim go, else discard the drawn
    tile, else the rightmost tile that can be discarded. None when nothing is offered."""
    for selector in (
        '#mj-prompt [data-action="hu"]',
        '#mj-prompt [data-action="pass"]',
        '#mj-prompt [data-action="guo"]',
        "#mj-hand button[data-drawn]",
    ):
        if page.query_selector(selector):
            return selector
    if page.query_selector("#mj-hand button[data-action^='discard ']"):
        return "#mj-hand button[data-action^='discard '] >> nth=-1"
    return None


def take_turn(page) -> bool:
    """Click once if it is this page's decision and wait for the view to move on. A push
    may replace the buttons under the cursor: then nothing happened and the caller retries."""
    if ended(page) or not page.query_selector("#mj-clock[data-turn=me]"):
        return False
    selector = choose(page)
    if selector is None:
        return False  # a ready hand: the server plays it
    before = version(page)
    try:
        page.click(selector, timeout=2_000)
        page.wait_for_function(
            f"Number(document.querySelector('#mj-status').dataset.version) > {before}",
            timeout=5_000,
        )
    except PlaywrightError:
        return False
    return True


def wait_for_change(page, timeout=20_000, after: int | None = None):
    """Until the view moves past version ``after`` (the page's present one if None), or
    the hand has ended."""
    after = version(page) if after is None else after
    page.wait_for_function(
        f"Number(document.querySelector('#mj-status').dataset.version) > {after}"
        " || !!document.querySelector('[data-outcome]')",
        timeout=timeout,
    )


def server_fragments(page) -> str:
    """The table's fragments as the server renders them for this page's player now,
    fetched with the page's session past the page itself (an offline page, or one
    without a socket, hears of no move)."""
    reply = page.context.request.get(page.url.split("?")[0] + "fragments/")
    assert reply.ok, reply.status
    return reply.text()


def server_version(page) -> int:
    html = server_fragments(page)
    return int(re.search(r'id="mj-status"[^>]*data-version="(\d+)"', html).group(1))


def until(found, seconds: float, what: str) -> None:
    """Poll ``found()`` (a question to the server) until it is true; fail after
    ``seconds``, naming ``what`` was waited for."""
    deadline = time.monotonic() + seconds
    while not found():
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} within {seconds:g}s")
        time.sleep(0.2)


def play_to_end(*pages, limit: float = 180.0):
    deadline = time.monotonic() + limit
    while not all(ended(p) for p in pages):
        assert time.monotonic() < deadline, "the hand did not end in time"
        acted = [take_turn(p) for p in pages]
        if not any(acted):
            try:
                wait_for_change(pages[0], timeout=2_000)
            except PlaywrightError:
                pass  # someone else's turn may be waiting on a click: loop again


DOUBLE_CLICK = """() => {
    const tiles = [...document.querySelectorAll("#mj-hand button[data-action^='discard ']")];
    tiles[0].click();
    const marked = tiles[0].classList.contains("mj-sent")
        && document.querySelector(".mj-table").hasAttribute("data-move-sent");
    tiles[tiles.length - 1].click();  // the same view: not sent
    return {marked, second: tiles[tiles.length - 1].classList.contains("mj-sent")};
}"""


def moves_sent(page) -> dict[str, list]:
    """What the page sends for moves from now on: act POSTs, and socket messages."""
    sent = {"http": [], "socket": []}
    page.on(
        "request",
        lambda r: (
            sent["http"].append(r.url) if r.method == "POST" and r.url.endswith("/act/") else None
        ),
    )
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent",
            lambda frame: sent["socket"].append(frame) if '"action"' in str(frame) else None,
        ),
    )
    return sent


def test_two_players_quick_match_and_play_a_hand_to_its_settlement(player, site):
    a, b = player("ann"), player("ben")
    sent = [moves_sent(a), moves_sent(b)]
    a.click("#tier-novice button")
    a.wait_for_url(re.compile(r"/queue/\w+/$"))
    b.click("#tier-novice button")
    b.wait_for_url(re.compile(r"/matches/\w+/$"))
    # the match page takes both to the table on its own (the sit-down link is the fallback)
    a.wait_for_url(re.compile(r"/tables/\w+/$"))
    b.wait_for_url(re.compile(r"/tables/\w+/$"))
    assert a.url == b.url
    shot(a, "duel-start-ann")
    # each sees 13 or 14 own tiles and only a count of the other's
    for page in (a, b):
        assert len(page.query_selector_all("#mj-hand [data-tile]")) in (13, 14)
        assert page.query_selector("#mj-opponent [data-tile]") is None
    play_to_end(a, b)
    # with the sockets open every move went over them, none as an HTTP request
    for moves in sent:
        assert moves["socket"] and not moves["http"], moves
    shot(a, "duel-end-ann")
    shot(b, "duel-end-ben")
    outcome = a.get_attribute("[data-outcome]", "data-outcome")
    assert outcome == b.get_attribute("[data-outcome]", "data-outcome") == "self_draw"
    # both hands revealed, every fan listed, the settlement in beans
    assert a.query_selector("#mj-opponent [data-count]") is None
    fans_a = [f.get_attribute("data-fan") for f in a.query_selector_all("[data-fan]")]
    assert fans_a and fans_a == [
        f.get_attribute("data-fan") for f in b.query_selector_all("[data-fan]")
    ]
    delta_a = int(a.get_attribute("[data-beans]", "data-beans"))
    delta_b = int(b.get_attribute("[data-beans]", "data-beans"))
    assert delta_a == -delta_b != 0  # novice room: no rake
    assert a.query_selector("[data-testid=next-hand]") and b.query_selector(
        "[data-testid=next-hand]"
    )
    # the top bar's bean count and the session scores followed with the result push
    for page, delta in ((a, delta_a), (b, delta_b)):
        assert page.inner_text("#topbar-beans") == f"{20_000 + delta:,}"
        mine = page.get_attribute("[data-delta]", "data-delta")
        assert page.inner_text(".mj-scores b >> nth=0") == mine
    # Ben closes the page at the result: Ann is told within seconds (not left waiting on
    # "next hand" for ever) and goes on to a bot from the panel, the table closed behind her
    b.close()
    a.wait_for_selector("[data-testid=opp-gone]", timeout=20_000)
    shot(a, "duel-opponent-gone-ann")
    a.click("[data-testid=leave-to-bot]")
    a.wait_for_url(re.compile(r"/#play-bot$"))


def test_a_player_plays_a_bot_to_the_end_and_starts_the_next_hand(player, site):
    page = player("vic")
    sit_vs_bot(page)
    shot(page, "bot-start")
    play_to_end(page)
    shot(page, "bot-end")
    assert page.get_attribute("[data-outcome]", "data-outcome") in {
        "self_draw",
        "discard_win",
        "draw",
    }
    # the next hand's commitment is on the result before the click; the click carries the
    # browser's random value (static/tables/contribute.js), and the hand dealt keeps it
    promised = page.inner_text("[data-testid=next-commitment] code")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/next/")) as sent:
        page.click("[data-testid=next-hand]")
    assert re.search(r"(^|&)contribution=[0-9a-f]{64}(&|$)", sent.value.post_data)
    page.wait_for_function("!document.querySelector('[data-outcome]')")
    assert "2" in page.inner_text("#mj-status span:first-child")
    assert page.inner_text("[data-testid=commitment] code") == promised


def test_without_a_socket_a_move_is_posted_and_its_answer_updates_the_page(player, site):
    page = player("hal")
    # the table's socket opens and is closed at once (1000: the page does not retry)
    page.route_web_socket(re.compile(r"/ws/tables/"), lambda ws: ws.close(code=1000))
    sent = moves_sent(page)
    page.select_option("[data-testid=bot-level]", "random")
    page.click("[data-testid=play-bot]")
    page.wait_for_url(re.compile(r"/tables/\w+/$"))
    page.wait_for_selector("#mj-hand [data-tile]")
    # no push comes without a socket: once the server offers the player tiles to discard
    # (the bot, the dealer on this wall, has moved), a reload shows them
    until(lambda: 'data-action="discard ' in server_fragments(page), 30, "discard offered")
    page.reload()
    page.wait_for_selector("#mj-hand button[data-action^='discard ']")
    before = version(page)
    # two tiles clicked at once: one POST (the view takes one move), marked until answered
    assert page.evaluate(DOUBLE_CLICK) == {"marked": True, "second": False}
    page.wait_for_function(
        f"Number(document.querySelector('#mj-status').dataset.version) > {before}"
    )
    assert len(sent["http"]) == 1 and not sent["socket"]
    assert page.query_selector(".mj-sent, [data-move-sent]") is None


def test_an_idle_player_is_played_for_by_the_server(player, site):
    page = player("ida")
    sit_vs_bot(page)
    # Wait (without clicking) until the server has discarded for us at least once.
    page.wait_for_function(
        "document.querySelectorAll('#mj-rivers .river.me .tile').length >= 1", timeout=30_000
    )
    shot(page, "idle-played-for")
    # two timeouts in a row: auto-play (托管) with an "I'm back" button
    page.wait_for_selector("[data-testid=im-back]", timeout=30_000)
    page.click("[data-testid=im-back]")
    page.wait_for_selector("[data-testid=im-back]", state="detached")


# Each own turn the server plays (托管, or a ready hand with nothing to decide) while the
# page watches: what the clock's live region said, and the seconds the clock's countdown
# sound was asked to tick.
WATCH_AUTO_TURNS = """() => {
  window.autoTurns = new Set(); window.shown = new Set(); window.said = [];
  window.ticks = [];
  const sounds = window.MahjongSounds, countdown = sounds.countdown;
  sounds.countdown = s => { window.ticks.push(s); return countdown(s); };
  const say = document.getElementById('mj-clock-say');
  say.textContent = '';
  new MutationObserver(() => { if (say.textContent) window.said.push(say.textContent); })
    .observe(say, {childList: true, characterData: true, subtree: true});
  setInterval(() => {
    const auto = document.querySelector('[data-testid=im-back]');
    const clock = document.querySelector('#mj-clock[data-turn=me]');
    if (auto && clock) {
      window.autoTurns.add(document.querySelector('#mj-status').dataset.version);
      window.shown.add(clock.querySelector('.mj-turn').textContent.trim().replace(/\\s+/g, ' ')
                       + (clock.classList.contains('urgent') ? ' [urgent]' : ''));
    }
  }, 20);
}"""


def test_turns_played_on_auto_play_are_not_announced_as_the_players_last_seconds(player, site):
    """On 托管 the server plays each of the player's turns after the short delay: the
    clock's few seconds are not the player's decision, so no tick and no "Five seconds
    left to move" (which a screen reader heard at every auto-played turn)."""
    page = player("aut")
    sit_vs_bot(page)
    page.wait_for_selector("[data-testid=im-back]", timeout=30_000)
    page.evaluate(WATCH_AUTO_TURNS)
    start = version(page)
    try:
        page.wait_for_function(
            f"window.autoTurns.size >= 3 || !!document.querySelector('[data-outcome]')"
            f" || Number(document.querySelector('#mj-status').dataset.version) > {start + 12}",
            timeout=30_000,
        )
    except PlaywrightError:
        pass
    turns = page.evaluate("window.autoTurns.size")
    # no move is the page's: the site's fixed wall (conftest.TEST_SEED) and the server's
    # own decisions make this the same hand every run, which reaches such a turn
    assert turns, "the hand ended before an auto-played turn of the player"
    assert page.evaluate("window.said") == []
    assert page.evaluate("window.ticks") == []
    # and the clock says whose move it is: the server's, without the seconds in red (it
    # read "Your move 1s", urgent)
    assert page.evaluate("[...window.shown]") == ["Auto-play"]


def rivers(page) -> list[list[str]]:
    """Each seat's discards in order (their notation, e.g. "5m"), opponent first."""
    return [
        [t.get_attribute("data-face") for t in river.query_selector_all(".tile")]
        for river in page.query_selector_all("#mj-rivers .river")
    ]


def test_a_reload_mid_hand_returns_the_full_view_and_play_goes_on(player, site):
    page = player("rey")
    sit_vs_bot(page)
    for _ in range(3):
        page.wait_for_function(TURN_OR_END)
        take_turn(page)
    tiles_before = len(page.query_selector_all("#mj-hand [data-tile]"))
    rivers_before = rivers(page)
    assert all(face for river in rivers_before for face in river)  # every discard named
    page.reload()
    page.wait_for_selector("#mj-hand [data-tile]")
    assert len(page.query_selector_all("#mj-hand [data-tile]")) >= tiles_before - 1
    # The bot may discard between the two reads: each river only grows at its end.
    for before, after in zip(rivers_before, rivers(page), strict=True):
        assert after[: len(before)] == before
    shot(page, "reload-mid-hand")
    play_to_end(page)
    assert ended(page)


DISCARD = "#mj-hand button[data-action^='discard ']"
PASS = '#mj-prompt [data-action="pass"]'


def my_turn_to_discard(page, limit: float = 30.0) -> None:
    """Wait, letting claims go (and starting the next hand if one ends first), until this
    page may discard a tile."""
    deadline = time.monotonic() + limit
    while not page.query_selector(DISCARD):
        left = deadline - time.monotonic()
        assert left > 0, "no discard offered"
        if ended(page):
            page.click("[data-testid=next-hand]")
            page.wait_for_function("!document.querySelector('[data-outcome]')")
        elif page.query_selector(PASS):
            take_turn(page)
        else:
            try:
                page.wait_for_function(
                    f"!!document.querySelector({DISCARD!r}) || !!document.querySelector({PASS!r})"
                    " || !!document.querySelector('[data-outcome]')",
                    timeout=left * 1000,
                )
            except PlaywrightError:
                pytest.fail(f"no discard offered in {limit:g}s")


def test_a_move_is_marked_at_once_and_the_view_takes_no_second_until_answered(player, site):
    """The clicked tile lifts in the same frame, before the server's answer; a second
    click on the same view sends nothing (it could only be refused as stale), and the
    answer's push clears the mark."""
    page = player("quin")
    sent = moves_sent(page)
    sit_vs_bot(page)
    my_turn_to_discard(page)
    before = version(page)
    already = len(sent["socket"])
    clicked = page.evaluate(DOUBLE_CLICK)
    assert clicked == {"marked": True, "second": False}
    page.wait_for_function(
        f"Number(document.querySelector('#mj-status').dataset.version) > {before}"
    )
    assert len(sent["socket"]) == already + 1
    assert page.inner_text("#mj-notice") == ""
    assert page.query_selector(".mj-sent, [data-move-sent]") is None


def test_a_dropped_socket_is_retried_within_seconds_however_long_it_was_down(player, site):
    """htmx's ws extension waited up to 64 s between tries; a player back after a minute's
    outage stayed on a dead page long enough to pass the 90 s escape limit. The table caps
    the wait at 5 s: a socket refused again and again is still back within seconds."""
    page = player("ray")
    refused = {"n": 0}

    def route(ws):
        if refused["n"] < 8:  # an outage: every try fails (1011: htmx tries again)
            refused["n"] += 1
            ws.close(code=1011)
        else:
            ws.connect_to_server()

    sit_vs_bot(page)
    waits = page.evaluate("[0, 1, 2, 6, 12, 40].map(n => htmx.config.wsReconnectDelay(n))")
    assert all(250 <= w <= 5_000 for w in waits), waits
    page.add_init_script(
        "document.addEventListener('htmx:wsOpen', () => { window.mjOpened = true; });"
    )
    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    page.reload()
    # while the tries fail the page says it is reconnecting
    page.wait_for_selector("#mj-offline", state="visible", timeout=15_000)
    # 8 refusals: at most 1 + 2 + 4 + 5 x 5 = 32 s of waiting (the old backoff: 95 s on
    # average, so this wait would time out)
    page.wait_for_function("window.mjOpened === true", timeout=45_000)
    assert refused["n"] == 8
    page.wait_for_selector("#mj-offline", state="hidden", timeout=5_000)
    # and the socket is the table's again: the page follows the bot's moves
    play_to_end(page)


def test_a_lost_network_is_said_at_once_and_the_page_follows_again_when_it_is_back(player, site):
    """Offline, the socket stays open to the page until the connection times out: the
    clock ran down to 0s and sat there, no banner, nothing to say the screen had stopped
    following the table. The browser's offline event now shows the banner at once; back
    online, the open socket hides it and the moves made meanwhile arrive."""
    page = player("oli")
    sit_vs_bot(page)
    page.wait_for_function(TURN_OR_END)
    # the site's fixed wall (conftest.TEST_SEED) deals the bot a first move, never a win,
    # and the page makes none: the player's turn comes before any end, every run
    assert not ended(page), "the hand ended before the player's turn"
    before = version(page)
    page.context.set_offline(True)
    page.wait_for_selector("#mj-offline", state="visible", timeout=10_000)
    assert page.get_attribute(".mj-table", "data-socket") == "open"  # the socket never said
    # the table moves on without the page (the claim window closes, or the decision timer
    # runs out and the server plays for us): asked of the server with the page's session
    # (Playwright's own requests, which the browser's offline mode does not cut)
    until(
        lambda: server_version(page) > before,
        FAST_TIMERS["decision"] + 10,
        "move while the player was offline",
    )
    page.context.set_offline(False)
    page.wait_for_selector("#mj-offline", state="hidden", timeout=2_000)
    page.wait_for_function(
        f"Number(document.querySelector('#mj-status').dataset.version) > {before}",
        timeout=10_000,
    )


def test_an_open_details_of_the_result_stays_open_when_a_push_redraws_it(
    browser, site, site_database
):
    """ "How points are counted" snapped shut when the opponent's "next hand" re-sent the
    result fragment while the player read it: a push of the same fragment keeps it open."""
    with new_player_page(browser, site, site_database, "det") as (page, _name):
        sit_vs_bot(page)
        # a fragment of its own, which the table's real pushes (the bot's moves) never
        # touch: table.js keeps any fragment's open details, the result's among them
        page.evaluate("document.body.insertAdjacentHTML('beforeend', '<div id=\"mj-t\"></div>')")
        result = (
            '<div id="mj-t" hx-swap-oob="true"><details class="mj-points-help" '
            'data-testid="points-help"><summary>How</summary><ul><li>x</li></ul>'
            "</details></div>"
        )
        push = f"htmx.swap(document.body, {result!r}, {{swapStyle: 'none'}})"
        page.evaluate(push)
        page.click("[data-testid=points-help] summary")
        assert page.evaluate("document.querySelector('[data-testid=points-help]').open")
        page.evaluate(push)  # the same fragment again, out of band, as a push sends it
        assert page.evaluate("document.querySelector('[data-testid=points-help]').open")


def test_a_session_ended_elsewhere_reloads_the_table_page_to_say_why(player, site):
    """A ban, a log-out in another tab or a password change closes the table's socket
    (close code 4401); the page kept its last view, the clock sitting at 0s. It reloads:
    the server then says why (a banned player is told the reason on the log-in page)."""
    page = player("off")
    sit_vs_bot(page)
    table_url = page.url
    other = page.context.new_page()  # the same session, as another tab of it
    other.goto(f"{site}/")
    other.click("form[action$='/logout/'] button")
    page.wait_for_url(lambda url: url != table_url)
    assert "/accounts/login/" in page.url
    other.close()
