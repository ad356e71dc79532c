from django.core.management.base import BaseCommand

from mahjong.reviews import services


class Command(BaseCommand):
    help = (
        "Review the finished hands that have no review yet (hands that ended before the "
        "reviews existed, or whose task was lost), newest first, here in this process. "
        "Safe to run repeatedly: a reviewed seat is never reviewed again."
    )

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=1000, help="at most this many hands")

    def handle(self, *args, limit, **options):
        hands = services.unreviewed(limit)
        stored = sum(services.review(hand_id) for hand_id in hands)
        self.stdout.write(f"{len(hands)} hands looked at, {stored} reviews stored.")
