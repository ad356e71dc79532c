from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StagesConfig(AppConfig):
    name = "mahjong.stages"
    label = "stages"
    verbose_name = _("Stage mode")

    def ready(self):
        from . import table_hooks  # noqa: F401  (connects its receivers)
