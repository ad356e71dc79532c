from django.db import migrations, models

# Rooms made before it had a default: empty was then the only value a room was given
# (the built-in five too), not an operator's "never", which is 0.
FILL_AFTER = 20


def fill_rooms_left_empty(apps, schema_editor):
    apps.get_model("lobby", "RoomTier").objects.filter(bot_fill_seconds__isnull=True).update(
        bot_fill_seconds=FILL_AFTER
    )


class Migration(migrations.Migration):
    dependencies = [
        ("lobby", "0006_public_id_verbose_name"),
    ]

    operations = [
        migrations.AlterField(
            model_name="roomtier",
            name="bot_fill_seconds",
            field=models.PositiveIntegerField(
                blank=True,
                default=20,
                help_text="A player waiting this many seconds in quick match gets a bot opponent. Empty or 0: never.",
                null=True,
                verbose_name="bot after (s)",
            ),
        ),
        migrations.RunPython(fill_rooms_left_empty, migrations.RunPython.noop),
    ]
