from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "mahjong.tables"
    label = "tables"
    verbose_name = "Tables"
