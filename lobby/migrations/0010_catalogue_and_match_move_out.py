"""Rulesets, room tiers and leaderboards now belong to the catalogue, the match to the
tables (catalogue 0001, tables 0013). The lobby forgets them in its migration state
only: their database tables stay, with their rows."""

import django.db.models.deletion
from django.db import migrations, models

MOVED = {
    "ruleset": "catalogue",
    "roomtier": "catalogue",
    "leaderboard": "catalogue",
    "match": "tables",
}


def _relabel(apps, source: str | None, target: str | None) -> None:
    """The content types follow the models, so the operators' permissions and the admin's
    history keep pointing at the same rows. A type already made for the new label (a
    `migrate` of one app in between) holds only the permissions Django makes by itself:
    it gives way to the old one."""
    content_types = apps.get_model("contenttypes", "ContentType")
    for model, app in MOVED.items():
        old, new = (source or app), (target or app)
        if content_types.objects.filter(app_label=old, model=model).exists():
            content_types.objects.filter(app_label=new, model=model).delete()
            content_types.objects.filter(app_label=old, model=model).update(app_label=new)


def forwards(apps, schema_editor):
    _relabel(apps, "lobby", None)


def backwards(apps, schema_editor):
    _relabel(apps, None, "lobby")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("catalogue", "0001_initial"),
        ("lobby", "0009_tier_beans_per_point_bounded"),
        ("ratings", "0004_catalogue_owns_rooms"),
        ("tables", "0013_match_moves_to_tables"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="match",
                    name="player_one",
                ),
                migrations.RemoveField(
                    model_name="match",
                    name="player_two",
                ),
                migrations.RemoveField(
                    model_name="match",
                    name="ruleset",
                ),
                migrations.RemoveField(
                    model_name="match",
                    name="tier",
                ),
                migrations.AlterField(
                    model_name="queueticket",
                    name="match",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="tickets",
                        to="tables.match",
                        verbose_name="match",
                    ),
                ),
                migrations.AlterField(
                    model_name="privateroom",
                    name="match",
                    field=models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="private_room",
                        to="tables.match",
                        verbose_name="match",
                    ),
                ),
                migrations.RemoveField(
                    model_name="roomtier",
                    name="ruleset",
                ),
                migrations.AlterField(
                    model_name="queueticket",
                    name="tier",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tickets",
                        to="catalogue.roomtier",
                        verbose_name="room tier",
                    ),
                ),
                migrations.AlterField(
                    model_name="queueticket",
                    name="ruleset",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="catalogue.ruleset",
                        verbose_name="ruleset",
                    ),
                ),
                migrations.AlterField(
                    model_name="privateroom",
                    name="ruleset",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="catalogue.ruleset",
                        verbose_name="ruleset",
                    ),
                ),
                migrations.DeleteModel(
                    name="Leaderboard",
                ),
                migrations.DeleteModel(
                    name="Match",
                ),
                migrations.DeleteModel(
                    name="RoomTier",
                ),
                migrations.DeleteModel(
                    name="Ruleset",
                ),
            ],
        ),
        migrations.RunPython(forwards, backwards),
    ]
