"""Celery tasks: they carry ids (and the hand version), re-read the rows and do nothing
when the hand has moved on, so duplicates and late deliveries are harmless.

The sweeper runs from celery beat (CELERY_BEAT_SCHEDULE) and, so that a plain worker
(`make run`) needs no beat process, from a small loop each worker starts when ready.
"""

from __future__ import annotations

import logging
import threading

from celery import shared_task
from celery.signals import worker_ready, worker_shutdown

log = logging.getLogger(__name__)

SWEEP_EVERY = 5.0  # seconds
SWEEP_LOOP = True  # tests that run a worker in-process turn the loop off


@shared_task(ignore_result=True)
def advance(hand_id: int, version: int) -> bool:
    """A hand's timer (services.timer_fired); True when it moved the table."""
    from . import services

    return services.timer_fired(hand_id, version)


@shared_task(ignore_result=True)
def escape_check(seat_id: int) -> bool:
    from . import services

    return services.check_escape(seat_id)


@shared_task(ignore_result=True)
def announce_absence(seat_id: int) -> bool:
    from . import services

    return services.announce_absence(seat_id)


@shared_task(ignore_result=True)
def sweep() -> int:
    from . import services

    return services.sweep()


_stop = threading.Event()


def _sweep_loop() -> None:
    from django.db import close_old_connections

    from . import services

    while not _stop.wait(SWEEP_EVERY):
        try:
            close_old_connections()
            services.sweep()
        except Exception:
            log.exception("table sweeper failed")
        finally:
            close_old_connections()


@worker_ready.connect
def start_sweeper(sender=None, **kwargs) -> None:
    if not SWEEP_LOOP:
        return
    _stop.clear()
    threading.Thread(target=_sweep_loop, name="table-sweeper", daemon=True).start()


@worker_shutdown.connect
def stop_sweeper(sender=None, **kwargs) -> None:
    _stop.set()
