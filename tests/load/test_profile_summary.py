"""bench/profile_summary.py: py-spy's raw stacks summed by what the time was spent on."""

from __future__ import annotations

import io

from tests.load.bench_modules import bench_module


def summary():
    return bench_module("profile_summary")


THREAD = "Thread.run (threading.py:1002);_worker (concurrent/futures/thread.py:81)"
RAW = f"""\
{THREAD};act (mahjong/tables/services/moves.py:40);lock (mahjong/tables/services/locking.py:60);\
execute (django/db/backends/utils.py:120) 5
{THREAD};act (mahjong/tables/services/moves.py:40);lock (mahjong/tables/services/locking.py:60);\
QueryCounter.__call__ (stack_settings.py:52);kind_of (stack_settings.py:37) 1
{THREAD};push (mahjong/tables/consumers.py:207);fragments (mahjong/tables/presenters.py:268);\
render_to_string (django/template/loader.py:62);NodeList.render (django/template/base.py:1018) 3
{THREAD};push (mahjong/tables/consumers.py:207);fragments (mahjong/tables/presenters.py:268);\
context_for (mahjong/tables/presenters.py:190);view (mahjong/engine/views.py:12) 2
{THREAD};_restore_context (asgiref/sync.py:50) 4
BaseEventLoop._run_once (asyncio/base_events.py:1922);EpollSelector.select (selectors.py:468) 4
Server.run (daphne/server.py:1);_async_proxy (channels_redis/pubsub.py:20);\
SocketBuffer.readline (redis/_parsers/socket.py:61) 1
mystery (somewhere.py:1) 1
not a line of samples
"""
WORKER = "Thread.run (threading.py:1002);execute (celery/app/trace.py:440)"
WORKER_RAW = f"""\
{WORKER};advance (mahjong/tables/tasks.py:26);timer_fired (mahjong/tables/services/timers.py:330);\
timing (mahjong/tables/compiled.py:50);execute (django/db/backends/utils.py:120) 2
{WORKER};advance (mahjong/tables/tasks.py:26);timer_fired (mahjong/tables/services/timers.py:334);\
_advance (mahjong/tables/services/timers.py:316);decide (mahjong/tables/bot_moves.py:40) 3
{WORKER};advance (mahjong/tables/tasks.py:26);timer_fired (mahjong/tables/services/timers.py:334);\
_advance (mahjong/tables/services/timers.py:318);apply (mahjong/tables/services/moves.py:100) 4
{WORKER};advance (mahjong/tables/tasks.py:26);timer_fired (mahjong/tables/services/timers.py:344);\
save_timer (mahjong/tables/compiled.py:80) 1
Thread.run (threading.py:1002);_sweep_loop (mahjong/tables/tasks.py:55);\
sweep (mahjong/tables/services/timers.py:130) 1
Consumer.start (celery/worker/consumer/consumer.py:1);\
Channel._brpop_read (kombu/transport/redis.py:1) 2
Consumer.start (celery/worker/consumer/consumer.py:1);\
QoS.pipe_or_acquire (kombu/transport/redis.py:1);Redis.__init__ (redis/client.py:1) 3
{WORKER};_own_loop_run (mahjong/tables/broadcast.py:1);PubSub.publish (redis/client.py:1) 1
"""


def test_samples_go_to_the_first_stage_on_their_stack_else_to_their_innermost_library():
    module = summary()
    counts = module.tally(io.StringIO(RAW))
    assert counts == {
        "move: the locked read": 5,
        "bench: the query counter's classifier": 1,  # listed first: not the game's cost
        "fragments: template rendering": 3,
        "fragments: context (view, legal moves, waits hint)": 2,
        "thread hand-offs (asgiref, futures, threading)": 4,
        "asyncio event loop": 4,
        "channel layer (channels-redis, redis-py)": 1,
        "other": 1,
    }
    out = io.StringIO()
    module.report(counts, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "21 samples"
    assert lines[1] == "  4.8%  bench: the query counter's classifier"
    assert " 23.8%  move: the locked read" in lines
    assert lines[-1] == "  4.8%  other"


def test_a_workers_samples_go_to_its_tasks_stages_else_to_celery():
    counts = summary().tally(io.StringIO(WORKER_RAW))
    assert counts == {
        "worker: a timer's unlocked read": 2,
        "worker: a bot's or auto-play's decision": 3,
        "move: engine, the hand's and events' writes": 4,
        "worker: re-arming a timer": 1,
        "worker: the sweeper": 1,
        "Celery and kombu (a worker's task machinery)": 5,  # kombu's redis-py calls too
        "channel layer (channels-redis, redis-py)": 1,
    }
