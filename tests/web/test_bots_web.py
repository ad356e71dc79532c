"""Bots on the web (issue 6): one account per level shown as a bot everywhere, the level
pickers (play vs bot, private room), bot fill in quick match after the tier's wait (set in
the admin), and the efficient bot playing 托管 and disconnected seats. Timers and the
bot-fill task run on a real Celery worker where the test says so."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override

from accounts.builtin import bot_for
from accounts.models import User
from catalogue.models import RoomTier, Ruleset
from lobby import matchmaking, rooms
from lobby.models import PrivateRoom, QueueTicket
from mahjong.engine import bots as engine_bots
from mahjong.engine.game import default_action
from mahjong.engine.state import GameState
from mahjong.engine.views import view
from mahjong.tables import services
from mahjong.tables.models import Event, Match, Seat, Table
from tests.conftest import PASSWORD
from tests.web.tables_support import wait_until

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]
LEVELS = [lv.slug for lv in engine_bots.LEVELS]


@pytest.fixture
def asked(monkeypatch):
    """Every bot the tables build: (level, what its choose() received)."""
    calls = []
    real = engine_bots.get_bot

    def spy(level, seed, ruleset=None):
        bot = real(level, seed, ruleset)
        choose = bot.choose

        def recording(seen, offered):
            calls.append((level, seen, offered))
            return choose(seen, offered)

        bot.choose = recording
        return bot

    monkeypatch.setattr(engine_bots, "get_bot", spy)
    return calls


def last_action(hand) -> dict:
    return Event.objects.filter(hand=hand, kind="action").order_by("-seq").first().data


# ----- accounts ------------------------------------------------------------------------


def test_the_loader_makes_one_bot_per_level_that_cannot_log_in(builtin, client):
    bots = list(User.objects.filter(kind=User.Kind.BOT).order_by("pk"))
    assert [b.bot_level for b in bots] == LEVELS
    for bot in bots:
        assert bot_for(bot.bot_level) == bot and not bot.is_active
        reply = client.post(reverse("accounts:login"), {"username": bot.username, "password": ""})
        assert "_auth_user_id" not in client.session and reply.status_code == 200
    assert not client.login(username="bot-efficient", password=PASSWORD)


def test_a_bot_is_named_as_a_bot_in_both_languages(builtin, alice):
    bot = bot_for("efficient")
    assert bot.display_name == "🤖 电脑·熟手"
    with override("en"):
        assert bot.display_name == "🤖 Bot · Skilled"
    assert alice.display_name == "Alice"


def test_a_bot_shows_as_a_bot_on_the_match_page(client_of, alice):
    match = Match.objects.create(
        kind=Match.Kind.PRIVATE,
        ruleset=Ruleset.objects.get(slug="classic"),
        ranked=False,
        player_one=alice,
        player_two=bot_for("strong"),
    )
    html = client_of(alice).get(match.get_absolute_url()).content.decode()
    assert "🤖 电脑·高手" in html


# ----- pickers -------------------------------------------------------------------------


def test_the_home_picker_offers_every_level_by_name_in_chinese_and_english(client_of, alice):
    c = client_of(alice)
    chinese = c.get("/").content.decode()
    for level in engine_bots.LEVELS:
        assert f'value="{level.slug}"' in chinese
        assert f"{level.name_zh} · {level.about_zh}" in chinese
    c.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = c.get("/").content.decode()
    for level in engine_bots.LEVELS:
        assert f"{level.name_en} · {level.about_en}" in english


@pytest.mark.parametrize("level", LEVELS)
def test_play_vs_bot_seats_the_bot_account_of_the_chosen_level(client_of, alice, level):
    reply = client_of(alice).post(reverse("lobby:play_bot"), {"level": level})
    table = Table.objects.get()
    assert reply.status_code == 302 and reply["Location"] == table.get_absolute_url()
    human, bot = table.seats.select_related("user")
    assert (human.user, human.bot_level) == (alice, "")
    assert (bot.user.username, bot.bot_level) == (f"bot-{level}", level)
    assert table.beans_per_point == 0 and table.tier is None


def test_play_vs_bot_refuses_an_unknown_level_or_a_solo_ruleset(client_of, alice):
    c = client_of(alice)
    reply = c.post(reverse("lobby:play_bot"), {"level": "godlike"}, follow=True)
    assert "请选择电脑水平" in reply.content.decode()
    solo = c.post(reverse("lobby:play_bot"), {"level": "novice", "ruleset": "stage"})
    assert solo.status_code == 404
    assert not Table.objects.exists()


def test_the_host_fills_a_private_room_with_a_bot_of_the_chosen_level(client_of, alice, bob):
    room = rooms.create(alice, Ruleset.objects.get(slug="gb"), 2)
    page = client_of(alice).get(room.get_absolute_url()).content.decode()
    assert 'data-testid="room-bot-level"' in page and "高手" in page
    guest_page = client_of(bob).get(room.get_absolute_url()).content.decode()
    assert 'data-testid="room-bot-level"' not in guest_page
    refused = client_of(bob).post(reverse("lobby:room_bot", args=[room.code]), {"level": "strong"})
    assert refused.status_code == 302
    assert PrivateRoom.objects.get(pk=room.pk).state == PrivateRoom.State.OPEN
    reply = client_of(alice).post(reverse("lobby:room_bot", args=[room.code]), {"level": "strong"})
    room.refresh_from_db()
    assert room.state == PrivateRoom.State.MATCHED
    assert reply["Location"] == room.match.get_absolute_url()
    assert (room.match.player_two.username, room.match.ranked) == ("bot-strong", False)
    # sitting down opens the table with the bot seat at its account's level
    client_of(alice).get(reverse("lobby:sit_down", args=[room.match.public_id]))
    seat = Table.objects.get(match=room.match).seats.get(index=1)
    assert seat.bot_level == "strong"


# ----- bot moves -----------------------------------------------------------------------


def test_a_bot_seat_moves_at_its_level_from_its_seat_view_only(alice, asked):
    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bot_for("strong")])
    for _ in range(40):
        hand = table.current_hand()
        state = hand.game()
        if state.ended:
            break
        before = len(asked)
        services.advance(hand.pk, hand.version)
        if state.turn == 1 and len(asked) > before:
            level, seen, offered = asked[-1]
            assert level == "strong" and not isinstance(seen, GameState)
            assert seen == view(state, 1)  # the seat's view and nothing more
            assert seen["seats"][0]["concealed"] is None  # the opponent's hand stays hidden
            assert last_action(hand)["by"] == "bot"
    assert asked and {level for level, *_rest in asked} <= {"strong", "efficient"}


def test_a_single_timeout_is_the_default_action_and_托管_is_the_efficient_bot(duel, asked):
    hand = duel.current_hand()
    state, turn = hand.game(), hand.game().turn
    services.advance(hand.pk, hand.version)
    record = last_action(hand)
    assert record["by"] == "timeout" and record["action"] == str(default_action(state, turn))
    assert asked == []
    hand = duel.current_hand()
    turn = hand.game().turn
    Seat.objects.filter(table=duel, index=turn).update(auto_play=True)
    services.advance(hand.pk, hand.version)
    assert last_action(hand)["by"] == "auto"
    assert [level for level, *_rest in asked] in ([], ["efficient"])  # [] if one choice


def test_a_disconnected_seat_is_played_by_the_efficient_bot(duel, asked):
    hand = duel.current_hand()
    turn = hand.game().turn
    seat = Seat.objects.get(table=duel, index=turn)
    services.connected(seat, "ws-test")
    services.disconnected(seat, "ws-test")
    services.advance(hand.pk, hand.version)
    assert last_action(hand)["by"] == "auto"
    assert {level for level, *_rest in asked} <= {"efficient"}
    services.connected(seat, "ws-again")  # back: a missed timer is a plain timeout again
    hand = duel.current_hand()
    if hand.game().turn == turn:
        services.advance(hand.pk, hand.version)
        assert last_action(hand)["by"] == "timeout"


# ----- bot fill in quick match ---------------------------------------------------------


@pytest.fixture
def novice_fills(builtin):
    RoomTier.objects.filter(slug="novice").update(bot_fill_seconds=30, bot_fill_level="novice")
    return RoomTier.objects.get(slug="novice")


def waited(ticket, seconds):
    QueueTicket.objects.filter(pk=ticket.pk).update(
        created_at=timezone.now() - datetime.timedelta(seconds=seconds)
    )


def test_the_queue_poll_gives_a_bot_after_the_tiers_wait(client_of, alice, novice_fills):
    c = client_of(alice)
    c.post(reverse("lobby:quick_join", args=["novice"]))
    ticket = QueueTicket.objects.get(player=alice)
    waited(ticket, 12)
    page = c.get(ticket.get_absolute_url())  # not yet, and the page says when
    assert page.status_code == 200
    # (a second may pass between the update and the render)
    assert re.search(r"已等待 0:1[23]", page.content.decode())
    assert re.search(r"若无人加入，1[78] 秒后由电脑入座", page.content.decode())
    waited(ticket, 31)
    reply = c.get(ticket.get_absolute_url())
    ticket.refresh_from_db()
    match = ticket.match
    assert ticket.state == QueueTicket.State.MATCHED
    assert reply["Location"] == match.get_absolute_url()
    assert (match.player_one, match.player_two.username) == (alice, "bot-novice")
    assert (match.tier, match.beans_per_point, match.ranked) == (novice_fills, 50, True)
    c.get(reverse("lobby:sit_down", args=[match.public_id]))
    table = Table.objects.get(match=match)
    assert [s.bot_level for s in table.seats.all()] == ["", "novice"]
    assert table.beans_per_point == 50


def test_no_bot_fill_when_the_tier_never_fills_or_the_player_left(alice, bob, novice_fills):
    RoomTier.objects.filter(slug="normal").update(bot_fill_seconds=0)
    never = matchmaking.join(alice, RoomTier.objects.get(slug="normal"))
    waited(never, 3600)
    assert matchmaking.poll(never).state == QueueTicket.State.WAITING
    gone = matchmaking.join(bob, novice_fills)
    waited(gone, 60)
    QueueTicket.objects.filter(pk=gone.pk).update(
        last_seen=timezone.now() - datetime.timedelta(minutes=5)
    )
    assert matchmaking.fill_with_bot(gone) is None
    assert QueueTicket.objects.get(pk=gone.pk).state == QueueTicket.State.WAITING


def test_two_waiting_players_meet_each_other_not_a_bot(alice, bob, novice_fills):
    first = matchmaking.join(alice, novice_fills)
    waited(first, 60)
    second = matchmaking.join(bob, novice_fills)
    match = second.match
    assert (match.player_one, match.player_two) == (alice, bob)


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_fills_the_seat_with_a_bot_without_a_poll(
    celery_worker, settings, alice, novice_fills
):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    RoomTier.objects.filter(pk=novice_fills.pk).update(bot_fill_seconds=1)
    ticket = matchmaking.join(alice, RoomTier.objects.get(pk=novice_fills.pk))
    assert ticket.state == QueueTicket.State.WAITING
    wait_until(lambda: QueueTicket.objects.get(pk=ticket.pk).state == QueueTicket.State.MATCHED)
    match = QueueTicket.objects.get(pk=ticket.pk).match
    assert match.player_two.username == "bot-novice"


# ----- 托管 on a real worker ------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_plays_托管_with_the_efficient_bot_to_the_end(
    celery_worker, builtin, alice, bob, asked
):
    fast = Ruleset.objects.create(
        slug="classic-fast",
        engine_slug="classic",
        name="快速",
        overrides={"timers": {"decision": 3, "locked_delay": 0.1}},
    )
    table = services.open_table(fast, [alice, bob])
    hand = wait_until(lambda: (h := table.current_hand()).ended_at and h, timeout=60)
    bys = list(Event.objects.filter(hand=hand, kind="action").values_list("data__by", flat=True))
    assert bys.count("timeout") <= 4 and "auto" in bys  # two misses each, then 托管
    assert all(Seat.objects.filter(table=table).values_list("auto_play", flat=True))
    assert asked and {level for level, *_rest in asked} == {"efficient"}


# ----- the admin setting ---------------------------------------------------------------


@pytest.fixture
def staff_client(builtin, client):
    admin = User.objects.create_superuser("boss", "boss@example.com", "pw-boss-123456")
    client.force_login(admin)
    client.cookies.load({"django_language": "en"})
    return client


def tier_form(tier, **changes):
    data = {
        "slug": tier.slug,
        "name": tier.name,
        "name_en": tier.name_en,
        "ruleset": tier.ruleset_id,
        "beans_per_point": tier.beans_per_point,
        "entry_min": tier.entry_min,
        "entry_max": tier.entry_max,
        "is_active": "on",
        "ordering": tier.ordering,
        "bot_fill_seconds": "",
        "bot_fill_level": "efficient",
    }
    data.update(changes)
    return data


def test_the_admin_sets_a_tiers_bot_fill_with_help_and_checks_it(staff_client):
    tier = RoomTier.objects.get(slug="junior")
    url = reverse("admin:catalogue_roomtier_change", args=[tier.pk])
    page = staff_client.get(url).content.decode()
    assert "gets a bot opponent" in page and "Empty or 0: never." in page
    for level in engine_bots.LEVELS:
        assert f'value="{level.slug}"' in page
    for changes, field, message in [
        ({"bot_fill_seconds": "20", "bot_fill_level": "godlike"}, "bot_fill_level", "valid choice"),
        ({"bot_fill_seconds": "601"}, "bot_fill_seconds", "At most 600 seconds"),
        ({"bot_fill_seconds": "-5"}, "bot_fill_seconds", "greater than or equal to 0"),
    ]:
        reply = staff_client.post(url, tier_form(tier, **changes))
        assert reply.status_code == 200, changes
        assert message in " ".join(reply.context["adminform"].form.errors[field])
    # on by default (issue 31 item 10): a player alone in a room never waits for ever
    assert RoomTier.objects.get(pk=tier.pk).bot_fill_seconds == 20
    reply = staff_client.post(url, tier_form(tier, bot_fill_seconds="45", bot_fill_level="strong"))
    assert reply.status_code == 302
    tier.refresh_from_db()
    assert (tier.bot_fill_seconds, tier.bot_fill_level, tier.fills_with_bot) == (45, "strong", True)
    staff_client.post(url, tier_form(tier, bot_fill_seconds="0"))
    assert not RoomTier.objects.get(pk=tier.pk).fills_with_bot


@pytest.mark.parametrize("engine_slug", ["classic", "gb", "quesheng", "tiao72", "wenzhou"])
def test_a_player_alone_in_a_room_of_any_ruleset_gets_a_bot_by_default(
    builtin, make_player, engine_slug
):
    """Bot fill was off unless set: alone in a room, a player waited for ever. Rooms an
    operator adds take the default of 20 s, whatever their ruleset."""
    import datetime

    from django.utils import timezone

    from catalogue.models import Ruleset
    from lobby import matchmaking
    from lobby.models import QueueTicket

    tier = RoomTier.objects.create(
        slug=f"room-{engine_slug}",
        name=f"{engine_slug}场",
        beans_per_point=10,
        entry_min=0,
        entry_max=10**6,
        ruleset=Ruleset.objects.get(engine_slug=engine_slug),
    )
    assert tier.fills_with_bot and tier.bot_fill_seconds == 20
    player = make_player(f"lone-{engine_slug}", beans=20_000)
    ticket = matchmaking.join(player, tier)
    assert ticket.state == QueueTicket.State.WAITING  # not before its 20 seconds
    QueueTicket.objects.filter(pk=ticket.pk).update(
        created_at=timezone.now() - datetime.timedelta(seconds=21)
    )
    assert matchmaking.poll(ticket).state == QueueTicket.State.MATCHED
    assert ticket.match.ruleset.engine_slug == engine_slug
