from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReviewsConfig(AppConfig):
    name = "mahjong.reviews"
    label = "reviews"
    verbose_name = _("Hand reviews")

    def ready(self):
        from . import (
            receivers,  # noqa: F401  (connects its receivers: a recorded hand is reviewed)
            tasks,  # noqa: F401  (registered)
        )
