"""bench/load.py works end to end: a few seconds against a stack of its own (two daphne
processes, two Celery workers, the relay; PostgreSQL database ``mahjong_bench_smoke``,
Redis database 13), two tables of scripted humans. Checks that the driver signs in,
pairs, plays and measures, not how fast (benchmarks print figures, tests assert none).
Skipped when PostgreSQL or Redis is not reachable (a fresh machine's `make test`)."""

from __future__ import annotations

import asyncio
import socket
import sys

import psycopg
import pytest

from tests.load.bench_modules import bench_module


def reachable(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


pytestmark = [
    pytest.mark.smoke,
    pytest.mark.timeout(600),
    pytest.mark.skipif(
        not (reachable(5432) and reachable(6379)),
        reason="needs the PostgreSQL and Redis servers on 127.0.0.1",
    ),
]


def test_the_load_driver_plays_two_tables_and_reports(tmp_path):
    load = bench_module("load")  # the name ``load`` is this test package's

    args = load.arguments(
        [
            "--seconds",
            "8",
            "--warmup",
            "3",
            "--relay-seconds",
            "2",
            "--think",
            "0.2",
            "0.5",
            "--bots",
            "0",
            "--durable-relay",
            "--profile",
            str(tmp_path),
        ]
    )
    out = asyncio.run(load.one_count(args, 2, db_name="mahjong_bench_smoke", redis_db=13))
    relay, game = out["relay"], out["game"]
    assert relay["messages_per_s"] > 0 and relay["p50_ms"] is not None
    assert game["open_tables"] == 2 and game["players_seated"] == 4
    assert game["human_actions_per_s"] > 0 and game["screens_updated"] > 0
    assert game["p99_ms"] is not None and game["queries_per_move"] > 0
    # CPU by role, the database and Redis servers included (their processes found in /proc)
    assert game["server_cpu_ms_per_move"]["web"] > 0 and game["server_cpu_ms_per_move"]["redis"] > 0
    assert game["server_cpu_ms_per_move"]["postgres"] > 0
    assert relay["server_cpu_ms_per_message"]["relay"] > 0
    # the durable floor wrote every message it counted (each seen by both ends) to
    # PostgreSQL, in the run's database, which stays until the next run
    durable = out["durable_relay"]
    assert durable["messages"] > 0 and durable["server_cpu_ms_per_message"]["postgres"] > 0
    with psycopg.connect(f"{sys.modules['stack'].PG}/mahjong_bench_smoke") as conn:
        written = conn.execute("SELECT sum(version) FROM bench_durable_relay").fetchone()[0]
    assert written >= durable["messages"]
    hard = {k: n for k, n in game["errors"].items() if not k.startswith("ws opening retried")}
    assert hard == {} and game["screens_missed"] == 0
    # --profile: py-spy attached to both web processes and both workers for the whole window
    # (it writes its file when it detaches), stacks the summary reads. Only the web processes
    # must have samples: py-spy samples the thread holding the GIL, and with no bot tables
    # the workers only fire the odd timer, so an idle worker can rightly show none.
    tally = bench_module("profile_summary").tally
    web, workers = (list(tmp_path.glob(f"{role}*-2.txt")) for role in ("web", "worker"))
    assert len(web) == 2 and len(workers) == 2
    assert sum(tally(f.read_text().splitlines()).total() for f in web) > 0
