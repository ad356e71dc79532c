from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = _("Lobby and rooms")

    def ready(self):
        from . import (
            matchmaking,  # noqa: F401  (connects its receiver: a ban leaves the queue)
            table_hooks,  # noqa: F401  (connects its part in the tables' write path)
            tasks,  # noqa: F401  (registered: matchmaking sends them by name)
        )
