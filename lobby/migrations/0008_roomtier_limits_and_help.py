import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("lobby", "0007_roomtier_bot_fill_on_by_default"),
    ]

    operations = [
        migrations.AlterField(
            model_name="roomtier",
            name="entry_max",
            field=models.PositiveBigIntegerField(
                validators=[
                    django.core.validators.MaxValueValidator(
                        1000000000000, message="A room's entry is at most 1,000,000,000,000 beans."
                    )
                ],
                verbose_name="entry maximum (beans)",
            ),
        ),
        migrations.AlterField(
            model_name="roomtier",
            name="entry_min",
            field=models.PositiveBigIntegerField(
                help_text="Also the daily relief's line: players below the cheapest open room's minimum may claim it.",
                validators=[
                    django.core.validators.MaxValueValidator(
                        1000000000000, message="A room's entry is at most 1,000,000,000,000 beans."
                    )
                ],
                verbose_name="entry minimum (beans)",
            ),
        ),
        migrations.AlterField(
            model_name="roomtier",
            name="slug",
            field=models.SlugField(
                help_text="The room's name in addresses and data: lower-case letters, digits and hyphens, e.g. novice. Keep it once players have played there.",
                unique=True,
                verbose_name="slug",
            ),
        ),
        migrations.AlterField(
            model_name="ruleset",
            name="slug",
            field=models.SlugField(
                help_text="The ruleset's name in addresses (/rules/<slug>/) and data: lower-case letters, digits and hyphens. Keep it once tables have played it.",
                unique=True,
                verbose_name="slug",
            ),
        ),
    ]
