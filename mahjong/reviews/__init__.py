"""The engine's review of each finished hand (issue 35), stored once per (hand, seat) by a
Celery task after the hand's end commits, and what the history, the replay and the
profile show of it."""
