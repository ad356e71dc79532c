from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = _("Lobby and rooms")

    def ready(self):
        # Every Django process (daphne, manage.py, tests) must send tasks through the
        # configured Celery app; otherwise @shared_task falls back to Celery's default
        # app and its amqp://localhost broker. Not in mahjong/__init__.py: importing the
        # pure engine must not import Celery.
        import mahjong.celery  # noqa: F401

        from . import matchmaking  # noqa: F401  (connects its receiver: a ban leaves the queue)
