"""The table in chromium at 390x844 and 1440x900: the own hand never overflows its row,
the table or the viewport at any turn of a whole hand, and is on screen without scrolling;
keyboard play, the help popover and the clock's one announcement at five seconds."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import shot
from tests.e2e.test_table_play import ended, take_turn, wait_for_change
from tests.e2e.test_table_play import version as view_version
from tests.e2e.tour import (  # noqa: F401
    MEASURE_HAND,
    MEASURE_RESULT,
    PASSWORD,
    SIZES,
    log_in,
    log_in_new_player,
    new_player_page,
    overflow,
    players_at_scripted_tables,
    settle,
    sit_vs_bot,
    site_shell,
    tour,
    wait_for_socket,
)

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("size", SIZES)
def test_the_hand_never_overflows_its_container(tour, size):  # noqa: F811
    hands = tour[size].hands
    assert len(hands) >= 4  # several turns, the middle and the end of the hand
    assert {moment for moment, _m in hands} >= {"turn 0", "end of hand"}
    problems = [(moment, overflow(m)) for moment, m in hands if overflow(m)]
    assert problems == []
    for _moment, m in hands:
        assert len(m["tiles"]) >= 1


@pytest.mark.parametrize("size", SIZES)
def test_the_hand_is_on_screen_without_scrolling(tour, size):  # noqa: F811
    moment, m = tour[size].hands[0]
    assert m["scrollY"] == 0
    assert m["row"]["bottom"] <= m["viewport"]["height"], (moment, m["row"])
    # large and tappable: 13-14 tiles in one row as wide as the screen allows
    assert min(m["widths"]) >= (24 if size == "phone" else 56), m["widths"]


# The table's inline padding, and the own hand's first and last tiles against it.
HAND_INSET = """() => {
  const table = document.querySelector('.mj-table'), style = getComputedStyle(table);
  const t = table.getBoundingClientRect();
  const tiles = [...document.querySelectorAll('#mj-hand .mj-own .tile')]
    .map(el => el.getBoundingClientRect());
  return {inner: [t.left + parseFloat(style.paddingLeft), t.right - parseFloat(style.paddingRight)],
          tiles: [tiles[0].left, Math.max(...tiles.map(r => r.right))]};
}"""


@pytest.mark.parametrize("width", [360, 390])
def test_fourteen_tiles_are_tap_targets_inside_the_tables_padding_on_a_phone(
    browser, site, site_database, width
):
    """On a 360px and a 390px phone the own hand of 14 tiles (13 + the drawn one, set apart)
    is at least 24px a tile (WCAG's minimum target), fits, and keeps the table's inline
    padding as the rest of the table does: its band ran edge to edge and the tiles started
    at x=1. The band still does; the tiles sit inside the padding (no gap between them
    below 390px, to keep 24px at 360px)."""
    phone = {"width": width, "height": 740 if width == 360 else 844}
    with new_player_page(browser, site, site_database, "nar", viewport=phone) as (page, _):
        sit_vs_bot(page)
        page.wait_for_function(
            "document.querySelectorAll('#mj-hand .mj-own .tile').length === 14"
            " || !!document.querySelector('[data-outcome]')",
            timeout=30_000,
        )
        m = page.evaluate(MEASURE_HAND)
        assert len(m["widths"]) == 14, "the hand ended before a turn with 14 tiles"
        assert overflow(m) == []
        assert min(m["widths"]) >= 24, m["widths"]
        inset = page.evaluate(HAND_INSET)
        shot(page, f"table-hand-{width}")
        print(f"\n{width}px: tiles {m['widths'][0]}px, {inset}")
        assert inset["inner"][0] >= 6  # the table's padding on a phone (.4rem)
        assert inset["tiles"][0] >= inset["inner"][0] - 0.5, inset
        assert inset["tiles"][1] <= inset["inner"][1] + 0.5, inset
        if width != 360:
            return
        # the compass's "Round 東": the word is centred on its tile (in the status bar it
        # sat on the tile's bottom line, below the bar's other words)
        offset = page.evaluate("""() => {
          const span = document.querySelector('#mj-clock .mj-compass-round');
          const range = document.createRange(); range.selectNodeContents(span.firstChild);
          const word = range.getBoundingClientRect();
          const tile = span.querySelector('.tile').getBoundingClientRect();
          return Math.abs((word.top + word.bottom) / 2 - (tile.top + tile.bottom) / 2); }""")
        assert offset < 2, offset


# A hand the player wins at once, dealt from a scripted wall: the bot deals (seat 1) and
# holds only honors, so whatever it lets go the player can neither claim nor win on; the
# player's first draw, 5m, completes 123 456 789m 22m 345m: a self-drawn win (自摸).
WIN_ON_THE_FIRST_DRAW = {
    "dealer": 1,
    "dealer_hand": "11122233344567z",
    "other_hand": "1234567892234m",
    "draws": "5m",
}
FOCUS = "document.activeElement.id || document.activeElement.dataset.outcome || ''"


@pytest.fixture(scope="module")
def won(browser, site, site_database):
    """size -> (what had the focus once the hand ended, the result card: MEASURE_RESULT)
    of the scripted hand, won by a click on 和 at the tour's sizes, the page in Chinese
    as the tour's: the end comes with a push to the open page, never in a snapshot."""
    suffix = int(time.time() * 1000) % 10**7
    found = {}
    for size, (width, height) in SIZES.items():
        # Each table is opened just before its page: the player's clock runs from the bot's
        # first discard, and at its end the server wins for the player (人和). A table
        # opened for the second size before the first size's tour had run out that clock
        # on a loaded machine.
        name = f"win{size[:2]}{suffix}"
        (table,) = players_at_scripted_tables(site_database, [name], **WIN_ON_THE_FIRST_DRAW)
        context = browser.new_context(locale="zh-CN", viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            log_in(page, site, name)
            page.goto(f"{site}/tables/{table}/")
            wait_for_socket(page)
            page.click('#mj-prompt [data-action="hu"]')
            page.wait_for_selector("[data-outcome]")
            try:  # table.js moves the focus just after the push (the assertion is the test's)
                page.wait_for_function("!!document.activeElement.dataset.outcome", timeout=5_000)
            except PlaywrightError:
                pass
            focus = page.evaluate(FOCUS)
            settle(page)
            found[size] = (focus, page.evaluate(MEASURE_RESULT))
        finally:
            context.close()
    return found


@pytest.mark.parametrize("size", SIZES)
def test_the_result_takes_the_focus_when_the_hand_ends(won, size):
    focus, _card = won[size]
    assert focus in {"self_draw", "discard_win", "draw", "escape"}


@pytest.mark.parametrize("size", SIZES)
def test_the_result_card_says_how_and_names_fans_in_chinese_on_one_line(won, size):
    """The Chinese page at the end of a won hand: a win says 自摸 or who discarded it
    (点炮); each fan is named in Chinese only (it read 门清 Concealed hand) and its value
    (1 × 5) takes one line (it wrapped on a phone)."""
    _focus, card = won[size]
    print(card)
    assert card.get("kind") in {"self_draw", "discard_win"}, card
    assert card["how"] == "自摸" if card["kind"] == "self_draw" else card["how"].endswith("点炮")
    assert card["fans"]
    assert [f for f in card["fans"] if re.search(r"[A-Za-z]", f["name"])] == []
    assert [f for f in card["fans"] if f["lines"] != 1] == []


def wait_for_plain_turn(page, ready, timeout: int):
    """What ``ready()`` finds at the first of the player's turns with no prompt (tiles to
    discard, nothing to claim) where it finds anything; a claim offered meanwhile is passed."""
    for _ in range(30):
        page.wait_for_function(
            "!!document.querySelector('#mj-clock[data-turn=me]')"
            " || !!document.querySelector('[data-outcome]')",
            timeout=timeout,
        )
        if page.query_selector("[data-outcome]"):
            pytest.fail("the hand ended before the turn looked for")
        looked_at = view_version(page)
        found = ready()
        if found and not page.query_selector("#mj-prompt [data-action]"):
            return found
        if page.query_selector('#mj-prompt [data-verb="pass"]'):
            page.keyboard.press("Escape")  # Esc passes a claim
        # the next look is at the next view: the pass, else the move the server makes
        wait_for_change(page, timeout=timeout, after=looked_at)
    pytest.fail("no such turn in 30 looks")


def assert_discarded_by_key(page, key: str, tile: str) -> None:
    """Pressing ``key`` discarded ``tile``: it is the last of the player's river, or the bot
    claimed it at once and it went into the bot's meld."""
    before = len(page.query_selector_all("#mj-rivers .river.me .tile"))
    melded = len(page.query_selector_all("#mj-opponent .meld img"))
    version = int(page.get_attribute("#mj-status", "data-version"))
    page.keyboard.press(key)
    page.wait_for_function(
        f"Number(document.querySelector('#mj-status').dataset.version) > {version}"
    )
    mine = page.query_selector_all("#mj-rivers .river.me .tile")
    if len(mine) == before:  # the bot's new meld, not one it had (a timer moves on too)
        claimed = len(page.query_selector_all("#mj-opponent .meld img"))
        assert claimed > melded, f"{key} discarded nothing"
    else:
        assert len(mine) == before + 1 and mine[-1].get_attribute("data-face") == tile


def test_keyboard_play_help_and_the_clock_announcement(browser, site, site_database):
    desktop = {"width": 1200, "height": 900}
    with new_player_page(browser, site, site_database, "kim", viewport=desktop) as (page, _):
        keyboard_play(page)


def keyboard_play(page):
    sit_vs_bot(page)
    # count every change of the screen-reader clock line from now on
    page.evaluate("""() => { window.__said = [];
      new MutationObserver(() => window.__said.push([
          document.getElementById('mj-clock').dataset.deadline,
          document.getElementById('mj-clock-say').textContent]))
        .observe(document.getElementById('mj-clock-say'),
                 {childList: true, characterData: true, subtree: true}); }""")
    # the help popover lists the keys
    page.click("[popovertarget=mj-help]")
    assert page.is_visible("#mj-help") and "h" in page.inner_text("#mj-help .mj-keys")
    page.keyboard.press("Escape")
    assert not page.is_visible("#mj-help")
    # wait for a plain turn (tiles to discard, no prompt), then discard the first tile by "1"
    first = wait_for_plain_turn(
        page, lambda: page.query_selector('#mj-hand button[data-key="1"]'), 30_000
    )
    tile = first.query_selector("[data-tile]").get_attribute("data-tile")
    assert_discarded_by_key(page, "1", tile)
    # arrows move the focus through the hand (visible focus ring on the tile), at the next
    # turn with tiles to play: the clock also runs in the claim pause after the bot's discard
    wait_for_plain_turn(page, lambda: page.query_selector("#mj-hand .tile-button"), 30_000)
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.className")
    assert "tile-button" in focused
    outline = page.evaluate(
        "getComputedStyle(document.activeElement.querySelector('.tile')).outlineStyle"
    )
    assert outline == "solid"
    # the decision timer is 5 s in these tests: the clock line speaks once per turn
    page.wait_for_function("window.__said.some(([_d, t]) => t.length > 0)", timeout=10_000)
    said = page.evaluate("window.__said.filter(([_d, t]) => t.length > 0)")
    say = page.get_attribute("#mj-clock-say", "data-say")
    assert said[0][1] == say
    deadlines = [d for d, _t in said]
    assert len(deadlines) == len(set(deadlines)), said  # once per turn, not every second
    assert page.get_attribute("#mj-clock-say", "aria-live") == "assertive"


FOCUS_IN_HAND = "!!document.activeElement.closest('#mj-hand')"
MY_TILES = (
    "!!document.querySelector('#mj-clock[data-turn=me]') && !!document.querySelector("
    "'#mj-hand .tile-button') && !document.querySelector('#mj-prompt [data-action]')"
)


def test_keyboard_focus_stays_in_the_hand_while_the_opponent_plays(browser, site, site_database):
    """A player who discards with arrows and Enter keeps the focus in the hand through the
    pushes: while the opponent plays (no tile of the hand can be played: the row holds it)
    and back on a tile at the next turn -- not dropped to the top of the page. A screen
    reader hears the opponent's discards and the tile drawn (the polite live region)."""
    with new_player_page(browser, site, site_database, "foc") as (page, _name):
        sit_vs_bot(page)
        page.evaluate("""() => { window.__said = []; const say = document.getElementById('mj-say');
          new MutationObserver(() => window.__said.push(say.textContent))
            .observe(say, {childList: true, characterData: true, subtree: true}); }""")
        turns = 0
        while turns < 3:
            page.wait_for_function(
                f"({MY_TILES}) || !!document.querySelector('[data-outcome]')"
                " || !!document.querySelector('#mj-prompt [data-action]')",
                timeout=30_000,
            )
            if page.query_selector("[data-outcome]"):
                break
            if page.query_selector("#mj-prompt [data-action]"):
                prompted = view_version(page)
                page.keyboard.press("Escape")  # a claim let go (or a win passed)
                wait_for_change(page, after=prompted)  # (or the server's move, if Esc did nothing)
                continue
            if turns:  # after the opponent's turn: still in the hand, on a tile
                assert page.evaluate("document.activeElement.classList.contains('tile-button')"), (
                    page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
                )
            else:
                page.keyboard.press("ArrowRight")
            version = int(page.get_attribute("#mj-status", "data-version"))
            page.keyboard.press("Enter")
            page.wait_for_function(
                f"Number(document.querySelector('#mj-status').dataset.version) > {version}"
            )
            assert page.evaluate(FOCUS_IN_HAND) or page.query_selector("[data-outcome]")
            turns += 1
        assert turns >= 2, "the hand ended before the opponent played twice"
        said = " ".join(page.evaluate("window.__said"))
        river = page.eval_on_selector_all("#mj-rivers .river.opp img", "els => els.map(e => e.alt)")
        heard = re.findall(
            r"Bot · Random discarded ([A-Z][a-z]+ of [a-z]+|[A-Z][a-z]+ [a-z]+)", said
        )
        assert heard and set(heard) <= set(river), (said, river)
        assert "You drew " in said


def switch_saved(response) -> bool:
    """The answer to a switch's POST (accounts.preferences.toggle, from table.js)."""
    return response.request.method == "POST" and response.url.endswith("/settings/toggle/")


def test_the_comfort_switches_play_for_the_player_and_are_remembered(browser, site, site_database):
    """With auto-win, auto-pass and discard-the-drawn-tile on, the page itself makes the
    moves (through the same buttons): the server never has to time the player out, so
    托管 (two timeouts in a row) never starts, and the switches survive a reload."""
    with new_player_page(browser, site, site_database, "sam") as (page, _name):
        sit_vs_bot(page)
        for pref in ("auto_win", "auto_pass", "discard_drawn"):
            with page.expect_response(switch_saved) as remembered:  # the switch's POST answered
                page.click(f'[data-pref="{pref}"]')
            assert remembered.value.ok, remembered.value.status
            assert page.get_attribute(f'[data-pref="{pref}"]', "aria-pressed") == "true"
        page.reload()
        page.wait_for_selector("#mj-hand [data-tile]")
        for pref in ("auto_win", "auto_pass", "discard_drawn"):
            assert page.get_attribute(f'[data-pref="{pref}"]', "aria-pressed") == "true"
        # a plain first turn (the dealer's 14 tiles, no drawn tile) is the player's own
        first = page.query_selector("#mj-hand button[data-action^='discard ']")
        if first and not page.query_selector("#mj-hand button[data-drawn]"):
            first.click()
        page.wait_for_function(
            "document.querySelectorAll('#mj-rivers .river.me .tile').length >= 4"
            " || !!document.querySelector('[data-outcome]')"
            " || !!document.querySelector('[data-testid=im-back]')",
            timeout=90_000,
        )
        assert page.query_selector("[data-testid=im-back]") is None


TWO_PLAYERS = """
from accounts import services as accounts
from catalogue.models import Ruleset
from mahjong.tables import services
players = [accounts.register(username=n, password={password!r}, nickname=n) for n in {names!r}]
print(services.open_table(Ruleset.objects.get(slug="classic"), players).public_id)
"""


def test_an_emote_shows_on_the_other_screen_unless_muted(browser, site, site_database):
    suffix = int(time.time() * 1000) % 10**7
    names = [f"emo{suffix}", f"ti{suffix}"]
    table = site_shell(site_database, TWO_PLAYERS.format(password=PASSWORD, names=names)).split()[
        -1
    ]
    contexts = [
        browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844}) for _ in names
    ]
    try:
        sender, watcher = (c.new_page() for c in contexts)
        for page, name in zip((sender, watcher), names, strict=True):
            page.set_default_timeout(15_000)
            log_in(page, site, name)
            page.goto(f"{site}/tables/{table}/")
            page.wait_for_selector("#mj-hand [data-tile]")
            wait_for_socket(page)
        page_send(sender, "nice")
        nice_at = time.monotonic()  # the server took it before it answered
        bubble = watcher.wait_for_selector('#mj-emote [data-emote="nice"]', timeout=10_000)
        assert "好牌" in bubble.inner_text()
        mine = sender.wait_for_selector('#mj-emote [data-emote="nice"][data-own]')
        assert "你" in mine.inner_text()  # the sender is shown what went
        # a second one within the cooldown is refused, and the page says why (it said nothing)
        page_send(sender, "hello", status=429)
        sender.wait_for_function(
            "document.querySelector('#mj-notice').textContent.includes('几秒')", timeout=5_000
        )
        # moves go on meanwhile (each push swaps a dozen parts): the bubble still goes after
        # its three seconds; every push restarted them, and it stayed while the hand ran
        shown, moves = time.monotonic(), 0
        while time.monotonic() - shown < 5:
            moves += take_turn(sender) or take_turn(watcher)
            if not watcher.query_selector("#mj-emote [data-emote]"):
                break
        assert moves >= 1, "no move was made while the emote was shown"
        assert watcher.query_selector("#mj-emote [data-emote]") is None, "still shown after 5 s"
        assert sender.query_selector("#mj-emote [data-emote]") is None
        # the watcher mutes emotes (its switch's POST answered: the server sends it none
        # from now on): the next one (after the cooldown) never shows
        with watcher.expect_response(switch_saved) as muted:
            watcher.click('[data-pref="emotes_muted"]')
        assert muted.value.ok, muted.value.status
        # The cooldown is a key in the server's cache that expires COOLDOWN s after "nice"
        # was taken, with nothing to watch: wait out what is left of it (by now, as a rule,
        # nothing: the bubble stayed its three seconds).
        from mahjong.tables.emotes import COOLDOWN

        left = nice_at + COOLDOWN + 0.25 - time.monotonic()
        if left > 0:
            sender.wait_for_timeout(left * 1000)
        page_send(sender, "gg")
        sender.wait_for_selector('#mj-emote [data-emote="gg"][data-own]')  # sent all the same
        a_move_of_the_sender_reaches(watcher, sender)
        assert watcher.query_selector("#mj-emote [data-emote]") is None
    finally:
        for c in contexts:
            c.close()


def a_move_of_the_sender_reaches(watcher, sender, limit: float = 30.0) -> None:
    """Until a move the sender makes from now on is on the watcher's screen. The emote was
    sent to the table's group before the sender's POST was answered, and a connection
    takes its group's messages in order: by then an emote for the watcher would be on
    its screen too. (The watcher's own moves prove nothing: a connection may take its
    own socket's frame before a group message.)"""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if take_turn(sender):
            watcher.wait_for_function(
                "Number(document.querySelector('#mj-status').dataset.version)"
                f" >= {view_version(sender)}"
            )
            return
        if ended(sender):
            pytest.fail("the hand ended before a move of the sender's")
        if not take_turn(watcher):
            try:
                wait_for_change(sender, timeout=2_000)
            except PlaywrightError:
                pass  # a turn may be waiting on a click: look again
    pytest.fail(f"no move of the sender's reached the watcher in {limit:g}s")


def page_send(page, emote: str, status: int = 200) -> None:
    page.click("[popovertarget=mj-emotes]")
    with page.expect_response(lambda r: r.url.endswith("/emote/")) as reply:
        page.click(f'[data-emote-id="{emote}"]')
    assert reply.value.status == status


def test_a_wenzhou_hand_of_17_fits_a_phone(browser, site, site_database):
    """温州 deals 16 (the dealer 17): the row was sized for 14 tiles, so on a 390px phone
    its last three, the drawn tile among them, ran off the screen (the page scrolled
    sideways by 64px). Every tile now fits, as a 14-tile hand does."""
    with new_player_page(browser, site, site_database, "wen") as (page, _name):
        page.select_option("[data-testid=bot-level]", "random")
        page.select_option("[data-testid=bot-ruleset]", "wenzhou")
        page.click("[data-testid=play-bot]")
        page.wait_for_url(re.compile(r"/tables/\w+/$"))
        page.wait_for_selector("#mj-hand [data-tile]")
        page.wait_for_function(
            "!!document.querySelector('#mj-hand [data-drawn]')"
            " || document.querySelectorAll('#mj-hand .mj-own .tile').length >= 17",
            timeout=40_000,  # a non-dealer may be offered a claim first (15s to decide)
        )
        m = page.evaluate(MEASURE_HAND)
        assert len(m["tiles"]) == 17, m["tiles"]
        assert overflow(m) == [], overflow(m)
        assert min(m["widths"]) >= 20


def test_the_13th_tile_of_a_wenzhou_hand_is_discarded_by_its_key(browser, site, site_database):
    """The keys stopped at the 12th tile (=): the last five of a 温州 hand of 17, the drawn
    tile among them, had none. They take q w e r t, the row below. q is pressed on a tile
    unlike the 16th and the drawn one, either of which the turn's timeout would discard."""
    face = "el => el.querySelector('[data-tile]').dataset.tile"
    with new_player_page(browser, site, site_database, "wkey") as (page, _name):
        page.select_option("[data-testid=bot-level]", "random")
        page.select_option("[data-testid=bot-ruleset]", "wenzhou")
        page.click("[data-testid=play-bot]")
        page.wait_for_url(re.compile(r"/tables/\w+/$"))

        def q_unlike_r_and_t():
            row = {k: page.query_selector(f'#mj-hand button[data-key="{k}"]') for k in "qrt"}
            if all(row.values()):
                tile = row["q"].evaluate(face)
                if tile not in (row["r"].evaluate(face), row["t"].evaluate(face)):
                    return tile
            return None

        tile = wait_for_plain_turn(page, q_unlike_r_and_t, 40_000)
        assert_discarded_by_key(page, "q", tile)
