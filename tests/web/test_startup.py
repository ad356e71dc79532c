"""A long-running process builds, at start, what the first move would otherwise build
(mahjong.startup): the engine's tables, the URL configuration, the project's templates;
then it freezes its heap for the garbage collector. Each check runs in a fresh process,
whose tables start empty, as a web process or a worker does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mahjong import startup

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, os, sys
import django
django.setup()
from django.template import engines
from django.urls import get_resolver
from mahjong.engine import hand_readings
from mahjong.engine.fans import combos
if sys.argv[1] == "asgi":
    import mahjong.asgi
elif sys.argv[1] == "worker":
    from celery.signals import worker_init
    from mahjong.celery import app
    worker_init.send(sender=None)
loader = engines["django"].engine.template_loaders[0]
while not hasattr(loader, "get_template_cache"):  # template_partials wraps the cached one
    loader = loader.loaders[0]
print(json.dumps({
    "completing": len(hand_readings._NUMBER_COMPLETING),
    "pungs": len(combos._PUNGS),
    "frozen": gc.get_freeze_count(),
    "thresholds": gc.get_threshold(),
    "urls": get_resolver()._populated,
    "templates": sorted(k.split(":")[0] for k in loader.get_template_cache),
}))
"""


def probe(kind: str) -> dict:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mahjong.settings"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, kind],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_process_that_only_sets_django_up_builds_nothing():
    cold = probe("none")
    assert cold["completing"] == 0 and cold["pungs"] == 0 and cold["frozen"] == 0
    assert cold["templates"] == [] and cold["thresholds"] != list(startup.GC_THRESHOLDS)


@pytest.mark.parametrize("kind", ["asgi", "worker"])
def test_web_and_worker_processes_warm_up_before_serving(kind):
    warm = probe(kind)
    assert warm["completing"] > 10_000 and warm["pungs"] > 10_000
    assert warm["urls"]
    assert "tables/table.html" in warm["templates"] and "lobby/home.html" in warm["templates"]
    assert warm["frozen"] > 50_000  # the heap as it stood, out of the collector's passes
    assert warm["thresholds"] == list(startup.GC_THRESHOLDS)
