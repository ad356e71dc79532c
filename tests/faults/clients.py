"""Scripted players over real WebSockets (the `websockets` package), reading the same
pushes a browser swaps in: the hand's version, the tiles in the player's own hand and the
actions offered. They play the engine's timeout strategy (win, pass claims, discard the
drawn tile), remember every view they were shown, and reconnect when a process dies.
"""

from __future__ import annotations

import html
import re
import time
from dataclasses import dataclass

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

VERSION = re.compile(r'id="mj-status"[^>]*data-version="(\d+)"')
HAND = re.compile(r'<div id="mj-hand".*?</div>\s*</div>', re.S)
TILE = re.compile(r'data-tile="([^"]+)"')
ACTION = re.compile(r'data-action="([^"]+)"')
OUTCOME = re.compile(r'data-outcome="([^"]+)"')
NOTICE = re.compile(r'<div class="flash error">(.*?)</div>', re.S)


@dataclass(frozen=True)
class Seen:
    """One push as the player's screen shows it."""

    version: int
    tiles: tuple[str, ...]  # own concealed tiles and the drawn one, sorted
    actions: frozenset[str]
    outcome: str
    notice: str


def parse(message: str) -> Seen | None:
    version = VERSION.search(message)
    if version is None:  # a notice alone (a refused message)
        return None
    hand = HAND.search(message)
    tiles = tuple(sorted(TILE.findall(hand.group(0)))) if hand else ()
    outcome = OUTCOME.search(message)
    notice = NOTICE.search(message)
    return Seen(
        version=int(version.group(1)),
        tiles=tiles,
        actions=frozenset(html.unescape(a) for a in ACTION.findall(message)),
        outcome=outcome.group(1) if outcome else "",
        notice=html.unescape(notice.group(1)).strip() if notice else "",
    )


def choose(seen: Seen) -> str | None:
    """The engine's timeout play: win, else pass a claim, else discard the drawn tile."""
    actions = seen.actions
    for verb in ("hu", "pass", "guo"):
        picked = sorted(a for a in actions if a.split(" ", 1)[0] == verb)
        if picked:
            return picked[0]
    discards = sorted(a for a in actions if a.startswith("discard "))
    return discards[-1] if discards else (sorted(actions)[0] if actions else None)


class Player:
    """One browser tab of a seated player."""

    def __init__(self, name: str, table_id: str, session_cookie: str):
        self.name, self.table_id, self.cookie = name, table_id, session_cookie
        self.ws = None
        self.web = None
        self.seen: list[Seen] = []
        self.sent: list[tuple[int, str]] = []
        self.drops = 0
        self.reconnects = 0
        self.acting = True

    @property
    def view(self) -> Seen | None:
        return self.seen[-1] if self.seen else None

    def saw(self, version: int) -> bool:
        """Whether a screen of ``version`` reached this player, or of a later one (a push
        renders the hand as it is when sent: a quicker move may replace a version)."""
        return any(seen.version >= version for seen in self.seen)

    def connect(self, web, timeout: float = 15.0) -> Seen:
        """Open the table's socket on ``web`` and wait for the snapshot; a server that is
        not up yet (or its Redis) is retried until ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.ws = connect(
                    f"{web.ws_base}/ws/tables/{self.table_id}/",
                    origin=web.base,
                    additional_headers={"Cookie": f"sessionid={self.cookie}"},
                    open_timeout=5,
                    close_timeout=1,
                    legacy=True,  # a plain connection object, reconnected by hand
                )
                self.web = web
                return self.wait(lambda s: True, timeout=max(1.0, deadline - time.monotonic()))
            except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError):
                self.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)

    def reconnect(self, web, timeout: float = 30.0) -> Seen:
        self.reconnects += 1
        self.close()
        return self.connect(web, timeout=timeout)

    def close(self) -> None:
        if self.ws is not None:
            try:
                self.ws.close()
            except Exception:
                pass
        self.ws = None

    def poll(self, timeout: float = 0.0) -> Seen | None:
        """The next push if one comes within ``timeout``; raises ConnectionClosed."""
        try:
            message = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        seen = parse(message) if isinstance(message, str) else None
        if seen is not None:
            self.seen.append(seen)
        return seen

    def wait(self, predicate, timeout: float = 15.0) -> Seen:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen = self.poll(timeout=min(0.5, max(0.01, deadline - time.monotonic())))
            if seen is not None and predicate(seen):
                return seen
        raise TimeoutError(f"{self.name}: no matching push in {timeout}s; last {self.view}")

    def settle(self, quiet: float = 1.0, timeout: float = 15.0) -> None:
        """Read pushes until none came for ``quiet`` seconds (answers still in flight)."""
        deadline = time.monotonic() + timeout
        while self.poll(timeout=quiet) is not None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: pushes did not stop in {timeout}s")

    def send(self, action: str, version: int) -> None:
        self.sent.append((version, action))
        self.ws.send(f'{{"action": "{action}", "version": {version}}}')

    def step(self) -> bool:
        """Drain the socket, then act once on the newest view if it offers something."""
        while self.poll(timeout=0.01) is not None:
            pass
        view = self.view
        if not self.acting or view is None or view.outcome:
            return False
        if self.sent and self.sent[-1][0] >= view.version:
            return False  # already answered this version
        action = choose(view)
        if action is None:
            return False
        self.send(action, view.version)
        return True


def drive(players: list[Player], until, timeout: float = 60.0, on_drop=None) -> None:
    """Let the players play until ``until()`` holds. A closed socket calls
    ``on_drop(player)`` (which reconnects it) or fails."""
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            views = {p.name: p.view for p in players}
            raise TimeoutError(f"the players did not get there in {timeout}s: {views}")
        for player in players:
            try:
                player.step()
            except ConnectionClosed:
                player.drops += 1
                if on_drop is None:
                    raise
                on_drop(player)
        time.sleep(0.005)


def ended(players: list[Player]):
    return lambda: all(p.view is not None and p.view.outcome for p in players)


def at_least(players: list[Player], version: int):
    """Every player has seen ``version`` (or the end of the hand, which may come first)."""
    return lambda: all(
        p.view is not None and (p.view.version >= version or p.view.outcome) for p in players
    )
