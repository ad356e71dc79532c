from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project's own wiring, installed last: what every Django process needs once the
    apps are loaded, and that belongs to no one app."""

    name = "mahjong"
    label = "site"
    verbose_name = "二人麻将 Online"

    def ready(self):
        # Every Django process (daphne, manage.py, tests) must send tasks through the
        # configured Celery app; otherwise @shared_task falls back to Celery's default
        # app and its amqp://localhost broker. Not in mahjong/__init__.py: importing the
        # pure engine must not import Celery.
        from . import celery  # noqa: F401
