"""Where a move's server time goes, in one process, with nothing else in the way.

Two players play whole hands at one table through the site's own code paths: the click as
the table's socket takes it (the move, then the mover's own fragments from the move's
reads; ``--click http``: the htmx POST to the act URL through Django's middleware,
session and log-in, whose answer carries them), then what the other seat's socket does
on the "hand changed" hint (re-read the table, render that viewer's fragments). Moves
are random legal ones (a win when offered), from the acting seat's own view. Per stage:
CPU time per move (median and mean) and SQL queries per move.

    .venv/bin/python bench/move_cost.py --hands 20
    .venv/bin/python bench/move_cost.py --hands 20 --profile /tmp/move.prof
    .venv/bin/python bench/move_cost.py --hands 60 --tier novice

``--tier`` plays at a room tier's table instead of a friendly one: the end of each hand
then also settles beans through the ledger, rank scores and the players' ratings.

The database is a fresh SQLite file unless --database names another (an existing, empty
PostgreSQL database's URL: migrated, then used). Timers are off (Celery eager mode skips them): the
workers' share is measured by bench/load.py.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup(database: str) -> None:
    os.environ["DATABASE_URL"] = database
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "mahjong.settings"
    import django
    from django.core.management import call_command

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    call_command("load_builtin", verbosity=0)


def players(tag: str):
    from accounts import services as accounts

    return [accounts.register(username=f"{tag}{i}", password="bench-pass-1") for i in (1, 2)]


def choose(rng: random.Random, legal: list[str]) -> str:
    wins = [a for a in legal if a == "hu"]
    return wins[0] if wins else rng.choice(legal)


class Timer:
    """CPU seconds and SQL queries per stage, over every move."""

    def __init__(self):
        self.cpu: dict[str, list[float]] = {}
        self.queries: dict[str, int] = {}

    def run(self, stage: str, fn):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        connection.queries_log.clear()  # the log is a bounded deque: counts need room
        with CaptureQueriesContext(connection) as captured:
            start = time.process_time()
            result = fn()
            self.cpu.setdefault(stage, []).append(time.process_time() - start)
        self.queries[stage] = self.queries.get(stage, 0) + len(captured)
        return result


def click_socket(_client, table, user, action: str, version: int) -> None:
    """What the table's consumer does with a move message: the move, then the mover's
    screen (from the move's own reads; re-read at the end of a hand)."""
    from django.utils import translation

    from mahjong.tables import presenters, services

    with translation.override("zh-hans"):
        done = services.act(table, user, action, version)
        seat = next(s.index for s in done.seats if s.user_id == user.pk)
        if presenters.fragments_after_move(done, seat) is None:
            presenters.fragments_now(table.pk, seat)


def click_http(client, table, _user, action: str, version: int) -> None:
    """The page's fallback without a socket: the button's htmx POST."""
    response = client.post(
        f"/tables/{table.public_id}/act/", {"action": action, "version": version}
    )
    assert response.status_code == 200, response.status_code


CLICKS = {"socket": click_socket, "http": click_http}


def _ends_hand(state, seat: int, action: str) -> bool:
    from mahjong.engine import game as engine
    from mahjong.engine.actions import parse_action

    return engine.apply(state, seat, parse_action(action))[0].ended


def push(table, viewer: int) -> str:
    """What a seat's consumer does on the "hand changed" hint."""
    from django.utils import translation

    from mahjong.tables import presenters

    with translation.override("zh-hans"):
        return presenters.fragments_now(table.pk, viewer)[1]


def turns(table, users, hands: int, rng: random.Random):
    """Whole hands at ``table``, one turn at a time: yields (hand, state, seat, action), a
    random legal action of the seat to act, which the caller makes before the next turn
    is read; both players start the next hand after each."""
    from mahjong.engine.views import view
    from mahjong.tables import services

    for _ in range(hands):
        while (state := (hand := table.current_hand()).game()).phase != "ended":
            if hand.pause_until is not None:  # a pass waits for the claim pause: end it now,
                end_pause(hand)  # as the pause's timer would, or the loop spins a second
            seat = next(s for s in (0, 1) if view(state, s)["legal_actions"])
            yield hand, state, seat, choose(rng, view(state, seat)["legal_actions"])
        for user in users:
            services.ready_next(table, user)


def end_pause(hand) -> None:
    """Bring the claim pause's end to now: a pass sent then is played at once."""
    from django.utils import timezone

    type(hand).objects.filter(pk=hand.pk).update(pause_until=timezone.now())


def open_table(users, tier: str = ""):
    """A friendly table of the classic rules, or a table of the room tier ``tier``."""
    from catalogue.models import RoomTier, Ruleset
    from mahjong.tables import services

    if not tier:
        return services.open_table(Ruleset.objects.get(slug="classic"), users)
    room = RoomTier.objects.get(slug=tier)
    return services.open_table(room.ruleset, users, tier=room, beans_per_point=room.beans_per_point)


def play(
    hands: int, seed: int, timer: Timer, click: str = "socket", tag: str = "bench", tier: str = ""
) -> int:
    from django.test import Client

    users = players(tag)
    clients = []
    for user in users:
        client = Client(HTTP_HX_REQUEST="true")
        client.force_login(user)
        clients.append(client)
    table = open_table(users, tier)
    moves = 0
    for hand, state, seat, action in turns(table, users, hands, random.Random(seed)):
        # The move that ends the hand (a win, the wall's last tile) settles it:
        # measured on its own, as it is one move per hand, not the common case.
        last = _ends_hand(state, seat, action)
        stages = (
            ("click (ends the hand)", "push (ends the hand)")
            if last
            else (f"click ({click})", "push (other screen)")
        )
        timer.run(
            stages[0],
            partial(CLICKS[click], clients[seat], table, users[seat], action, hand.version),
        )
        timer.run(stages[1], partial(push, table, 1 - seat))
        moves += 1
    return moves


def report(timer: Timer, moves: int) -> None:
    print(f"{moves} moves")
    print(f"{'stage':<22} {'median ms':>10} {'mean ms':>9} {'queries/move':>13}")
    for stage, values in timer.cpu.items():
        per = len(values) / moves
        print(
            f"{stage:<22} {statistics.median(values) * 1e3:>10.2f} "
            f"{statistics.fmean(values) * 1e3 * per:>9.2f} {timer.queries[stage] / moves:>13.1f}"
        )
    total = sum(sum(v) for v in timer.cpu.values()) / moves
    print(
        f"{'all, per move':<22} {'':>10} {total * 1e3:>9.2f} "
        f"{sum(timer.queries.values()) / moves:>13.1f}"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--database", default="")
    parser.add_argument(
        "--click",
        choices=tuple(CLICKS),
        default="socket",
        help="a move as a socket message (the page with its socket open) "
        "or as the htmx POST (the page without one)",
    )
    parser.add_argument("--tier", default="", help="a room tier's slug: play at its table")
    parser.add_argument("--profile", default="", help="write a cProfile of the measured hands")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        setup(args.database or f"sqlite:///{tmp}/move_cost.sqlite3")
        # warm-up: the engine's tables built (as mahjong.startup does in a served process),
        # templates compiled, caches filled
        from mahjong.engine.warm import warm_up

        warm_up()
        play(2, args.seed + 1, Timer(), args.click, tag="warm", tier=args.tier)
        timer = Timer()
        if args.profile:
            import cProfile

            profiler = cProfile.Profile()
            moves = profiler.runcall(play, args.hands, args.seed, timer, args.click, tier=args.tier)
            profiler.dump_stats(args.profile)
        else:
            moves = play(args.hands, args.seed, timer, args.click, tier=args.tier)
        report(timer, moves)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
