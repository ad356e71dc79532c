"""The catalogue takes over rulesets, room tiers and leaderboard definitions from the
lobby: in the migration state only. Their database tables keep their names (db_table),
so no row moves (lobby 0010 drops them from the lobby's state)."""

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models

import catalogue.models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("lobby", "0009_tier_beans_per_point_bounded"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Ruleset",
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
                            "slug",
                            models.SlugField(
                                help_text="The ruleset's name in addresses (/rules/<slug>/) and data: lower-case letters, digits and hyphens. Keep it once tables have played it.",
                                unique=True,
                                verbose_name="slug",
                            ),
                        ),
                        (
                            "engine_slug",
                            models.CharField(max_length=20, verbose_name="engine ruleset"),
                        ),
                        ("name", models.CharField(max_length=40, verbose_name="name (Chinese)")),
                        (
                            "name_en",
                            models.CharField(
                                blank=True, max_length=60, verbose_name="name (English)"
                            ),
                        ),
                        (
                            "overrides",
                            models.JSONField(
                                blank=True,
                                default=dict,
                                help_text='Values that differ from the engine ruleset, as JSON, e.g. {"cap": 10, "timers": {"decision": 20}, "fan_values": {"qing_yi_se": 6}}. Leave {} for the rules as written.',
                                verbose_name="overrides",
                            ),
                        ),
                        ("is_active", models.BooleanField(default=True, verbose_name="active")),
                        (
                            "ordering",
                            models.PositiveSmallIntegerField(default=0, verbose_name="order"),
                        ),
                    ],
                    options={
                        "verbose_name": "ruleset",
                        "verbose_name_plural": "rulesets",
                        "db_table": "lobby_ruleset",
                        "ordering": ["ordering", "slug"],
                    },
                    bases=(catalogue.models.BilingualName, models.Model),
                ),
                migrations.CreateModel(
                    name="RoomTier",
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
                            "slug",
                            models.SlugField(
                                help_text="The room's name in addresses and data: lower-case letters, digits and hyphens, e.g. novice. Keep it once players have played there.",
                                unique=True,
                                verbose_name="slug",
                            ),
                        ),
                        ("name", models.CharField(max_length=20, verbose_name="name (Chinese)")),
                        (
                            "name_en",
                            models.CharField(
                                blank=True, max_length=40, verbose_name="name (English)"
                            ),
                        ),
                        (
                            "beans_per_point",
                            models.PositiveIntegerField(
                                validators=[
                                    django.core.validators.MaxValueValidator(
                                        1000000, message="A point is worth at most 1,000,000 beans."
                                    )
                                ],
                                verbose_name="beans per point",
                            ),
                        ),
                        (
                            "entry_min",
                            models.PositiveBigIntegerField(
                                help_text="Also the daily relief's line: players below the cheapest open room's minimum may claim it.",
                                validators=[
                                    django.core.validators.MaxValueValidator(
                                        1000000000000,
                                        message="A room's entry is at most 1,000,000,000,000 beans.",
                                    )
                                ],
                                verbose_name="entry minimum (beans)",
                            ),
                        ),
                        (
                            "entry_max",
                            models.PositiveBigIntegerField(
                                validators=[
                                    django.core.validators.MaxValueValidator(
                                        1000000000000,
                                        message="A room's entry is at most 1,000,000,000,000 beans.",
                                    )
                                ],
                                verbose_name="entry maximum (beans)",
                            ),
                        ),
                        ("is_active", models.BooleanField(default=True, verbose_name="open")),
                        (
                            "ordering",
                            models.PositiveSmallIntegerField(default=0, verbose_name="order"),
                        ),
                        (
                            "bot_fill_seconds",
                            models.PositiveIntegerField(
                                blank=True,
                                default=20,
                                help_text="A player waiting this many seconds in quick match gets a bot opponent. Empty or 0: never.",
                                null=True,
                                verbose_name="bot after (s)",
                            ),
                        ),
                        (
                            "bot_fill_level",
                            models.CharField(
                                blank=True,
                                default="efficient",
                                help_text="The strength of the bot that fills the seat.",
                                max_length=20,
                                verbose_name="bot level",
                            ),
                        ),
                        (
                            "waits_hint",
                            models.BooleanField(
                                default=False,
                                help_text="Show players which discards keep the hand ready and what it waits on.",
                                verbose_name="waits hint",
                            ),
                        ),
                        (
                            "ruleset",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="tiers",
                                to="catalogue.ruleset",
                                verbose_name="ruleset",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "room tier",
                        "verbose_name_plural": "room tiers",
                        "db_table": "lobby_roomtier",
                        "ordering": ["ordering", "entry_min"],
                    },
                    bases=(catalogue.models.BilingualName, models.Model),
                ),
                migrations.CreateModel(
                    name="Leaderboard",
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
                        ("name", models.CharField(max_length=40, verbose_name="name (Chinese)")),
                        (
                            "name_en",
                            models.CharField(
                                blank=True, max_length=60, verbose_name="name (English)"
                            ),
                        ),
                        (
                            "metric",
                            models.CharField(
                                choices=[
                                    ("beans", "Beans held"),
                                    ("rank_score", "Rank score"),
                                    ("rating", "Rating (Glicko-2)"),
                                    ("games_won", "Games won"),
                                    ("net_beans", "Beans won at tables"),
                                    ("best_fan", "Biggest hand (fan)"),
                                    ("win_rate", "Win rate"),
                                    ("stage", "Highest stage (stage mode)"),
                                ],
                                max_length=12,
                                verbose_name="metric",
                            ),
                        ),
                        (
                            "period",
                            models.CharField(
                                choices=[
                                    ("all", "All time"),
                                    ("day", "Today"),
                                    ("week", "This week"),
                                    ("month", "This month"),
                                ],
                                default="all",
                                max_length=8,
                                verbose_name="period",
                            ),
                        ),
                        (
                            "min_games",
                            models.PositiveIntegerField(
                                default=0,
                                help_text="Win rate and rating only: players with fewer ranked games are not listed (win rate needs at least 1).",
                                verbose_name="minimum games",
                            ),
                        ),
                        (
                            "size",
                            models.PositiveSmallIntegerField(default=10, verbose_name="rows shown"),
                        ),
                        ("visible", models.BooleanField(default=True, verbose_name="visible")),
                        (
                            "ordering",
                            models.PositiveSmallIntegerField(default=0, verbose_name="order"),
                        ),
                        (
                            "tier",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="catalogue.roomtier",
                                verbose_name="only this room tier",
                            ),
                        ),
                        (
                            "ruleset",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="catalogue.ruleset",
                                verbose_name="only this ruleset",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "leaderboard",
                        "verbose_name_plural": "leaderboards",
                        "db_table": "lobby_leaderboard",
                        "ordering": ["ordering", "id"],
                    },
                    bases=(catalogue.models.BilingualName, models.Model),
                ),
                migrations.AddConstraint(
                    model_name="roomtier",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("entry_min__lte", models.F("entry_max"))),
                        name="tier_entry_min_le_max",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="roomtier",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("beans_per_point__gt", 0)),
                        name="tier_beans_per_point_pos",
                    ),
                ),
            ],
        ),
    ]
