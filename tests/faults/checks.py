"""What every fault test checks at the end: the hand's history is whole and every screen a
player was shown lies on it.

``lobby.replays.rebuild`` replays the revealed seed and the logged moves through the engine
and refuses unless they end in the stored final state, so the log holds every applied
move exactly once. Each push a player saw at version V must then equal the engine's view
of the rebuilt state after V - first moves: an action the player saw take effect was not
lost, and nothing was applied twice or out of order.
"""

from __future__ import annotations

from collections import Counter

from django.test import Client

from lobby.replays import rebuild_from
from mahjong.engine.game import is_forced, is_pause_window
from mahjong.engine.views import view
from mahjong.tables.presenters import tiles_of

# What this run injected and checked, printed at the end of the run (conftest.py) and
# recorded in docs/RELIABILITY.md.
TALLY: Counter = Counter()


def injected(fault: str, times: int = 1) -> None:
    TALLY[f"fault: {fault}"] += times


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def screen(state, seat: int) -> tuple[tuple[str, ...], frozenset[str]]:
    """The own tiles and offered actions the table page shows ``seat`` in ``state``."""
    v = view(state, seat)
    me = v["seats"][seat]
    tiles = tiles_of(me["concealed"]) + ([me["drawn"]] if me["drawn"] else [])
    if v["turn"] == seat and is_pause_window(state) and is_forced(state, seat):
        return tuple(sorted(tiles)), frozenset()  # nothing to claim: the server passes
    return tuple(sorted(tiles)), frozenset(v["legal_actions"])


def held_pass(player, seen, actions) -> bool:
    """The player passed this version's claim window before the pause's end: the server
    holds the pass till then (services.moves._hold) and the screen offers nothing meanwhile."""
    passes = {a for a in actions if a.split(" ", 1)[0] in ("pass", "guo")}
    return not seen.actions and any(
        version == seen.version and action in passes for version, action in player.sent
    )


def assert_history(hand, players_by_seat: dict) -> list:
    """The hand rebuilds from its seed and log into its stored state, and every view each
    player saw matches the rebuilt state at its version. Returns the rebuilt steps."""
    hand.refresh_from_db()
    seed = hand.seed or hand.game().seed.hex()  # a hand in play: the server's own copy
    steps = rebuild_from(hand.state, seed, hand.commitment, hand.moves())
    first = hand.version - (len(steps) - 1)
    for seat, player_list in players_by_seat.items():
        for player in player_list:
            assert player.seen, f"{player.name} saw nothing"
            for seen in player.seen:
                index = seen.version - first
                assert 0 <= index < len(steps), (player.name, seen.version, first, len(steps))
                tiles, actions = screen(steps[index].state, seat)
                if held_pass(player, seen, actions):
                    actions = frozenset()  # the claim pause holds it: nothing more to do
                assert (seen.tiles, seen.actions) == (tiles, actions), (
                    f"{player.name} at version {seen.version} saw {seen.tiles} "
                    f"{sorted(seen.actions)}, the log says {tiles} {sorted(actions)}"
                )
            last = player.seen[-1].version
            # in play, a timer may have moved on since the player's last push
            assert last == hand.version if hand.ended_at else last <= hand.version, (
                player.name, last, hand.version,
            )  # fmt: skip
    TALLY["hands rebuilt from seed and log"] += 1
    TALLY["moves replayed"] += len(steps) - 1
    TALLY["screens checked"] += sum(len(p.seen) for ps in players_by_seat.values() for p in ps)
    # A hint is a hint: a push renders the hand as it is when it is read, so a player
    # may skip a version that a faster move replaced (or that came while reconnecting).
    for player in (p for ps in players_by_seat.values() for p in ps):
        shown = {s.version for s in player.seen}
        TALLY["versions a player skipped"] += len(set(range(first, hand.version + 1)) - shown)
    return steps
