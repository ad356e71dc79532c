"""A rated hand's room and ruleset are the catalogue's now (catalogue 0001): the same
database tables, so this changes the migration state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0001_initial"),
        ("ratings", "0003_rating_change_names"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="handresult",
                    name="ruleset",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="catalogue.ruleset",
                    ),
                ),
                migrations.AlterField(
                    model_name="handresult",
                    name="tier",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="catalogue.roomtier",
                    ),
                ),
            ],
        ),
    ]
