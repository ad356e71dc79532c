from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "mahjong.tables"
    label = "tables"
    verbose_name = _("Tables")

    def ready(self):
        from . import (
            sessions,  # noqa: F401  (connects its receivers in every process)
            tasks,  # noqa: F401  (registered: the services send them by name)
        )
