"""Live tables (issue 5): two players, or a player and a bot, play hands in the browser.

- ``services``: the one write path (lock the table row, read its latest hand, check the
  version, engine.apply, save version + 1, append events, schedule the timer on commit,
  notify after commit).
- ``consumers``: the table's WebSocket (/ws/tables/<public id>/): snapshot on connect,
  the viewer's fragments as out-of-band swaps on every "hand changed" hint.
- ``tasks``: ``advance(hand_id, version)`` is every decision's timer (a bot's move, a
  player's timeout, auto-play): one pending per hand, which re-arms itself when it finds
  the hand moved on (services.timer_fired); ``escape_check`` after a disconnect;
  ``sweep`` resolves decisions whose timer was lost. Each worker runs the sweeper in a
  loop every 5 s; ``celery beat`` can run it too (CELERY_BEAT_SCHEDULE). Without a worker
  (CELERY_TASK_ALWAYS_EAGER) no timer is scheduled at all.
- ``presenters`` + templates/tables/table.html: one template, named partials, rendered
  per viewer from ``engine.views.view`` only.
"""
