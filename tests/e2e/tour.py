"""One walk through the site in chromium per screen size (a 390x844 phone in portrait and a
1440x900 desktop), shared by the screenshot, layout and accessibility tests: lobby, a
table against a bot in the middle of a hand and at its end, the hand's replay, the
profile and the settings page. On every page it keeps a screenshot (var/screenshots/)
and the axe-core scan; at every turn of the hand it measures the own hand against its
container.

axe-core comes from npm (`make test` installs it under tests/e2e/node/, gitignored)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import PASSWORD, ROOT

SIZES = {"phone": (390, 844), "desktop": (1440, 900)}
PAGES = ("lobby", "table-mid", "table-end", "replay", "profile", "settings", "rules", "calculator")
SCREENSHOTS = ROOT / "var" / "screenshots"
AXE = ROOT / "tests" / "e2e" / "node" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}

# The own hand, its row and every tile in it, as boxes: the row must hold every tile and
# fit in the table, the table in the viewport's width, and nothing may scroll sideways.
MEASURE_HAND = """() => {
  const box = el => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const row = document.querySelector('#mj-hand .mj-own');
  const hand = document.getElementById('mj-hand');
  const table = document.querySelector('.mj-table');
  if (!row) return null;
  return {
    row: box(row), hand: box(hand), table: box(table),
    tiles: [...row.querySelectorAll('.tile')].map(box),
    widths: [...row.querySelectorAll('.tile')].map(el => el.offsetWidth),  // untransformed
    rowScroll: row.scrollWidth - row.clientWidth,
    pageScroll: document.scrollingElement.scrollWidth - window.innerWidth,
    viewport: {width: window.innerWidth, height: window.innerHeight},
    scrollY: window.scrollY,
  };
}"""

# The end-of-hand card: how the hand was won, each fan's name and how many lines its
# value (1 × 5) takes.
MEASURE_RESULT = """() => {
  const card = document.querySelector('#mj-result [data-outcome]');
  if (!card) return {};
  const lines = el => { const range = document.createRange(); range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter(b => b.width > 0)
      .map(b => Math.round(b.bottom))).size; };
  return {kind: card.dataset.outcome, how: card.querySelector('.mj-how')?.textContent.trim() || '',
    fans: [...card.querySelectorAll('tr[data-fan]')].map(tr => ({
      name: tr.cells[0].textContent.trim(), value: tr.cells[1].textContent.trim(),
      lines: lines(tr.cells[1])}))};
}"""

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))}));
}"""

# The page at rest: its fonts loaded and every animation that plays once (a tile's or a
# bubble's entrance, a transition) finished. One that repeats is a signal, not a change
# of layout (the latest discard's two pulses, 2.8 s; a spinner): it may run on.
SETTLED = """() => document.fonts.status === 'loaded' && document.getAnimations().every(a =>
  a.playState !== 'running' || a.effect?.getComputedTiming().iterations !== 1)"""

TURN_OR_END = (
    "!!document.querySelector('#mj-clock[data-turn=me]')"
    " || !!document.querySelector('[data-outcome]')"
)


@dataclass
class Visit:
    size: str
    shots: dict[str, Path] = field(default_factory=dict)
    violations: dict[str, list[dict]] = field(default_factory=dict)
    hands: list[tuple[str, dict]] = field(default_factory=list)  # (moment, measurement)
    table_url: str = ""


def overflow(m: dict) -> list[str]:
    """What is wrong with one measurement of the hand (empty: it fits)."""
    problems = []
    slack = 0.5  # sub-pixel rounding
    if m["rowScroll"] > 0:
        problems.append(f"the hand row scrolls by {m['rowScroll']}px")
    if m["pageScroll"] > 0:
        problems.append(f"the page scrolls sideways by {m['pageScroll']}px")
    for name in ("row", "hand"):
        inside = m[name]["left"] >= m["table"]["left"] - slack
        inside = inside and m[name]["right"] <= m["table"]["right"] + slack
        if not inside:
            problems.append(f"#mj-hand {name} {m[name]} leaves the table {m['table']}")
    for i, t in enumerate(m["tiles"]):
        if t["left"] < m["row"]["left"] - slack or t["right"] > m["row"]["right"] + slack:
            problems.append(f"tile {i} {t} leaves the row {m['row']}")
        if t["right"] > m["viewport"]["width"] + slack:
            problems.append(f"tile {i} ends past the viewport at {t['right']}")
    return problems


def axe_scan(page) -> list[dict]:
    if not AXE.exists():
        pytest.fail(f"axe-core is missing at {AXE}: `make node-tools` (in `make test`) installs it")
    page.add_script_tag(path=str(AXE))
    return page.evaluate(AXE_RUN)


REGISTER = (
    "from accounts import services; "
    "services.register(username={name!r}, password={password!r}, nickname={name!r})"
)


def settle(page) -> None:
    """Until the page is at rest (SETTLED): what a screenshot or a measurement sees."""
    page.wait_for_function(SETTLED)


def site_shell(site_database, code: str) -> str:
    """Run Python in `manage.py shell` on the site's database; its standard output."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "MAHJONG_TEST_SEED"}}
    env.update(
        DATABASE_URL=site_database,
        MAHJONG_TESTING="true",
        DJANGO_SETTINGS_MODULE="mahjong.settings",
    )
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", code],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout


# New players, each at a table against the random bot whose first hand is dealt from a
# scripted wall (mahjong.engine.scripted) instead of the site's seed: the table opens as
# the lobby opens it, timers, events and commitment and all; only the deal is the
# script's. (Its replay, rebuilt from the seed, would be refused: no test asks for one.)
SCRIPTED_BOT_TABLES = """
from unittest import mock
from accounts import services as accounts
from accounts.models import User
from catalogue.models import Ruleset
from mahjong.engine import game
from mahjong.engine.scripted import scripted_hand
from mahjong.tables import services
bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
def deal(ruleset, seed, claim_pause=False, **_options):
    return scripted_hand(ruleset, seed=seed, **{script!r}).evolve(claim_pause=claim_pause)
for name in {names!r}:
    player = accounts.register(username=name, password={password!r}, nickname=name)
    with mock.patch.object(game, "new_hand", deal):
        table = services.open_table(Ruleset.objects.get(slug={rules!r}), [player, bot],
                                    bot_level="random")
    print(table.public_id)
"""


def players_at_scripted_tables(site_database, names, rules: str = "classic", **script) -> list[str]:
    """Register each of ``names`` and seat them (seat 0) at a new table against the random
    bot, its hand dealt by ``scripted_hand(rules, **script)``: the tables' public ids, in
    the order of ``names``. One shell for them all (each costs a Django start)."""
    code = SCRIPTED_BOT_TABLES.format(
        names=list(names), password=PASSWORD, rules=rules, script=script
    )
    return site_shell(site_database, code).split()[-len(names) :]


def log_in_new_player(page, site, site_database, name) -> None:
    """A new player registered in the site's database (the page's sign-up is limited per
    address and day, and the other browser tests sign up), logged in through the page."""
    site_shell(site_database, REGISTER.format(name=name, password=PASSWORD))
    log_in(page, site, name)


@contextmanager
def new_player_page(browser, site, site_database, prefix, *, locale="en-US", viewport=None):
    """A page of a new player, logged in, in a context of its own (closed afterwards)."""
    context = browser.new_context(locale=locale, viewport=viewport or {"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        name = f"{prefix}{int(time.time() * 1000) % 10**7:07d}"  # always 7 digits: a test may count
        log_in_new_player(page, site, site_database, name)
        yield page, name
    finally:
        context.close()


def sit_vs_bot(page) -> None:
    """From the lobby: a table against the random bot, its hand shown and its socket up."""
    page.select_option("[data-testid=bot-level]", "random")
    page.click("[data-testid=play-bot]")
    page.wait_for_url(re.compile(r"/tables/\w+/$"))
    page.wait_for_selector("#mj-hand [data-tile]")
    wait_for_socket(page)


def wait_for_socket(page) -> None:
    """Until the table's WebSocket is open (table.js marks it): its connection is then in
    the table's group, so the other seat's moves and emotes reach this page. (Waiting for
    the template's static hx-ext attribute waited for nothing: a hint sent before the
    socket joined was lost, the page catching up only at its next heartbeat.)"""
    page.wait_for_selector(".mj-table[data-socket=open]", state="attached")


def log_in(page, site, name) -> None:
    page.goto(f"{site}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button.primary")
    page.wait_for_url(f"{site}/")


def _version(page) -> int:
    return int(page.get_attribute("#mj-status", "data-version"))


def _ended(page) -> bool:
    return page.query_selector("[data-outcome]") is not None


def _my_turn(page, timeout=20_000) -> bool:
    """Wait for this player's decision; False once the hand has ended. A push lost on a
    loaded machine is healed as a player would: a reload brings the full snapshot."""
    try:
        page.wait_for_function(TURN_OR_END, timeout=timeout)
    except PlaywrightError:
        page.reload()
        page.wait_for_selector("#mj-hand")
        page.wait_for_function(TURN_OR_END, timeout=timeout)
    return not _ended(page)


def _move(page) -> None:
    """A simple player's click: win, let a claim go, else discard the drawn tile."""
    for selector in (
        '#mj-prompt [data-action="hu"]',
        '#mj-prompt [data-action="pass"]',
        '#mj-prompt [data-action="guo"]',
        "#mj-hand button[data-drawn]",
        "#mj-hand button[data-action^='discard '] >> nth=-1",
    ):
        if page.query_selector(selector.split(" >> ")[0]):
            before = _version(page)
            try:
                page.click(selector, timeout=2_000)
                page.wait_for_function(
                    f"Number(document.querySelector('#mj-status').dataset.version) > {before}"
                    " || !!document.querySelector('[data-outcome]')",
                    timeout=5_000,
                )
            except PlaywrightError:
                pass  # a push replaced the button, or the server played: look again
            return


class Tour:
    def __init__(self, browser, site, site_database):
        self.browser, self.site, self.database = browser, site, site_database
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def keep(self, page, visit: Visit, name: str) -> None:
        settle(page)  # the enter animations finished
        path = SCREENSHOTS / f"{name}-{visit.size}.png"
        page.screenshot(path=str(path), full_page=False)
        visit.shots[name] = path
        visit.violations[name] = axe_scan(page)

    def measure(self, page, visit: Visit, moment: str) -> None:
        m = page.evaluate(MEASURE_HAND)
        if m is not None:
            visit.hands.append((moment, m))

    def visit(self, size: str) -> Visit:
        width, height = SIZES[size]
        context = self.browser.new_context(
            locale="zh-CN", viewport={"width": width, "height": height}
        )
        try:
            return self._walk(context.new_page(), Visit(size))
        finally:
            context.close()

    def _walk(self, page, visit: Visit) -> Visit:
        page.set_default_timeout(15_000)
        name = f"tour{visit.size[:2]}{int(time.time() * 1000) % 10**7}"
        log_in_new_player(page, self.site, self.database, name)
        self.keep(page, visit, "lobby")
        page.select_option("[data-testid=bot-level]", "random")
        page.click("[data-testid=play-bot]")
        page.wait_for_url(re.compile(r"/tables/\w+/$"))
        visit.table_url = page.url
        page.wait_for_selector("#mj-hand [data-tile]")
        turns = 0
        deadline = time.monotonic() + 180
        while _my_turn(page):
            assert time.monotonic() < deadline, "the hand did not end in time"
            self.measure(page, visit, f"turn {turns}")
            if turns == 2:  # a few discards in the rivers: the middle of a hand
                self.keep(page, visit, "table-mid")
                self.measure(page, visit, "mid-hand, after the scan")
            _move(page)
            turns += 1
        if "table-mid" not in visit.shots:
            pytest.fail(f"the hand ended after {turns} turns, before the middle")
        self.keep(page, visit, "table-end")
        self.measure(page, visit, "end of hand")
        table_id = visit.table_url.rstrip("/").rsplit("/", 1)[1]
        page.goto(f"{self.site}/history/hands/{table_id}/1/replay/")
        self.keep(page, visit, "replay")
        page.goto(f"{self.site}/accounts/profile/")
        self.keep(page, visit, "profile")
        page.goto(f"{self.site}/accounts/settings/")
        self.keep(page, visit, "settings")
        page.goto(f"{self.site}/rules/gb/#fan-lv_yi_se")  # the longest book, a fan targeted
        self.keep(page, visit, "rules")
        page.goto(f"{self.site}/rules/gb/calculator/?hand=123m456m789m1155z&win=5z&tsumo=on")
        self.keep(page, visit, "calculator")
        return visit


_WALKED: dict[str, Visit] = {}


@pytest.fixture(scope="package")
def tour(browser, site, site_database):
    """size -> Visit, walked once per test session for both sizes. (Each test module
    imports this fixture, which pytest then sets up once per module: the walks are kept
    here so the site is walked once.)"""
    if not _WALKED:
        walker = Tour(browser, site, site_database)
        _WALKED.update({size: walker.visit(size) for size in SIZES})
    return _WALKED
