"""The engine imports nothing from Django nor from the web half of the project
(ARCHITECTURE.md): every module of mahjong.engine, imported in a fresh interpreter, brings
in none of them, so the rules stay a plain library (the CLI, the bench, the arena)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# what the engine must never pull in: Django, the services around it, the web apps
FOREIGN = ("django", "channels", "celery", "redis", "psycopg", "accounts", "catalogue", "lobby")

PROBE = """
import importlib, json, pkgutil, sys
import mahjong.engine as engine
names = [m.name for m in pkgutil.walk_packages(engine.__path__, "mahjong.engine.")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"modules": names, "loaded": sorted(sys.modules)}))
"""


def test_no_engine_module_brings_in_django_or_the_web_apps():
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    probe = json.loads(out.stdout)
    assert len(probe["modules"]) > 40  # every module was walked, not only the package
    loaded = probe["loaded"]
    foreign = [m for m in loaded if m.split(".")[0] in FOREIGN]
    web = [m for m in loaded if m.startswith("mahjong.") and not m.startswith("mahjong.engine")]
    assert foreign == [] and web == [], (foreign, web)
