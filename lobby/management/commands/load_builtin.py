from django.core.management.base import BaseCommand
from django.db import transaction

from accounts import builtin as accounts_builtin
from lobby import builtin as lobby_builtin


class Command(BaseCommand):
    help = (
        "Load the built-in rulesets, room tiers, rank levels, leaderboards and bot "
        "accounts. Safe to run repeatedly: existing rows (and admin edits) are kept."
    )

    def handle(self, *args, **options):
        with transaction.atomic():
            created = {**lobby_builtin.load(), **accounts_builtin.load()}
        summary = ", ".join(f"{n} new {what}" for what, n in created.items())
        self.stdout.write(self.style.SUCCESS(f"Built-in data loaded ({summary})."))
