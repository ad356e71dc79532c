"""The match moves from the lobby to the tables, and a table's room and ruleset are the
catalogue's (catalogue 0001): in the migration state only. lobby_match keeps its name,
its index and its constraint, so no row moves."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

import accounts.codes


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0001_initial"),
        ("tables", "0012_close_orphaned_hands"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="table",
                    name="ruleset",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="catalogue.ruleset",
                        verbose_name="ruleset",
                    ),
                ),
                migrations.AlterField(
                    model_name="table",
                    name="tier",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="catalogue.roomtier",
                        verbose_name="room tier",
                    ),
                ),
                migrations.CreateModel(
                    name="Match",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "public_id",
                            models.CharField(
                                default=accounts.codes.new_public_id,
                                editable=False,
                                max_length=12,
                                unique=True,
                                verbose_name="public id",
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[("quick", "Quick match"), ("private", "Private room")],
                                max_length=8,
                                verbose_name="kind",
                            ),
                        ),
                        (
                            "state",
                            models.CharField(
                                choices=[
                                    ("ready", "Waiting for the table"),
                                    ("playing", "Playing"),
                                    ("finished", "Finished"),
                                    ("abandoned", "Abandoned"),
                                ],
                                default="ready",
                                max_length=10,
                                verbose_name="state",
                            ),
                        ),
                        (
                            "base_points",
                            models.PositiveIntegerField(default=1, verbose_name="base (底分)"),
                        ),
                        (
                            "beans_per_point",
                            models.PositiveIntegerField(default=0, verbose_name="beans per point"),
                        ),
                        ("ranked", models.BooleanField(default=True, verbose_name="ranked")),
                        (
                            "created_at",
                            models.DateTimeField(
                                default=django.utils.timezone.now, verbose_name="created"
                            ),
                        ),
                        (
                            "player_one",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="player one",
                            ),
                        ),
                        (
                            "player_two",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="player two",
                            ),
                        ),
                        (
                            "ruleset",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="matches",
                                to="catalogue.ruleset",
                                verbose_name="ruleset",
                            ),
                        ),
                        (
                            "tier",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="matches",
                                to="catalogue.roomtier",
                                verbose_name="room tier",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "match",
                        "verbose_name_plural": "matches",
                        "db_table": "lobby_match",
                        "ordering": ["-created_at"],
                    },
                ),
                migrations.AlterField(
                    model_name="table",
                    name="match",
                    field=models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="table",
                        to="tables.match",
                        verbose_name="match",
                    ),
                ),
                migrations.AddIndex(
                    model_name="match",
                    index=models.Index(
                        condition=models.Q(("state", "ready")),
                        fields=["created_at"],
                        name="match_ready_created",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="match",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("player_one", models.F("player_two")), _negated=True),
                        name="match_two_different_players",
                    ),
                ),
            ],
        ),
    ]
