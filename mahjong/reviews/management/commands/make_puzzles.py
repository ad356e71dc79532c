from django.core.management.base import BaseCommand

from mahjong.reviews import services


class Command(BaseCommand):
    help = (
        "Store the puzzles (何切) of the reviewed hands, newest first: hands reviewed before "
        "the puzzles existed. Safe to run repeatedly: a hand's puzzles are stored once."
    )

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=1000, help="at most this many hands")

    def handle(self, *args, limit, **options):
        looked, made = services.backfill_puzzles(limit)
        self.stdout.write(f"{looked} hands looked at, {made} puzzles stored.")
