"""bench/load.py works end to end: a few seconds against a stack of its own (two daphne
processes, two Celery workers, the relay; PostgreSQL database ``mahjong_bench_smoke``,
Redis database 13), two tables of scripted humans. Checks that the driver signs in,
pairs, plays and measures, not how fast (benchmarks print figures, tests assert none).
Skipped when PostgreSQL or Redis is not reachable (a fresh machine's `make test`)."""

from __future__ import annotations

import asyncio
import importlib.util
import socket
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


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


def bench_load():
    """bench/load.py as a module (the name ``load`` is this test package's)."""
    spec = importlib.util.spec_from_file_location("bench_load", BENCH / "load.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_load_driver_plays_two_tables_and_reports():
    load = bench_load()

    args = load.arguments(
        ["--seconds", "8", "--warmup", "3", "--relay-seconds", "2", "--think", "0.2", "0.5",
         "--bots", "0"]
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
    hard = {k: n for k, n in game["errors"].items() if not k.startswith("ws opening retried")}
    assert hard == {} and game["screens_missed"] == 0
