"""Bad input on the table's WebSocket (issue 10), through the real ASGI app (origin check,
session auth, routing) and a real Redis channel layer.

A hypothesis fuzzer sends the seat to move (and its opponent) malformed JSON, binary and
huge frames, unknown and illegal actions, stale versions, wrong types and actions for
another table or another seat: every message gets a clear error, the hand's state and
version stay exactly as they were, and the same connection then plays a legal move.
A flood is rate-limited per user with "slow down" errors, never a disconnect."""

import datetime
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from mahjong.asgi import application
from mahjong.engine.game import default_action, legal_actions
from mahjong.tables import ratelimit, services
from mahjong.tables.models import Event, Hand
from tests.web.tables_support import play_out, refused_connect, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_eager_timers")]

EXAMPLES = 60
WAIT = 20  # seconds for a reply: generous, a loaded CI machine is slow, a lost reply never comes
# Plausible actions in the engine's notation, never legal when the fuzzer sends them
# (legal ones are swapped for a discard of a tile nobody can hold).
VERBS = [
    "hu",
    "pass",
    "guo",
    "pon 5m",
    "chi 345m",
    "kan 1z",
    "ankan 2p",
    "addkan 7s",
    "discard 1f",
    "discard 9z",
    "ting",
    "discard 5m",
    "escape",
    "swap 1m 2m",
]

not_json = st.text(max_size=60).filter(lambda s: not _parses(s))
wrong_version = st.one_of(
    st.text(max_size=8),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
wrong_action = st.one_of(
    st.integers(),
    st.none(),
    st.booleans(),
    st.lists(st.text(max_size=5), max_size=2),
    st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2),
)
# (kind, payload): materialised against the live hand by ``frame``
BAD = st.one_of(
    st.tuples(st.just("text"), not_json),
    st.tuples(st.just("binary"), st.binary(max_size=200)),
    st.tuples(st.just("huge"), st.integers(min_value=1025, max_value=300_000)),
    st.tuples(
        st.just("not-an-object"),
        st.one_of(
            st.integers(), st.text(max_size=10), st.lists(st.integers(), max_size=3), st.none()
        ),
    ),
    st.tuples(st.just("unknown"), st.text(max_size=40)),
    st.tuples(st.just("illegal"), st.sampled_from(VERBS)),
    st.tuples(st.just("stale"), st.integers(min_value=-5, max_value=10_000)),
    st.tuples(st.just("version-type"), wrong_version),
    st.tuples(st.just("action-type"), wrong_action),
    st.tuples(st.just("other-table"), st.just(None)),
    st.tuples(st.just("other-seat"), st.just(None)),
)


# One of each kind, always tried as well: sixty random sessions do not always draw all 11.
EVERY_KIND = [
    ("text", "{not json"),
    ("binary", b"\x00\xff"),
    ("huge", 2000),
    ("not-an-object", [1]),
    ("unknown", "fly 5m"),
    ("illegal", "discard 9z"),
    ("stale", -1),
    ("version-type", "7"),
    ("action-type", None),
    ("other-table", None),
    ("other-seat", None),
]


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def headers_for(user):
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    return [
        (b"host", b"testserver"),
        (b"origin", b"http://testserver"),
        (b"cookie", cookie.encode()),
    ]


def frame(kind, payload, hand: Hand, other_table: str) -> tuple[str, dict]:
    """(socket "mover"|"other", send_to kwargs) for one bad message."""
    state = hand.game()
    legal = {str(a) for a in legal_actions(state, state.turn)}
    good = str(default_action(state, state.turn))
    v = hand.version
    if kind == "text":
        return "mover", {"text_data": payload}
    if kind == "binary":
        return "mover", {"bytes_data": payload}
    if kind == "huge":
        return "mover", {
            "text_data": json.dumps({"action": good, "version": v, "x": "x" * payload})
        }
    if kind == "not-an-object":
        return "mover", {"text_data": json.dumps(payload)}
    if kind == "unknown":
        action = payload if payload not in legal else payload + " ?"
        return "mover", {"text_data": json.dumps({"action": action, "version": v})}
    if kind == "illegal":
        action = payload if payload not in legal else "discard 9z"
        return "mover", {"text_data": json.dumps({"action": action, "version": v})}
    if kind == "stale":
        version = payload if payload != v else v - 1
        return "mover", {"text_data": json.dumps({"action": good, "version": version})}
    if kind == "version-type":
        return "mover", {"text_data": json.dumps({"action": good, "version": payload})}
    if kind == "action-type":
        return "mover", {"text_data": json.dumps({"action": payload, "version": v})}
    if kind == "other-table":
        message = {"action": good, "version": v, "table": other_table}
        return "mover", {"text_data": json.dumps(message)}
    assert kind == "other-seat"
    return "other", {"text_data": json.dumps({"action": good, "version": v})}


async def send_frame(ws, text_data=None, bytes_data=None):
    """A raw frame: the communicator's send_to refuses an empty one, a client need not."""
    message = {"type": "websocket.receive"}
    message.update({"text": text_data} if bytes_data is None else {"bytes": bytes_data})
    await ws.send_input(message)


@pytest.fixture
def generous_limit(settings):
    """The fuzzer sends faster than any player: it is not what the rate limit is for."""
    settings.TABLES_ACTION_RATE, settings.TABLES_ACTION_BURST = 10_000, 10_000


def test_fuzzed_bad_messages_get_an_error_change_nothing_and_the_socket_still_plays(
    redis_layer, generous_limit, alice, bob
):
    from catalogue.models import Ruleset

    ruleset = Ruleset.objects.get(slug="classic")
    other = services.open_table(ruleset, [bob, alice])
    play_out(other)  # one game at a time: the fuzzed table's opening closes this one
    other_table = other.public_id
    headers = {alice.pk: headers_for(alice), bob.pk: headers_for(bob)}
    tables = [services.open_table(ruleset, [alice, bob])]
    seen = {"messages": 0, "kinds": set()}

    @hsettings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(messages=st.lists(BAD, min_size=1, max_size=5))
    @example(messages=EVERY_KIND[:6])
    @example(messages=EVERY_KIND[6:])
    def check(messages):
        table = tables[-1]
        hand = table.current_hand()
        if hand.game().ended:
            table = services.open_table(ruleset, [alice, bob])
            tables.append(table)
            hand = table.current_hand()
        # the good move must apply at once: a pass sent in a claim window's pause waits
        # for its end (test_claim_window.py), so the pause is over here
        Hand.objects.filter(pk=hand.pk, pause_until__isnull=False).update(
            pause_until=timezone.now() - datetime.timedelta(seconds=1)
        )
        users = [alice, bob]
        turn = hand.game().turn
        sockets = {
            role: WebsocketCommunicator(
                application, f"/ws/tables/{table.public_id}/", headers=headers[user.pk]
            )
            for role, user in (("mover", users[turn]), ("other", users[1 - turn]))
        }
        before = (hand.version, hand.state, Event.objects.filter(hand=hand).count())
        frames = [frame(kind, payload, hand, other_table) for kind, payload in messages]
        good = str(default_action(hand.game(), turn))

        def state_now():
            fresh = Hand.objects.get(pk=hand.pk)
            return fresh.version, fresh.state, Event.objects.filter(hand=hand).count()

        async def scenario():
            """One event loop for the whole exchange (a communicator lives in its loop)."""
            for ws in sockets.values():
                assert (await ws.connect())[0]
                await ws.receive_from(WAIT)
            replies = []
            for role, kwargs in frames:
                await send_frame(sockets[role], **kwargs)
                replies.append(await sockets[role].receive_from(WAIT))
            quiet = await sockets["mover"].receive_nothing(0.05)
            after = await database_sync_to_async(state_now)()
            await sockets["mover"].send_to(json.dumps({"action": good, "version": hand.version}))
            pushes = [await ws.receive_from(WAIT) for ws in sockets.values()]
            for ws in sockets.values():
                await ws.disconnect()
            return replies, quiet, after, pushes

        replies, quiet, after, pushes = run(scenario)
        for (kind, _payload), reply in zip(messages, replies, strict=True):
            assert 'id="mj-notice"' in reply and '<div class="flash error">' in reply, kind
            assert "Traceback" not in reply
        assert quiet and after == before
        assert all(f'data-version="{hand.version + 1}"' in p for p in pushes)
        assert table.current_hand().version == hand.version + 1
        seen["messages"] += len(messages)
        seen["kinds"].update(kind for kind, _ in messages)

    check()
    kinds = len(seen["kinds"])
    print(f"socket fuzz: {seen['messages']} bad messages of {kinds} kinds, {EXAMPLES} sessions")
    assert seen["messages"] >= EXAMPLES
    assert len(seen["kinds"]) == 11  # every kind of bad input was tried


def test_a_flood_gets_slow_down_errors_not_a_disconnect_and_honest_play_continues(
    redis_layer, settings, monkeypatch, alice, bob
):
    from catalogue.models import Ruleset

    settings.TABLES_ACTION_RATE, settings.TABLES_ACTION_BURST = 10, 20
    now = [1_000_000.0]  # the bucket's clock stands still during the flood
    monkeypatch.setattr(ratelimit, "clock", lambda: now[0])
    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
    hand = table.current_hand()
    state = hand.game()
    mover = [alice, bob][state.turn]
    good = str(default_action(state, state.turn))
    ws = WebsocketCommunicator(
        application, f"/ws/tables/{table.public_id}/", headers=headers_for(mover)
    )

    async def scenario():
        assert (await ws.connect())[0]
        await ws.receive_from(WAIT)
        replies = []
        for _ in range(60):  # sixty at one instant: the bucket runs dry after twenty
            await ws.send_to("not json")
            replies.append(await ws.receive_from(WAIT))
        now[0] += 0.3  # three tokens come back
        await ws.send_to(json.dumps({"action": good, "version": hand.version}))
        push = await ws.receive_from(WAIT)
        await ws.disconnect()
        return replies, push

    replies, push = run(scenario)
    slowed = [r for r in replies if "操作太快了" in r]
    assert len(slowed) == 40 and all(s == slowed[0] for s in slowed)
    assert "操作太快了" not in "".join(replies[:20])
    assert all('<div class="flash error">' in r for r in replies)
    assert f'data-version="{hand.version + 1}"' in push


@pytest.fixture(params=["locmem", "redis"])
def bucket_cache(request, settings):
    """The bucket on each kind of cache: Redis (the Lua script) and a per-process one."""
    if request.param == "redis":
        from tests.web.conftest import _private_cache_location
        from tests.web.tables_support import REDIS_URL

        location = _private_cache_location(REDIS_URL)
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": location,
                "KEY_PREFIX": "test-bucket",
            }
        }
    else:
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    from django.core.cache import cache

    cache.clear()
    yield request.param
    cache.clear()


def test_the_bucket_allows_the_burst_then_the_rate_and_never_limits_honest_play(
    bucket_cache, settings
):
    settings.TABLES_ACTION_RATE, settings.TABLES_ACTION_BURST = 10, 20
    t = 1_000_000.0
    assert all(ratelimit.allow(1, now=t) for _ in range(20))
    assert not ratelimit.allow(1, now=t)
    assert ratelimit.allow(2, now=t)  # per user
    assert ratelimit.allow(1, now=t + 0.125) and not ratelimit.allow(1, now=t + 0.125)
    # honest and fast: three moves a second with a double click now and then, for a minute
    t += 100
    for i in range(180):
        now = t + i / 3
        assert ratelimit.allow(3, now=now)
        if i % 10 == 0:
            assert ratelimit.allow(3, now=now)


@pytest.mark.parametrize("bucket_cache", ["redis"], indirect=True)
def test_the_bucket_on_redis_survives_a_restart_that_forgets_its_script(bucket_cache, settings):
    """Redis keeps scripts in memory only: the registered script (EVALSHA) is loaded
    again after a restart (SCRIPT FLUSH here), and the bucket keeps counting."""
    from django.core.cache import cache

    settings.TABLES_ACTION_RATE, settings.TABLES_ACTION_BURST = 10, 3
    t = 2_000_000.0
    assert ratelimit.allow(7, now=t)
    cache._cache.get_client(write=True).script_flush()
    assert ratelimit.allow(7, now=t) and ratelimit.allow(7, now=t)
    assert not ratelimit.allow(7, now=t)  # the fourth of a burst of three


def test_log_out_closes_that_sessions_sockets_and_a_foreign_origin_is_refused(
    redis_layer, alice, bob, outsider
):
    from catalogue.models import Ruleset
    from mahjong.tables.consumers import LOGGED_OUT

    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
    clients = {name: Client() for name in ("alice", "carol", "carol-2")}
    clients["alice"].force_login(alice)
    clients["carol"].force_login(outsider)
    clients["carol-2"].force_login(outsider)

    def socket(name, path="", origin=b"http://testserver"):
        cookie = f"sessionid={clients[name].cookies['sessionid'].value}".encode()
        return WebsocketCommunicator(
            application,
            f"/ws/tables/{table.public_id}/{path}",
            headers=[(b"host", b"testserver"), (b"origin", origin), (b"cookie", cookie)],
        )

    seat, watcher, other_device = (
        socket("alice"),
        socket("carol", "watch/"),
        socket("carol-2", "watch/"),
    )
    again = socket("alice")
    foreign = [
        socket("alice", origin=b"https://evil.example"),
        socket("carol", "watch/", origin=b"https://evil.example"),
    ]

    def log_out(name):
        return clients[name].post("/accounts/logout/").status_code

    async def scenario():
        for ws in (seat, watcher, other_device):
            assert (await ws.connect())[0]
            await ws.receive_from(WAIT)
        assert await database_sync_to_async(log_out)("carol") == 302
        carol_closed = await watcher.receive_output(WAIT)
        still_open = await other_device.receive_nothing(0.3)
        assert await database_sync_to_async(log_out)("alice") == 302
        alice_closed = await seat.receive_output(WAIT)
        while alice_closed.get("type") == "websocket.send":  # the count of spectators,
            assert 'id="mj-watchers"' in alice_closed["text"]  # pushed as carol came and went
            alice_closed = await seat.receive_output(WAIT)
        reconnect = await refused_connect(again)
        refused = [await refused_connect(ws) for ws in foreign]
        for ws in (seat, watcher, other_device):  # end them as daphne would
            await ws.disconnect()
        return carol_closed, still_open, alice_closed, reconnect, refused

    carol_closed, still_open, alice_closed, reconnect, refused = run(scenario)
    assert carol_closed == {"type": "websocket.close", "code": LOGGED_OUT}
    assert alice_closed == {"type": "websocket.close", "code": LOGGED_OUT}
    assert still_open  # carol's other session keeps its socket
    assert reconnect[0] is False  # the old session is gone
    assert [ok for ok, _code in refused] == [False, False]


def test_the_same_bucket_slows_a_flood_of_http_actions(settings, monkeypatch, alice, bob):
    from catalogue.models import Ruleset

    settings.TABLES_ACTION_RATE, settings.TABLES_ACTION_BURST = 10, 20
    monkeypatch.setattr(ratelimit, "clock", lambda: 2_000_000.0)
    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
    hand = table.current_hand()
    state = hand.game()
    mover = [alice, bob][state.turn]
    client = Client()
    client.force_login(mover)
    url = f"/tables/{table.public_id}/act/"
    junk = {"action": "launch missiles", "version": hand.version}
    replies = [client.post(url, junk, headers={"HX-Request": "true"}) for _ in range(25)]
    assert all(r.status_code == 200 for r in replies)
    slowed = ["操作太快了" in r.content.decode() for r in replies]
    assert slowed == [False] * 20 + [True] * 5
    good = {"action": str(default_action(state, state.turn)), "version": hand.version}
    assert "操作太快了" in client.post(url, good, headers={"HX-Request": "true"}).content.decode()
    assert table.current_hand().version == hand.version  # the slowed move was not made
