from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tables", "0010_claim_pause")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="contribution",
            field=models.CharField(
                blank=True, max_length=64, verbose_name="contribution to the next wall"
            ),
        ),
        migrations.AddField(
            model_name="hand",
            name="next_seed",
            field=models.CharField(blank=True, max_length=128, verbose_name="next hand's seed"),
        ),
        migrations.AddField(
            model_name="hand",
            name="next_commitment",
            field=models.CharField(
                blank=True, max_length=64, verbose_name="next hand's commitment"
            ),
        ),
    ]
