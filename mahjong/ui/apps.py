from django.apps import AppConfig


class UiConfig(AppConfig):
    name = "mahjong.ui"
    label = "ui"
    verbose_name = "UI"
