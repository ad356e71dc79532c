from django.db import migrations, models
from django.db.models import Count


def count_events(apps, schema_editor):
    Hand = apps.get_model("tables", "Hand")
    for hand in Hand.objects.annotate(n=Count("events")).filter(n__gt=0).iterator():
        Hand.objects.filter(pk=hand.pk).update(event_count=hand.n)


class Migration(migrations.Migration):
    dependencies = [("tables", "0003_connection")]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="event_count",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(count_events, migrations.RunPython.noop),
    ]
