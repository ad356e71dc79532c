"""Load driver: many players through the real HTTP and WebSocket interfaces, against
two daphne processes + Redis + PostgreSQL + Celery workers (bench/stack.py), with the
bare relay (bench/relay) measured by the same tool in the same run.

    .venv/bin/python bench/load.py --tables 50 200 --seconds 60 [--think 1 3] [--bots 0.25]
        [--web 2] [--workers 2] [--db-pool 8] [--durable-relay] [--profile DIR]
        [--spectators 100] [--flood 10] [--pg-db NAME --redis-db N]

For each table count: a fresh stack; then

1. relay: as many pairs of WebSockets as tables, each pair ping-ponging through the relay
   consumer, at full speed for ``--relay-seconds``: messages/s and one-way latency;
   with ``--durable-relay``, then the same through the durable relay (each message one
   autocommitted upsert in PostgreSQL before both ends get it): a move's floor;
2. game: players log in through the log-in form (two thirds of the tables are quick-match
   pairs of scripted humans, ``--bots`` of them a human against the random bot), open the
   table page, connect its WebSocket as the page does, and play as a browser would: the
   legal moves are the buttons of the last fragments received (``data-action``; a win if
   offered, else one at random), each sent as the page sends it with its socket open (a
   socket message ``{"action", "version"}``; ``--click http``: the button's ``hx-post``
   to the act URL, the page's fallback) with the version it was rendered from, after a
   think time drawn from ``--think``; at the
   end of a hand "next hand". A player connects to web process (player number mod N).
   Measured over ``--seconds`` after a warm-up: human actions/s, all table moves/s (bots
   and timers included, from the versions the screens see), latency from sending a click
   to each seated screen receiving the fragments of the version it produced (p50, p95,
   p99, both players' screens for a human pair), SQL queries per action (every query of
   the web processes and workers in the window over the moves in it), daphne RSS per open
   table, errors. At the end every player leaves its table.
3. attacks, each measured in a window of ``--seconds`` of its own right after the game's
   window (the same players playing on; "baseline" in the output), so each pair is
   measured back to back on the same stack:
   ``--spectators N``: N more accounts log in, open the first human table's watch page
   and its socket on web process 0, and read every push; the window reports the same
   figures, and ``spectators_cost`` the players' p99 ratio and the server CPU added per
   spectator per move of the watched table. The spectators leave after their window.
   ``--flood S``: one more account opens another human table's watch socket on web
   process 0 and sends tiny frames as fast as a separate process can for S seconds (with
   ``--flood-reconnect``, opening a new socket whenever the server closes one); the frames
   sent, the sockets and how each ended are reported; the window reports the other tables'
   figures, their p99 ratio (``cost``) and the web processes' RSS before the flood and at
   the window's end.

``--profile DIR`` samples the web and worker processes' Python stacks with py-spy (``pip
install py-spy``; only the thread holding the GIL, 100 times a second) over the measured
window, into DIR/web<i>-<tables>.txt and DIR/worker<i>-<tables>.txt;
``bench/profile_summary.py`` sums them by what the time was spent on. Sampling costs the
processes a little CPU: not for runs whose figures count.

Loopback only, bounded in time: the stack's watchdog stops everything after the run's
planned length plus a margin. Prints one JSON line per table count and a table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import re
import resource
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from players import PASSWORD
from players import name as player_name
from stack import Stack

VERSION = re.compile(r'data-version="(\d+)"')
ACTION = re.compile(r'data-action="([^"]+)"')
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
TABLE_URL = re.compile(r"/tables/([A-Za-z0-9]+)/$")
HEARTBEAT = 20  # seconds, as the page (tables.presence.HEARTBEAT)
MISSED_AFTER = 5  # seconds: a click whose update no screen saw this long is "missed"
PY_SPY = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


@dataclass
class Run:
    """What one table count's game phase records."""

    started: float = 0.0  # the measured window
    ended: float = float("inf")
    # (table, version, t0, verb, the clicker's arrivals)
    clicks: list[tuple] = field(default_factory=list)
    screens: dict[str, list[dict]] = field(default_factory=dict)  # table -> arrivals
    errors: dict[str, int] = field(default_factory=dict)
    refused: int = 0  # a click the server answered with a notice (stale, illegal)
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def in_window(self, t: float) -> bool:
        return self.started <= t < self.ended


class Player:
    def __init__(
        self, run: Run, index: int, port: int, think: tuple[float, float], click: str = "socket"
    ):
        self.run, self.index, self.think, self.click = run, index, think, click
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"
        self.http = httpx.AsyncClient(base_url=self.base, timeout=30)
        self.table = ""
        self.arrivals: dict[int, float] = {}
        self.latest = ""  # the last fragments received
        self.changed = asyncio.Event()
        self.socket_open = False
        self.ws = None
        self.pending: tuple | None = None  # the last click sent over the socket

    # ----- HTTP as the browser does it ---------------------------------------------------

    def csrf(self) -> str:
        return self.http.cookies.get("csrftoken", "")

    async def login(self) -> None:
        page = await self.http.get("/accounts/login/")
        token = CSRF_INPUT.search(page.text).group(1)
        r = await self.http.post(
            "/accounts/login/",
            data={
                "username": player_name(self.index),
                "password": PASSWORD,
                "csrfmiddlewaretoken": token,
            },
        )
        if r.status_code != 302:
            raise RuntimeError(f"log-in of {player_name(self.index)}: HTTP {r.status_code}")
        await self.http.get("/")  # the lobby, as after a log-in

    async def post(self, url: str, **data) -> httpx.Response:
        return await self.http.post(
            url,
            data={**data, "csrfmiddlewaretoken": self.csrf()},
            headers={"Referer": self.base + "/"},
        )

    async def follow(self, r: httpx.Response) -> str:
        """From the lobby's answer to the table, as the pages lead: the waiting page
        (polled every second), the match page, the match's table; returns its id."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if r.status_code == 200 and "/queue/" in r.url.path:
                await asyncio.sleep(1)
                r = await self.http.get(r.url.path)
                continue
            if r.status_code != 302:
                raise RuntimeError(f"no table: HTTP {r.status_code} at {r.url.path}")
            location = r.headers["location"]
            found = TABLE_URL.search(location)
            if found:
                return found.group(1)
            if "/matches/" in location and not location.rstrip("/").endswith("/table"):
                location = location.rstrip("/") + "/table/"  # the match page forwards there
            r = await self.http.get(location)
        raise RuntimeError("no table within 60 s")

    async def sit_down(self, bot: bool) -> None:
        if bot:
            r = await self.post("/play-bot/", level="random", ruleset="classic")
        else:
            r = await self.post("/quick/novice/")
        self.table = await self.follow(r)
        page = await self.http.get(f"/tables/{self.table}/")
        if page.status_code != 200:
            raise RuntimeError(f"table page: HTTP {page.status_code}")

    # ----- the table -----------------------------------------------------------------------

    async def play(self, ws) -> None:
        run = self.run
        run.screens.setdefault(self.table, []).append(self.arrivals)
        listener = asyncio.create_task(self.listen(ws))
        pinger = asyncio.create_task(self.ping(ws))
        try:
            while not run.stop.is_set():
                await self.changed.wait()
                self.changed.clear()
                await self.decide()
        finally:
            listener.cancel()
            pinger.cancel()

    async def listen(self, ws) -> None:
        async for message in ws:
            now = time.monotonic()
            if 'class="flash error"' in message and self.pending in self.run.clicks:
                self.run.clicks.remove(self.pending)  # refused: it made no version
                self.run.refused += 1
            found = VERSION.search(message)
            if found:
                self.arrivals.setdefault(int(found.group(1)), now)
                self.latest = message
                self.changed.set()

    async def ping(self, ws) -> None:
        """As the page (static/tables/table.js): the version its fragments show, so that
        the server checks it and re-renders a page left behind."""
        while True:
            await asyncio.sleep(HEARTBEAT)
            shown = VERSION.search(self.latest or "")
            beat = {"ping": 1, "version": int(shown.group(1))} if shown else {"ping": 1}
            await ws.send(json.dumps(beat))

    async def decide(self) -> None:
        fragments = self.latest
        version = int(VERSION.search(fragments).group(1))
        actions = ACTION.findall(fragments)
        if 'data-testid="next-hand"' in fragments:
            await asyncio.sleep(random.uniform(*self.think))
            await self.post(f"/tables/{self.table}/next/")
            return
        if 'data-testid="to-lobby"' in fragments:  # the table closed (match over)
            await self.run.stop.wait()
            return
        if not actions:
            return
        wins = [a for a in actions if a.startswith("hu")]
        action = wins[0] if wins else random.choice(actions)
        await asyncio.sleep(random.uniform(*self.think))
        if self.latest is not fragments or self.run.stop.is_set():
            self.changed.set()  # something newer arrived meanwhile: decide on that
            return
        t0 = time.monotonic()
        if self.click == "socket":
            self.pending = (self.table, version + 1, t0, action.split()[0], self.arrivals)
            self.run.clicks.append(self.pending)
            await self.ws.send(json.dumps({"action": action, "version": version}))
            return
        r = await self.http.post(
            f"/tables/{self.table}/act/",
            data={"action": action, "version": version},
            headers={"HX-Request": "true", "X-CSRFToken": self.csrf()},
        )
        if r.status_code != 200:
            self.run.error(f"act HTTP {r.status_code}")
        elif 'class="flash error"' in r.text:
            self.run.refused += 1
        else:
            self.run.clicks.append((self.table, version + 1, t0, action.split()[0], self.arrivals))

    async def connect(self):
        """The table's WebSocket, as htmx's ws extension opens it: a failed opening is
        retried after a full-jitter pause (1 s * 2^n * random), up to 6 times."""
        headers = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.http.cookies.items()),
            "Origin": self.base,
        }
        url = f"{self.ws_base}/ws/tables/{self.table}/"
        for attempt in range(6):
            try:
                return await websockets.connect(
                    url, additional_headers=headers, max_size=2**22, open_timeout=30
                )
            except (
                websockets.InvalidMessage,
                websockets.InvalidStatus,
                OSError,
                TimeoutError,
            ) as exc:
                self.run.error(f"ws opening retried ({type(exc).__name__})")
                await asyncio.sleep(2**attempt * random.random())
        raise RuntimeError("table WebSocket: no opening after 6 tries")

    async def session(self, bot: bool, ready: asyncio.Event) -> None:
        try:
            await self.login()
            await self.sit_down(bot)
            async with await self.connect() as ws:
                self.socket_open, self.ws = True, ws
                ready.set()
                await self.play(ws)
        except (httpx.HTTPError, websockets.WebSocketException, OSError, RuntimeError) as exc:
            if not self.run.stop.is_set():
                self.run.error(
                    type(exc).__name__ + (f": {exc}" if isinstance(exc, RuntimeError) else "")
                )
        finally:
            ready.set()

    async def leave(self) -> None:
        if self.table:
            try:
                await self.post(f"/tables/{self.table}/leave/")
            except httpx.HTTPError:
                pass
        await self.http.aclose()


# ----- the relay phase ---------------------------------------------------------------------


async def relay(stack: Stack, pairs: int, seconds: float, durable: bool = False) -> dict:
    """The bare relay, or (``durable``) its durable floor of a move: a message written to
    PostgreSQL and seen by both ends, the sender's own screen and the other one."""
    ports = stack.relay_ports
    route = "durable" if durable else "relay"
    latencies: list[float] = []
    count = 0
    stop = time.monotonic() + seconds

    async def pair(i: int) -> None:
        nonlocal count
        a_port, b_port = ports[0], ports[1 % len(ports)]  # the two ends on different processes
        async with (
            websockets.connect(f"ws://127.0.0.1:{a_port}/{route}/{i}/") as a,
            websockets.connect(f"ws://127.0.0.1:{b_port}/{route}/{i}/") as b,
        ):
            await asyncio.sleep(0.2)  # both joined the group
            ends = (a, b)
            turn = 0
            while time.monotonic() < stop:
                sender, receiver = ends[turn], ends[1 - turn]
                t0 = time.monotonic()
                await sender.send(json.dumps({"t": t0, "pad": "x" * 200}))
                screens = (sender, receiver) if durable else (receiver,)
                try:
                    for screen in screens:
                        await asyncio.wait_for(screen.recv(), timeout=5)
                except TimeoutError:
                    continue
                latencies.append(time.monotonic() - t0)
                count += 1
                turn = 1 - turn

    start, cpu0 = time.monotonic(), stack.cpu_seconds()
    await asyncio.gather(*(pair(i) for i in range(pairs)), return_exceptions=True)
    elapsed, cpu1 = time.monotonic() - start, stack.cpu_seconds()
    used = {role: cpu1[role] - cpu0[role] for role in ("relay", "redis", "postgres")}
    return {
        "pairs": pairs,
        "messages": count,
        "messages_per_s": round(count / elapsed, 1),
        **_ms(latencies),
        "server_cpu_ms_per_message": _per(used, count),
        "server_cpu_cores": round(sum(used.values()) / elapsed, 2),
    }


def _per(used: dict[str, float], count: int) -> dict[str, float]:
    """CPU ms per message or move, by process role, and all of them."""
    out = {role: round(seconds / max(1, count) * 1000, 2) for role, seconds in used.items()}
    return out | {"all": round(sum(used.values()) / max(1, count) * 1000, 2)}


def _ms(values: list[float]) -> dict:
    return {
        f"p{q}_ms": round(percentile(values, q) * 1000, 1) if values else None for q in (50, 95, 99)
    }


# ----- the game phase ----------------------------------------------------------------------


async def game(
    stack: Stack,
    tables: int,
    bots: float,
    think,
    warmup: float,
    seconds: float,
    ramp: float,
    click: str = "socket",
    seat_within: float = 180,
    profile: str = "",
    spectators: int = 0,
    flood: float = 0,
    flood_reconnect: bool = False,
) -> dict:
    run = Run()
    bot_tables = round(tables * bots)
    humans = 2 * (tables - bot_tables)
    players = [
        Player(run, i, stack.web_ports[i % len(stack.web_ports)], think, click)
        for i in range(humans + bot_tables)
    ]
    stack.require_running()  # a process that died in the relay phase would skew it all
    rss_before = stack.web_rss_kib()
    readies = [asyncio.Event() for _ in players]
    tasks = []
    for i, (player, ready) in enumerate(zip(players, readies, strict=True)):
        tasks.append(asyncio.create_task(player.session(i >= humans, ready)))
        await asyncio.sleep(ramp)  # a stream of arrivals rather than one burst
    # Everyone seated with an open socket, or given up on, within the bound; a player
    # still without a socket then counts as not seated.
    await asyncio.wait([asyncio.create_task(r.wait()) for r in readies], timeout=seat_within)
    seated = sum(1 for p in players if p.socket_open)
    open_tables = len({p.table for p in players if p.socket_open})
    await asyncio.sleep(warmup)
    q0, cpu0, server0 = stack.queries(), _cpu(), stack.cpu_seconds()
    kinds0 = stack.query_kinds()
    run.started = time.monotonic()
    samplers = await _profile(stack, profile, tables, seconds) if profile else []
    await asyncio.sleep(seconds)
    run.ended = time.monotonic()
    for sampler in samplers:
        await sampler.wait()
    stack.require_running()
    q1, cpu1, server1 = stack.queries(), _cpu(), stack.cpu_seconds()
    server = {
        role: server1[role] - server0[role] for role in ("web", "worker", "postgres", "redis")
    }
    kinds = _per_move_kinds(kinds0, stack.query_kinds(), run)
    rss_during = stack.web_rss_kib()
    out = summarize(
        run,
        tables,
        open_tables,
        (seated, len(players)),
        q0,
        q1,
        rss_before,
        rss_during,
        cpu1 - cpu0,
        server,
        seconds,
    ) | {"queries_by_kind": kinds}
    human_tables = [p.table for p in players[:humans:2] if p.socket_open]
    extra = len(players)  # the attackers' accounts come after the players'
    if spectators:
        out["spectators"] = await spectated(
            stack, run, human_tables[0], extra, spectators, seconds, out
        )
        extra += spectators
    if flood:
        out["flood"] = await flooded(
            stack, run, human_tables[-1], extra, flood, flood_reconnect, seconds, out
        )
    run.stop.set()
    for p in players:
        p.changed.set()
    await asyncio.gather(*(p.leave() for p in players))
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return out


# ----- the attacks -------------------------------------------------------------------------


async def window(stack: Stack, run: Run, seconds: float, exclude=frozenset()) -> dict:
    """One more measured window of the players playing on (the figures of ``summarize``,
    leaving out the tables in ``exclude``), with the web processes' RSS at its start."""
    q0, cpu0, server0, rss0 = stack.queries(), _cpu(), stack.cpu_seconds(), stack.web_rss_kib()
    run.started = time.monotonic()
    await asyncio.sleep(seconds)
    run.ended = time.monotonic()
    stack.require_running()
    q1, cpu1, server1 = stack.queries(), _cpu(), stack.cpu_seconds()
    server = {
        role: server1[role] - server0[role] for role in ("web", "worker", "postgres", "redis")
    }
    return summarize(
        run, 0, 1, (0, 0), q0, q1, rss0, stack.web_rss_kib(), cpu1 - cpu0, server, seconds, exclude
    ) | {"rss_mib_at_start": [round(r / 1024, 1) for r in rss0]}


async def watcher_socket(run: Run, index: int, port: int, table: str):
    """An account's watch page and its socket, as a browser opens them."""
    viewer = Player(run, index, port, (0, 0))
    await viewer.login()
    page = await viewer.http.get(f"/tables/{table}/watch/")
    if page.status_code != 200:
        raise RuntimeError(f"watch page: HTTP {page.status_code}")
    headers = {
        "Cookie": "; ".join(f"{k}={v}" for k, v in viewer.http.cookies.items()),
        "Origin": viewer.base,
    }
    url = f"{viewer.ws_base}/ws/tables/{table}/watch/"
    await viewer.http.aclose()
    return url, headers


async def spectated(
    stack: Stack, run: Run, table: str, first: int, count: int, seconds: float, baseline: dict
) -> dict:
    """``count`` spectators of ``table`` on web process 0 reading every push, over a
    window; then they leave."""
    port = stack.web_ports[0]
    pushes = [0] * count
    sockets = []
    for i in range(count):
        url, headers = await watcher_socket(run, first + i, port, table)
        ws = await websockets.connect(
            url, additional_headers=headers, max_size=2**22, open_timeout=30
        )
        await ws.recv()  # the snapshot
        sockets.append(ws)

    async def read(i: int, ws) -> None:
        async for _message in ws:
            pushes[i] += 1

    readers = [asyncio.create_task(read(i, ws)) for i, ws in enumerate(sockets)]
    out = await window(stack, run, seconds)
    watched = _moves(run, only={table})
    for ws in sockets:
        await ws.close()
    await asyncio.gather(*readers, return_exceptions=True)
    return out | {
        "spectators": len(sockets),
        "watched_table_moves": watched,
        "pushes_per_spectator": round(sum(pushes) / max(1, count), 1),
        "cost": _cost(baseline, out, count * watched),
    }


def _cost(baseline: dict, attacked: dict, spectator_moves: int = 0) -> dict:
    """The attacked window against the baseline: the players' p99 and moves/s ratios, and
    (per spectator per move of the watched table) the web and worker CPU it added."""

    def cpu_ms(figures: dict) -> float:  # web + worker CPU over the window, in ms
        per_move, moves = figures["server_cpu_ms_per_move"], figures["table_moves_per_s"]
        return (per_move["web"] + per_move["worker"]) * moves * figures["seconds"]

    out = {
        "p99_ratio": _ratio(attacked["p99_ms"], baseline["p99_ms"]),
        "p50_ratio": _ratio(attacked["p50_ms"], baseline["p50_ms"]),
        "moves_per_s_ratio": _ratio(attacked["table_moves_per_s"], baseline["table_moves_per_s"]),
    }
    if spectator_moves:
        added = cpu_ms(attacked) - cpu_ms(baseline) * attacked["seconds"] / baseline["seconds"]
        out["web_worker_cpu_ms_per_spectator_move"] = round(added / spectator_moves, 3)
    return out


def _ratio(a, b):
    return round(a / b, 2) if a is not None and b else None


async def flooded(
    stack: Stack,
    run: Run,
    table: str,
    index: int,
    flood: float,
    reconnect: bool,
    seconds: float,
    baseline: dict,
) -> dict:
    """One account flooding a watch socket of ``table`` on web process 0 from a process of
    its own (the driver's loop stays the players'), over a window; the other tables'
    figures, and the web processes' RSS before and after."""
    url, headers = await watcher_socket(run, index, stack.web_ports[0], table)
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    flooder = context.Process(target=flood_socket, args=(url, headers, flood, reconnect, results))
    flooder.start()
    out = await window(stack, run, seconds, exclude={table})
    flooder.join(timeout=flood + 30)
    sent = results.get(timeout=5) if not flooder.exitcode else {"error": flooder.exitcode}
    return out | {
        "flood": sent,
        "cost": _cost(baseline, out),
        "rss_mib_before": out["rss_mib_at_start"],
        "rss_mib_after": out["rss_mib_per_process"],
    }


def flood_socket(url: str, headers: dict, seconds: float, reconnect: bool, results) -> None:
    """The flooding client: tiny frames as fast as it can (``reconnect``: a new socket
    whenever the server closes one); puts what it sent, and how each socket ended (the
    server's close code, "None" for a dropped connection), on ``results``."""

    async def flood() -> dict:
        sent, sockets, codes, lasted = 0, 0, {}, []
        start = time.monotonic()
        stop = start + seconds
        while time.monotonic() < stop and (reconnect or not sockets):
            try:
                async with websockets.connect(url, additional_headers=headers) as ws:
                    sockets += 1
                    while time.monotonic() < stop:
                        await ws.send("x")
                        sent += 1
            except websockets.ConnectionClosed as closed:
                code = str(closed.rcvd.code if closed.rcvd else None)
                codes[code] = codes.get(code, 0) + 1
                lasted.append(round(time.monotonic() - start, 2))
            except (websockets.InvalidStatus, OSError, TimeoutError) as exc:
                codes[type(exc).__name__] = codes.get(type(exc).__name__, 0) + 1
                await asyncio.sleep(0.1)
        return {
            "frames_sent": sent,
            "sockets": sockets,
            "closes": codes,
            "closed_at_s": lasted[:10],
            "frames_per_s": round(sent / seconds),
        }

    results.put(asyncio.run(flood()))


async def _profile(stack: Stack, folder: str, tables: int, seconds: float) -> list:
    """One py-spy per web and worker process over the window (the module's docstring)."""
    Path(folder).mkdir(parents=True, exist_ok=True)
    out = []
    for name, pid in stack.pids("web", "worker"):
        out.append(
            await asyncio.create_subprocess_exec(
                PY_SPY,
                "record",
                "--pid",
                str(pid),
                "--duration",
                str(int(seconds)),
                "--rate",
                "100",
                "--gil",
                "--nonblocking",
                "--format",
                "raw",
                "--output",
                str(Path(folder) / f"{name}-{tables}.txt"),
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
            )
        )
    return out


def _per_move_kinds(before, after, run) -> dict[str, dict[str, float]]:
    """Each role's queries in the window by kind, per table move, the top ten."""
    moves = max(1, _moves(run))
    out = {}
    for role, counts in after.items():
        delta = {k: n - before[role].get(k, 0) for k, n in counts.items()}
        top = sorted(delta.items(), key=lambda kv: -kv[1])[:10]
        out[role] = {k: round(n / moves, 2) for k, n in top if n}
    return out


def _moves(run, exclude=frozenset(), only=None) -> int:
    """Every version a screen saw in the window, once per table (of ``only``, if given)."""
    moves = 0
    for table, screens in run.screens.items():
        if table in exclude or (only is not None and table not in only):
            continue
        versions = set()
        for arrivals in screens:
            versions |= {v for v, t in arrivals.items() if run.in_window(t)}
        moves += len(versions)
    return moves


def summarize(
    run,
    tables,
    open_tables,
    seated,
    q0,
    q1,
    rss_before,
    rss_during,
    cpu,
    server,
    seconds,
    exclude=frozenset(),
):
    clicks = [c for c in run.clicks if run.in_window(c[2]) and c[0] not in exclude]
    latencies, missing = [], 0
    by_kind: dict[str, list[float]] = {}  # the tail's shape: which clicks, which screen
    for table, version, t0, verb, mine in clicks:
        for arrivals in run.screens.get(table, []):
            seen = min((t for v, t in arrivals.items() if v >= version), default=None)
            if seen is None:
                missing += t0 < run.ended - MISSED_AFTER  # no update in MISSED_AFTER s
                continue
            latencies.append(max(0.0, seen - t0))
            screen = "mover" if arrivals is mine else "other"
            for kind in (screen, f"{verb} ({screen})"):
                by_kind.setdefault(kind, []).append(latencies[-1])
    moves = _moves(run, exclude)
    queries = {role: q1[role] - q0[role] for role in q1}
    per_table = [(d - b) / max(1, open_tables) for b, d in zip(rss_before, rss_during)]
    return {
        "tables": tables,
        "open_tables": open_tables,
        "players_seated": seated[0],
        "players": seated[1],
        "human_actions_per_s": round(len(clicks) / seconds, 1),
        "table_moves_per_s": round(moves / seconds, 1),
        "screens_updated": len(latencies),
        "screens_missed": missing,
        **_ms(latencies),
        "latency_by_click": {kind: {"n": len(v), **_ms(v)} for kind, v in sorted(by_kind.items())},
        "queries_per_s": round(sum(queries.values()) / seconds, 1),
        "queries_per_move": round(sum(queries.values()) / max(1, moves), 1),
        "queries_web_per_move": round(queries["web"] / max(1, moves), 1),
        "queries_worker_per_move": round(queries["worker"] / max(1, moves), 1),
        "server_cpu_ms_per_move": _per(server, moves),
        "server_cpu_cores": round(sum(server.values()) / seconds, 2),
        "rss_mib_per_process": [round(r / 1024, 1) for r in rss_during],
        "rss_kib_per_table": round(sum(per_table), 1),
        "refused": run.refused,
        "errors": run.errors,
        "driver_cpu_s": round(cpu, 1),
        "seconds": seconds,
    }


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def one_count(args, tables: int, **stack_options) -> dict:
    players = 2 * tables
    windows = 1 + bool(args.spectators) + bool(args.flood)
    # set-up (migrations, players) + relay + arrivals + seating + windows + leaving
    bound = (
        600
        + (players + args.spectators) * args.ramp
        + args.relay_seconds
        + args.warmup
        + windows * args.seconds
    )
    if args.pg_db:
        stack_options["db_name"] = args.pg_db
    if args.redis_db is not None:
        stack_options["redis_db"] = args.redis_db
    with Stack(
        web=args.web,
        workers=args.workers,
        players=players + args.spectators + 1,
        seconds=bound,
        db_pool=args.db_pool,
        decision=args.decision,
        **stack_options,
    ) as stack:
        await asyncio.sleep(2)  # workers connect to the broker
        out = {"relay": await relay(stack, tables, args.relay_seconds)}
        if args.durable_relay:
            out["durable_relay"] = await relay(stack, tables, args.relay_seconds, durable=True)
        out["game"] = await game(
            stack,
            tables,
            args.bots,
            tuple(args.think),
            args.warmup,
            args.seconds,
            args.ramp,
            args.click,
            profile=args.profile,
            spectators=args.spectators,
            flood=args.flood,
            flood_reconnect=args.flood_reconnect,
        )
        with open("/proc/loadavg") as f:
            out["loadavg"] = f.read().split()[:3]
        out["logs"] = str(stack.logs)
        return out


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50])
    parser.add_argument("--seconds", type=float, default=60, help="measured window")
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--relay-seconds", type=float, default=15)
    parser.add_argument(
        "--durable-relay",
        action="store_true",
        help="also relay each message after one durable write to PostgreSQL, "
        "to both ends: a move's floor",
    )
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=[1.0, 3.0],
        help="a scripted human's pause before each click, uniform (s)",
    )
    parser.add_argument(
        "--ramp", type=float, default=0.1, help="seconds between two players' arrivals"
    )
    parser.add_argument("--bots", type=float, default=0.25, help="share of vs-bot tables")
    parser.add_argument(
        "--click",
        choices=("socket", "http"),
        default="socket",
        help="how a move is sent: over the table's socket as the page does "
        "while it is open, or posted as the page does without one",
    )
    parser.add_argument(
        "--decision",
        type=int,
        default=0,
        help="every ruleset's decision timer in seconds (0: the ruleset's "
        "own, 15 s); set it above the think time, or timers play",
    )
    parser.add_argument("--web", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--db-pool",
        type=int,
        default=8,
        help="PostgreSQL connections per process (0: one per request)",
    )
    parser.add_argument(
        "--profile",
        default="",
        metavar="DIR",
        help="sample the web and worker processes with py-spy over the window, into DIR",
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="then a window with this many spectators on one table",
    )
    parser.add_argument(
        "--flood",
        type=float,
        default=0,
        metavar="SECONDS",
        help="then a window with one socket flooding frames for this long",
    )
    parser.add_argument(
        "--flood-reconnect",
        action="store_true",
        help="the flooder opens a new socket whenever one is closed",
    )
    parser.add_argument(
        "--pg-db",
        default="",
        help="the stack's PostgreSQL database (dropped and made afresh; default mahjong_bench)",
    )
    parser.add_argument(
        "--redis-db",
        type=int,
        default=None,
        help="the stack's Redis database (flushed; default 12)",
    )
    args = parser.parse_args(argv)
    if args.profile and not PY_SPY:
        parser.error("--profile needs py-spy: .venv/bin/pip install py-spy")
    return args


def main() -> None:
    args = arguments()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the stack's __exit__ still runs
    for tables in args.tables:
        result = asyncio.run(one_count(args, tables))
        print(
            json.dumps({"tables": tables, "think": args.think, "click": args.click, **result}),
            flush=True,
        )


if __name__ == "__main__":
    main()
