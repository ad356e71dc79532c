"""Click to screen in chromium, with the table's motion on and off: how long from a
discard's click until the page shows the push's view (the status line's version moved),
and until the frame after it is painted, over many discards against the random bot.

    make run                                  # in another terminal: the site to measure
    .venv/bin/python bench/click_latency.py [--site http://127.0.0.1:8000] [--discards 30]

Motion (static/tables/motion.js) starts only after a push has been swapped in, so the two
columns should agree within the run's spread: the figures go in docs/BENCHMARKS.md
("Click to screen, motion on and off"). A new player is registered through
``manage.py shell`` (run it from the checkout `make run` serves, with its DATABASE_URL);
the Motion switch is flipped through the page, as a player would.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "tile-river-5m-7z"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
REGISTER = (
    "from accounts import services; "
    "services.register(username={name!r}, password={password!r}, nickname={name!r})"
)

# Click the drawn tile (else the last one) and time the push's arrival and its paint.
TIMED_DISCARD = """() => new Promise(resolve => {
  const status = document.getElementById('mj-status');
  const before = status.dataset.version;
  const tile = document.querySelector('#mj-hand button[data-drawn]')
    || [...document.querySelectorAll("#mj-hand button[data-action^='discard ']")].pop();
  if (!tile) { resolve(null); return; }
  const start = performance.now();
  const seen = new MutationObserver(() => {
    const now = document.getElementById('mj-status');
    if (!now || now.dataset.version === before) return;
    seen.disconnect();
    const shown = performance.now() - start;
    requestAnimationFrame(() => setTimeout(() => resolve([shown, performance.now() - start]), 0));
  });
  seen.observe(document.querySelector('.mj-table'),
               {subtree: true, childList: true, attributes: true});
  tile.click();
})"""
MY_DISCARD = (
    "!!document.querySelector('#mj-hand .mj-own .tile-button')"
    " && !document.querySelector('#mj-prompt [data-action]')"
)


def register(name: str) -> None:
    code = REGISTER.format(name=name, password=PASSWORD)
    command = [sys.executable, "manage.py", "shell", "-c", code]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)


def log_in(page, site: str, name: str) -> None:
    page.goto(f"{site}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button.primary")
    page.wait_for_url(f"{site}/")


def new_table(page) -> None:
    page.select_option("[data-testid=bot-level]", "random")
    page.click("[data-testid=play-bot]")
    page.wait_for_selector(".mj-table[data-socket=open]", state="attached")


def next_discard(page) -> None:
    """Until this player has a plain discard to make: a claim is passed, an ended hand
    followed by the next."""
    for _ in range(50):
        page.wait_for_function(
            MY_DISCARD + " || !!document.querySelector('#mj-prompt [data-action]')"
            " || !!document.querySelector('[data-outcome]')",
            timeout=60_000,
        )
        if page.query_selector("[data-testid=next-hand]"):
            page.click("[data-testid=next-hand]")
            page.wait_for_function("!document.querySelector('[data-outcome]')", timeout=60_000)
        elif page.query_selector("#mj-prompt [data-action]"):
            choice = page.query_selector(
                '#mj-prompt [data-action="pass"], #mj-prompt [data-action="guo"], '
                '#mj-prompt [data-action^="hu"]'
            )
            if choice:
                choice.click()
            time.sleep(0.3)
        elif page.evaluate(MY_DISCARD):
            return
    raise RuntimeError("no discard came")


def measure(page, discards: int) -> list[tuple[float, float]]:
    timings = []
    while len(timings) < discards:
        next_discard(page)
        try:
            timing = page.evaluate(TIMED_DISCARD)
        except PlaywrightError:
            continue  # a push replaced the tile under the click: take the next one
        if timing:
            timings.append(tuple(timing))
        time.sleep(0.4)  # let the animation end before the next click
    return timings


def summary(timings: list[tuple[float, float]]) -> str:
    def figures(values):
        values = sorted(values)
        p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
        return f"{statistics.median(values):6.1f} / {p95:6.1f}"

    shown, painted = zip(*timings, strict=True)
    return f"shown p50/p95 {figures(shown)} ms   painted p50/p95 {figures(painted)} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="http://127.0.0.1:8000")
    parser.add_argument("--discards", type=int, default=30)
    args = parser.parse_args()
    name = f"lat{int(time.time() * 1000) % 10**7:07d}"
    register(name)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        # wait_for_function evaluates a string: the table's CSP refuses that without bypass_csp
        context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(20_000)
        log_in(page, args.site, name)
        new_table(page)
        results = {}
        for motion in ("on", "off", "on again"):
            pressed = page.get_attribute('.mj-tools [data-pref="motion_on"]', "aria-pressed")
            if (pressed == "true") != motion.startswith("on"):
                page.click('.mj-tools [data-pref="motion_on"]')
            results[motion] = measure(page, args.discards)
            print(f"motion {motion:8}: {summary(results[motion])}", flush=True)
        browser.close()


if __name__ == "__main__":
    main()
