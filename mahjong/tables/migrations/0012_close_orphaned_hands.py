from django.db import migrations


def close_orphaned_hands(apps, schema_editor):
    """Hands left in play at closed tables (issue 30: a Leave racing the next hand, before
    every transition locked the table row) are called off as the operator's "Close the
    table" does: drawn, nobody pays, a stage stake comes back, logged as "call_off". That
    settlement is the services' (tables.services.close_orphaned_hands), not a copy kept
    here; the historical models only look whether there is anything to do, so a database
    without such hands (a fresh one) never runs today's code against an older schema."""
    Hand = apps.get_model("tables", "Hand")
    orphans = Hand.objects.filter(ended_at__isnull=True).exclude(table__status="playing")
    if not orphans.exists():
        return
    from mahjong.tables.services import close_orphaned_hands as call_off

    call_off()


class Migration(migrations.Migration):
    dependencies = [("tables", "0011_wall_contributions")]

    operations = [migrations.RunPython(close_orphaned_hands, migrations.RunPython.noop)]
