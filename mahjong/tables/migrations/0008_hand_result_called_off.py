from django.db import migrations


def mark_called_off(apps, schema_editor):
    """Hands the operator called off before their result said so (services._finish): the
    engine's "called_off" event in their log tells them from a drawn hand."""
    Hand = apps.get_model("tables", "Hand")
    for hand in Hand.objects.filter(events__kind="called_off").distinct().iterator():
        Hand.objects.filter(pk=hand.pk).update(result={**(hand.result or {}), "called_off": True})


class Migration(migrations.Migration):
    dependencies = [("tables", "0007_watcher")]

    operations = [migrations.RunPython(mark_called_off, migrations.RunPython.noop)]
