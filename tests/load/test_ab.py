"""bench/ab.py's arithmetic: which pairs favour the change, and by how much (the runs
themselves are bench/load.py's, smoke-tested in test_load_smoke)."""

from __future__ import annotations

from tests.load.bench_modules import bench_module


def bench_ab():
    return bench_module("ab")


def line(moves: float, p99: float, cpu: float, relay_cpu: float = 0.7) -> dict:
    return {
        "tables": 200,
        "relay": {"server_cpu_ms_per_message": {"all": relay_cpu}},
        "game": {
            "table_moves_per_s": moves,
            "p50_ms": 10.0,
            "p95_ms": 50.0,
            "p99_ms": p99,
            "server_cpu_ms_per_move": {"all": cpu, "web": cpu / 2},
            "queries_web_per_move": 5.8,
        },
    }


def by_figure(rows: list[dict]) -> dict[str, dict]:
    return {row["figure"]: row for row in rows}


def test_pairs_count_for_the_change_when_it_is_better_in_the_figures_direction():
    ab = bench_ab()
    pairs = [
        (line(100, 120, 12.0), line(104, 100, 11.0)),  # better on all three
        (line(100, 110, 11.0), line(99, 130, 11.5)),  # worse on all three
        (line(100, 140, 12.5), line(101, 120, 12.0)),  # better again
    ]
    rows = by_figure(ab.compare(pairs))
    assert rows["table moves/s"]["favour_change"] == "2/3"  # higher is better
    assert rows["click to screens p99 ms"]["favour_change"] == "2/3"  # lower is better
    assert rows["click to screens p99 ms"]["median_difference"] == -20.0
    assert rows["CPU per move, all ms"]["median_difference"] == -0.5
    assert rows["CPU per move, all ms"]["base"] == [12.0, 11.0, 12.5]
    assert rows["relay CPU per message ms"]["favour_change"] == "0/3"  # the same: no side


def test_a_figure_missing_from_an_older_load_py_is_left_out_of_its_pairs():
    ab = bench_ab()
    old = line(100, 120, 12.0)
    del old["game"]["queries_web_per_move"]
    rows = by_figure(ab.compare([(old, line(100, 120, 12.0))]))
    assert rows["SQL queries per move, web"]["favour_change"] == "0/0"
    assert rows["SQL queries per move, web"]["median_difference"] is None


def test_the_options_after_the_double_dash_go_to_load_py():
    ab = bench_ab()
    args, load_args = ab.arguments(
        ["--base", "abc123", "--pairs", "2", "--", "--tables", "200", "--think", "1", "3"]
    )
    assert (args.base, args.change, args.pairs) == ("abc123", "HEAD", 2)
    assert load_args == ["--tables", "200", "--think", "1", "3"]
    assert ab.load_lines('noise\n{"tables": 10}\n') == [{"tables": 10}]
