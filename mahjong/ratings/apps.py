from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "mahjong.ratings"
    label = "ratings"
    verbose_name = _("Ratings")

    def ready(self):
        from . import receivers  # noqa: F401  (connects its receivers)
