"""The biggest hand was kept as its fans' Chinese names joined by "、", cut at 80
characters, and an English page mapped the names back; it is now the fans' keys. A name
no fan table knows (the last one cut short) is dropped; a name two rulesets share maps to
the first table's key, as the English page read it."""

from django.db import migrations, models


def _fans() -> list[tuple[str, str]]:
    """Every fan table's (key, Chinese name), in the tables' order."""
    from mahjong.engine.fans import TABLES

    return [(fan.key, fan.zh) for table in TABLES.values() for fan in table.fans]


def _keys_by_name() -> dict[str, str]:
    keys: dict[str, str] = {}
    for key, name in _fans():
        keys.setdefault(name, key)
    return keys


def _names_by_key() -> dict[str, str]:
    names: dict[str, str] = {}
    for key, name in _fans():
        names.setdefault(key, name)
    return names


def names_to_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    keys = _keys_by_name()
    for user in User.objects.exclude(best_hand="").only("pk", "best_hand").iterator():
        fans = [keys[name] for name in user.best_hand.split("、") if name in keys]
        User.objects.filter(pk=user.pk).update(best_fans=list(dict.fromkeys(fans)))


def keys_to_names(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    names = _names_by_key()
    for user in User.objects.exclude(best_fans=[]).only("pk", "best_fans").iterator():
        text = "、".join(names.get(key, key) for key in user.best_fans)[:80]
        User.objects.filter(pk=user.pk).update(best_hand=text)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_leaderboard_frozen")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="best_fans",
            field=models.JSONField(
                blank=True, default=list, editable=False, verbose_name="biggest hand's fans"
            ),
        ),
        migrations.RunPython(names_to_keys, keys_to_names),
        migrations.RemoveField(model_name="user", name="best_hand"),
    ]
