"""What the web or worker processes spent their Python time on, from ``bench/load.py
--profile``.

    .venv/bin/python bench/profile_summary.py var/profile/web*-200.txt
    .venv/bin/python bench/profile_summary.py var/profile/worker*-200.txt

Each line of py-spy's raw output is one stack (frames from the thread's root to the
frame that held the GIL, ``;``-separated) and how many samples saw it. A sample goes to
the first stage below whose marker is one of its frames (what the application was doing,
whatever library code it was in), else to the library of its innermost frame (the
serving machinery: thread hand-offs, the event loop, the protocol, the channel layer).
Shares are of all the samples: of the time the processes held the GIL.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

# (stage, markers): a marker is the start of a frame's text, "function (path", or where
# no function is named, a path fragment anywhere in it
STAGES = [
    ("bench: the query counter's classifier", ["kind_of (stack_settings.py"]),
    ("fragments: template rendering", ["render_to_string (django/template/loader.py"]),
    (
        "fragments: context (view, legal moves, waits hint)",
        ["context_for (mahjong/tables/presenters.py"],
    ),
    ("move: the locked read", ["lock (mahjong/tables/services/locking.py"]),
    ("move: engine, the hand's and events' writes", ["apply (mahjong/tables/services/moves.py"]),
    (
        "push: re-reading the hand and seats",
        ["latest_hand (mahjong/tables/compiled.py", "seats (mahjong/tables/compiled.py"],
    ),
    ("commit, and what runs on it (the hint, the timer)", ["Atomic.__exit__ ("]),
    ("rate limit (a Redis round trip)", ["allow (mahjong/tables/ratelimit.py"]),
    ("heartbeat", ["heartbeat (mahjong/tables/services/connections.py"]),
    ("a frame from a thread to the loop (async_to_sync)", ["SyncConsumer.send ("]),
    # the workers' own
    ("worker: a bot's or auto-play's decision", ["decide (mahjong/tables/bot_moves.py"]),
    ("worker: a timer's unlocked read", ["timing (mahjong/tables/compiled.py"]),
    ("worker: re-arming a timer", ["timer_fired (mahjong/tables/services/timers.py"]),
    ("worker: the sweeper", ["sweep (mahjong/tables/services/timers.py"]),
    # kombu's own Redis client: not the channel layer's, whatever frame it ends in
    ("Celery and kombu (a worker's task machinery)", ["kombu/"]),
]
# (library, path fragments) for the innermost frame of what no stage claimed
LIBRARIES = [
    (
        "thread hand-offs (asgiref, futures, threading)",
        ["asgiref/", "concurrent/futures/", "threading.py", "channels/db.py"],
    ),
    ("channel layer (channels-redis, redis-py)", ["channels_redis/", "redis/", "msgpack"]),
    (
        "WebSocket and HTTP protocol (twisted, autobahn, daphne)",
        ["twisted/", "autobahn/", "daphne/", "txaio/"],
    ),
    ("asyncio event loop", ["asyncio/", "selectors.py"]),
    ("Django and the database driver, elsewhere", ["django/", "psycopg"]),
    ("channels' consumer plumbing", ["channels/"]),
    ("Celery and kombu (a worker's task machinery)", ["celery/", "billiard/", "vine/"]),
]
OTHER = "other"


def frames_of(stack: str) -> list[str]:
    return stack.split(";")


def _marks(frame: str, marker: str) -> bool:
    return frame.startswith(marker) if " (" in marker else marker in frame


def category(frames: list[str]) -> str:
    for stage, markers in STAGES:
        if any(_marks(frame, m) for frame in frames for m in markers):
            return stage
    innermost = frames[-1]
    for library, paths in LIBRARIES:
        if any(p in innermost for p in paths):
            return library
    return OTHER


def tally(lines) -> Counter:
    counts: Counter = Counter()
    for line in lines:
        stack, _, n = line.rstrip("\n").rpartition(" ")
        if stack and n.isdigit():
            counts[category(frames_of(stack))] += int(n)
    return counts


def report(counts: Counter, out=sys.stdout) -> None:
    total = sum(counts.values())
    print(f"{total} samples", file=out)
    order = dict.fromkeys([s for s, _ in STAGES] + [lib for lib, _ in LIBRARIES] + [OTHER])
    for name in order:
        if counts[name]:
            print(f"{counts[name] / total * 100:5.1f}%  {name}", file=out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="py-spy raw outputs (bench/load.py --profile)")
    args = parser.parse_args(argv)
    counts: Counter = Counter()
    for name in args.files:
        with open(name) as f:
            counts += tally(f)
    report(counts)


if __name__ == "__main__":
    main()
