"""The review of a finished hand, queued when its end commits (receivers)."""

from celery import shared_task


@shared_task(ignore_result=True)
def review_hand(hand_id: int) -> int:
    """Idempotent: a hand already reviewed, or not ended, writes nothing."""
    from . import services

    return services.review(hand_id)
