"""Lighthouse (npm, pinned in the Makefile; Debian's chromium) on the lobby, a table
mid-hand, a replay and the rule book, mobile profile (Lighthouse's default: a mid-range
phone on a throttled 4G link, simulated): the scores of performance, accessibility and
best practices, and the bytes each page's first load transferred.

    make run                                  # in another terminal: the site to measure
    .venv/bin/python bench/lighthouse.py [--site http://127.0.0.1:8000] [--runs 3]

A new player is registered in the site's database (``manage.py shell``, so run it from
the checkout `make run` serves, with the same DATABASE_URL), plays one hand against the
random bot to its end through the services (for the replay), then logs in in chromium;
Lighthouse drives that chromium (``--port``), so it sees the pages as the player does,
cookies, WebSocket and all. Performance is timing: on a busy machine it drops; the
median of ``--runs`` is printed. The figures go in docs/BENCHMARKS.md ("Page quality").
tests/e2e/test_lighthouse.py holds the rule book's accessibility and best practices.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "tests" / "e2e" / "node" / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices")
PASSWORD = "tile-river-5m-7z"

PLAYED_HAND = """
from accounts import services as accounts
from accounts.models import User
from catalogue.models import Ruleset
from mahjong.tables import services
player = accounts.register(username={name!r}, password={password!r}, nickname={name!r})
bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
table = services.open_table(Ruleset.objects.get(slug="classic"), [player, bot], bot_level="random")
for _ in range(1000):
    hand = table.current_hand()
    if hand.ended_at:
        break
    services.advance(hand.pk, hand.version)
print(table.public_id, hand.number)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def played_hand(name: str) -> str:
    """The replay path of a hand the new player ``name`` played to its end."""
    out = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-v",
            "0",
            "-c",
            PLAYED_HAND.format(name=name, password=PASSWORD),
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout.split()
    table, number = out[-2:]
    return f"/history/hands/{table}/{number}/replay/"


def lighthouse(url: str, port: int, out: Path, attempts: int = 3) -> dict:
    """The page's scores. A category scores null when one of its audits failed to run
    (Lighthouse's own error, not the page's; seen on a loaded machine for best practices):
    that run is taken again, up to ``attempts`` runs in all."""
    for _ in range(attempts):
        report = _report(url, port, out)
        errored = _errored(report)
        if not errored:
            break
    else:
        raise RuntimeError(f"Lighthouse could not score {url}: audits that failed {errored}")
    scores = {name: report["categories"][name]["score"] for name in CATEGORIES}
    scores["kB"] = report["audits"]["total-byte-weight"]["numericValue"] / 1000
    return scores


def _report(url: str, port: int, out: Path) -> dict:
    subprocess.run(
        [
            str(LIGHTHOUSE),
            url,
            f"--port={port}",
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            f"--only-categories={','.join(CATEGORIES)}",
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return json.loads(out.read_text())


def _errored(report: dict) -> dict[str, str]:
    """The audits of an unscored category that ended in an error, with its message."""
    errored = {}
    for name in CATEGORIES:
        if report["categories"][name]["score"] is not None:
            continue
        for ref in report["categories"][name]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if audit.get("scoreDisplayMode") == "error" or audit.get("errorMessage"):
                errored[ref["id"]] = audit.get("errorMessage", "")[:200]
        errored.setdefault(name, "no audit says why")
    return errored


def measure(site: str, runs: int) -> dict[str, list[dict]]:
    from playwright.sync_api import sync_playwright

    name = f"lighthouse{int(time.time()) % 10**7}"
    replay = played_hand(name)
    port = free_port()
    found: dict[str, list[dict]] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            Path(tmp) / "profile",
            executable_path="/usr/bin/chromium",
            headless=True,
            args=["--no-sandbox", "--disable-gpu", f"--remote-debugging-port={port}"],
        )
        page = context.new_page()
        page.goto(f"{site}/accounts/login/")
        page.fill("input[name=username]", name)
        page.fill("input[name=password]", PASSWORD)
        page.click("form button.primary")
        page.wait_for_url(f"{site}/")
        page.select_option("[data-testid=bot-level]", "random")
        page.click("[data-testid=play-bot]")
        page.wait_for_url(re.compile(r"/tables/\w+/$"))
        pages = {
            "lobby": f"{site}/",
            "table mid-hand": page.url,
            "replay": site + replay,
            "rule book": f"{site}/rules/",
        }
        page.close()  # Lighthouse opens its own tab in this browser
        for label, url in pages.items():
            found[label] = [lighthouse(url, port, Path(tmp) / "report.json") for _ in range(runs)]
        context.close()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="http://127.0.0.1:8000")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"Lighthouse is missing at {LIGHTHOUSE}: `make node-tools` installs it")
    os.environ.setdefault("CHROME_PATH", shutil.which("chromium") or "/usr/bin/chromium")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    found = measure(args.site, args.runs)
    print(
        f"{'page':16s} {'performance':>11s} {'accessibility':>13s} {'best practices':>14s} "
        f"{'first load kB':>13s}"
    )
    for label, reports in found.items():
        median = {key: statistics.median(r[key] for r in reports) for key in reports[0]}
        print(
            f"{label:16s} {median['performance'] * 100:11.0f} "
            f"{median['accessibility'] * 100:13.0f} {median['best-practices'] * 100:14.0f} "
            f"{median['kB']:13.1f}"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}; median of {args.runs} runs per page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
