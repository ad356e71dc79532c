from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulebookConfig(AppConfig):
    name = "mahjong.rulebook"
    label = "rulebook"
    verbose_name = _("Rule book")
