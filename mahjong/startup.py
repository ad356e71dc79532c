"""What a long-running process (a daphne web process, a Celery worker) does once at
start, before it serves anyone: build what Django and the engine otherwise build on
first use, then set the heap aside from the garbage collector.

Cold, a process's first table push compiled the templates and imported the URL
configuration (about 0.1 s), its first ready hand built the engine's number-suit tables
(about 0.7 s) and its first win the set-combination fans (about 0.9 s): paid by whoever
moved first, and in a web process by every table waiting on the same interpreter.

Then the garbage collector. A web process makes cyclic garbage on every message
(asgiref's thread-local storage, tasks, tracebacks: about 250 objects a move), and with
Python's default thresholds (700, 10, 10) its young collections ran so often that
objects still in use by a move in flight were promoted, until a full collection walked
the whole heap: at 200 tables, 80-290 ms with everything else in the process waiting,
every 5-25 s, most of the click-to-screen p99. So:

* ``gc.freeze()`` moves everything alive now (settings, code, those tables: about
  100,000 objects) out of the collector's generations: no pass walks them again;
* ``GC_THRESHOLDS`` lets 10,000 objects in before a young collection: the moves in
  flight are mostly done by then, so far less is promoted and a full collection is rare
  (none in a measured minute at 200 tables; docs/BENCHMARKS-diary.md, session 5).
"""

from __future__ import annotations

import gc
import logging
import time
from pathlib import Path

from django.conf import settings
from django.template.loader import get_template
from django.urls import reverse

from mahjong.engine.warm import warm_up as warm_engine

log = logging.getLogger(__name__)

GC_THRESHOLDS = (10_000, 10, 10)  # young objects; young passes per middle; middle per full


def warm_up() -> None:
    started = time.process_time()
    warm_engine()
    reverse("tables:act", args=["0"])  # imports and compiles every URL pattern
    for name in _project_templates():
        get_template(name)  # compiled and kept by the cached loader (DEBUG off)
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    log.info("warmed up in %.2f s of CPU", time.process_time() - started)


def _project_templates() -> list[str]:
    root = Path(settings.BASE_DIR) / "templates"
    return sorted(
        str(path.relative_to(root))
        for path in root.rglob("*.html")
        if path.relative_to(root).parts[0] != "admin"  # operators' pages, extending Django's
    )
