"""tables.services, the one write path: versions, legality, timeouts, auto-play, escape,
the sweeper, settlement to the wallet ledger and the next hand."""

import datetime
import re

import pytest
from django.utils import timezone, translation

from accounts.models import LedgerEntry
from mahjong.engine.game import default_action, legal_actions
from mahjong.engine.tiles import NUM_PLAYING_KINDS, format_tile, tile_name
from mahjong.tables import presence, services
from mahjong.tables.models import Event, Hand, Seat, Table
from tests.web.tables_support import play_out

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]


def test_opening_a_table_deals_the_first_hand_and_logs_the_deal(duel):
    hand = duel.current_hand()
    assert hand.number == 1 and hand.version == 1
    assert hand.commitment == hand.game().commitment and hand.seed == ""
    assert [e.kind for e in hand.events.order_by("seq")][:3] == ["deal", "hand", "hand"]
    assert hand.deadline is not None


def test_a_legal_discard_saves_the_next_version_and_appends_events(duel, alice, bob):
    hand = duel.current_hand()
    state = hand.game()
    mover = [alice, bob][state.turn]
    action = str(default_action(state, state.turn))
    services.act(duel, mover, action, hand.version)
    hand.refresh_from_db()
    assert hand.version == 2
    record = Event.objects.filter(hand=hand, kind="action").get()
    assert record.data == {"type": "action", "seat": state.turn, "action": action, "by": "player"}


def test_it_refuses_a_discard_out_of_turn(duel, alice, bob):
    hand = duel.current_hand()
    state = hand.game()
    waiting = [alice, bob][1 - state.turn]
    tile = legal_actions(state, state.turn)[-1]
    with pytest.raises(services.IllegalMove, match="还没轮到你，本次操作未执行。"):
        services.act(duel, waiting, str(tile), hand.version)
    hand.refresh_from_db()
    assert hand.version == 1


def test_every_refusal_of_a_move_is_in_the_tables_language(duel, alice, bob):
    """The engine's English reached the Chinese table ("discard 1m: not your turn: seat 0
    is to act (turn)"), and named the phase the other seat was deciding in."""
    hand = duel.current_hand()
    state = hand.game()
    mover, waiting = [alice, bob][state.turn], [alice, bob][1 - state.turn]
    held = state.seat(state.turn).hand
    missing = next(t for t in range(NUM_PLAYING_KINDS) if t not in held)
    attempts = [
        (waiting, "discard 1m"),
        (mover, f"discard {format_tile(missing)}"),
        (mover, "chi 5m 46m"),  # never offered on one's own turn
        (mover, "flip 1m"),
    ]

    def refusals(language):
        said = []
        with translation.override(language):
            for user, text in attempts:
                with pytest.raises(services.IllegalMove) as refused:
                    services.act(duel, user, text, hand.version)
                said.append(str(refused.value))
        return said

    zh, en = refusals("zh-hans"), refusals("en")
    assert zh[0] == "还没轮到你，本次操作未执行。"
    assert en[0] == "It is not your turn. Nothing was done."
    assert zh[1].startswith("你手中没有：") and en[1].startswith("Not in your hand: ")
    assert zh[2] == "现在不能这样操作，本次操作未执行。"
    assert zh[3] == "这不是牌桌上的操作，本次操作未执行。"
    assert not [text for text in zh if re.search(r"[A-Za-z]", text)], zh
    assert not [text for text in en if re.search(r"turn\)|claim|seat \d|offered", text)], en
    hand.refresh_from_db()
    assert hand.version == 1


def test_it_refuses_a_stale_version_and_garbage(duel, alice, bob):
    hand = duel.current_hand()
    mover = [alice, bob][hand.game().turn]
    with pytest.raises(services.StaleVersion):
        services.act(duel, mover, "pass", hand.version + 5)
    with pytest.raises(services.IllegalMove):
        services.act(duel, mover, "discard 99x", hand.version)
    with pytest.raises(services.TableError):
        services.act(duel, mover, "pass", "not-a-number")
    hand.refresh_from_db()
    assert hand.version == 1


def test_a_discard_of_a_tile_not_held_is_refused_in_the_players_language(duel, alice, bob):
    """A tampered client's "discard 7z" read "discard 7z: 7z is not in your hand", the
    engine's English and notation, on a Chinese page: it names the tile, and nothing moves."""
    hand = duel.current_hand()
    state = hand.game()
    mover = [alice, bob][state.turn]
    absent = next(t for t in range(34) if t not in state.seat(state.turn).hand)
    action = f"discard {format_tile(absent)}"
    for language, said in (
        ("zh-hans", f"你手中没有：{tile_name(absent, 'zh')}，本次操作未执行。"),
        ("en", f"Not in your hand: {tile_name(absent, 'en')}. Nothing was done."),
    ):
        with translation.override(language), pytest.raises(services.IllegalMove) as refused:
            services.act(duel, mover, action, hand.version)
        assert str(refused.value) == said
    hand.refresh_from_db()
    assert hand.version == 1


@pytest.mark.parametrize("version", ["", "abc", "1e3", "1.0", None])
def test_a_version_that_is_not_a_whole_number_is_named_as_such(duel, alice, bob, version):
    """The act URL's form carries the version as text: a broken one is refused in the
    player's words, as the socket refuses it, not with Python's int() message."""
    hand = duel.current_hand()
    state = hand.game()
    mover = [alice, bob][state.turn]
    action = str(default_action(state, state.turn))
    with translation.override("en"), pytest.raises(services.IllegalMove) as refused:
        services.act(duel, mover, action, version)
    assert str(refused.value) == "Message refused: the version must be a whole number."
    hand.refresh_from_db()
    assert hand.version == 1


def test_an_outsider_cannot_act(duel, outsider):
    with translation.override("en"), pytest.raises(services.TableError, match="not seated"):
        services.act(duel, outsider, "pass", 1)


def test_a_timer_for_an_old_version_does_nothing(duel):
    hand = duel.current_hand()
    assert services.advance(hand.pk, hand.version)
    assert not services.advance(hand.pk, hand.version)  # duplicate / late delivery
    hand.refresh_from_db()
    assert hand.version == 2


def test_two_timeouts_in_a_row_put_the_seat_on_auto_play_and_im_back_ends_it(duel, alice, bob):
    # (the claim windows between the turns pass by themselves: no timeout counted)
    while not Seat.objects.filter(table=duel, auto_play=True).exists():
        hand = duel.current_hand()
        assert services.advance(hand.pk, hand.version)
    seat = Seat.objects.get(table=duel, auto_play=True)
    assert seat.timeouts >= 2
    services.back(duel, seat.user)
    seat.refresh_from_db()
    assert not seat.auto_play and seat.timeouts == 0


def test_a_move_of_the_players_own_ends_auto_play_and_the_next_decision_gets_the_whole_timer(
    duel, alice, bob
):
    """Clicking a tile while on 托管 (the page's tiles stay live) is being back, as "I'm
    back" is: before, the server went on playing the seat at the short delay."""
    hand = duel.current_hand()
    turn = hand.game().turn
    Seat.objects.filter(table=duel, index=turn).update(auto_play=True, timeouts=2)
    mover = [alice, bob][turn]
    state = hand.game()
    discard = next(a for a in legal_actions(state, turn) if a.verb == "discard")
    services.act(duel, mover, str(discard), hand.version)
    seat = Seat.objects.get(table=duel, index=turn)
    assert (seat.auto_play, seat.timeouts) == (False, 0)
    hand.refresh_from_db()
    after = hand.game()
    # the seat's next decision (the opponent's answer first, if it may claim) is its own again
    while after.turn != turn:
        services.advance(hand.pk, hand.version)
        hand.refresh_from_db()
        after = hand.game()
    decision = after.ruleset.timers.decision
    # a claim window's clock starts at its pause's end (services.recording.schedule)
    left = (hand.deadline - (hand.pause_until or timezone.now())).total_seconds()
    assert decision - 2 < left <= decision, left


def test_a_whole_hand_ends_with_the_seed_revealed_and_a_result(duel):
    hand = play_out(duel)
    assert hand.seed == hand.game().seed.hex() and hand.ended_at and hand.deadline is None
    assert hand.result["kind"] in {"self_draw", "discard_win", "draw"}
    assert Event.objects.filter(hand=hand, kind="end").exists()
    # the log is numbered without gaps, and the hand's count of it kept with every move
    assert list(hand.events.order_by("seq").values_list("seq", flat=True)) == list(
        range(hand.event_count)
    )


def test_leaving_during_a_hand_is_an_escape_paid_through_the_ledger(duel, alice, bob):
    assert services.leave(duel, alice) == "escaped"
    hand = duel.current_hand()
    duel.refresh_from_db()
    assert hand.result["kind"] == "escape" and hand.result["escaper"] == 0
    assert duel.status == Table.Status.FINISHED
    penalty = 13 * duel.base_points * duel.beans_per_point  # classic: 13 points (RULES 4)
    alice.refresh_from_db(), bob.refresh_from_db()
    assert (alice.beans, bob.beans) == (20_000 - penalty, 20_000 + penalty)
    rows = LedgerEntry.objects.filter(idempotency_key=f"hand:{duel.public_id}:1")
    assert sorted(r.amount for r in rows) == [-penalty, penalty]
    assert hand.result["beans"] == [-penalty, penalty]


def test_settlement_is_written_once_per_hand(duel, alice):
    services.leave(duel, alice)
    hand = duel.current_hand()
    locked = services.Locked(duel, hand, list(duel.seats.select_related("user")), hand.game())
    services.settlement._pay(locked, hand.game(), None, dict(base=1, dealer=0, dealer_streak=0))
    assert LedgerEntry.objects.filter(idempotency_key=f"hand:{duel.public_id}:1").count() == 2


def test_a_win_moves_beans_as_the_result_says(settings, alice, bob):
    from catalogue.models import RoomTier

    # A wall on which two timeouts each, then 托管 (efficient), end in a self-drawn win.
    settings.MAHJONG_TEST_SEED = "win255"
    tier = RoomTier.objects.get(slug="novice")
    table = services.open_table(
        tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
    )
    hand = play_out(table)
    assert hand.result["kind"] == "self_draw"
    rows = LedgerEntry.objects.filter(idempotency_key=f"hand:{table.public_id}:1")
    winner = hand.result["winner"]
    assert hand.result["fans"] and hand.result["points"] > 0
    paid = {r.account_id: r.amount for r in rows}
    champion = [alice, bob][winner]
    champion.refresh_from_db()
    assert champion.games_won == 1 and champion.games_played == 1
    assert champion.best_fan == hand.result["total"]
    assert champion.best_fans == [f["key"] for f in hand.result["fans"]]
    assert paid[[alice, bob][winner].pk] == hand.result["beans"][winner] > 0
    assert paid[[alice, bob][1 - winner].pk] == hand.result["beans"][1 - winner] < 0


def test_a_disconnected_player_escapes_after_the_limit(duel, alice, bob, client_of):
    seat = Seat.objects.get(table=duel, index=0)
    services.connected(seat, "chan-a")
    services.disconnected(seat, "chan-a")
    assert not services.check_escape(seat.pk)  # not yet
    later = timezone.now() + datetime.timedelta(seconds=91)
    assert services.check_escape(seat.pk, now=later)
    assert duel.current_hand().result["kind"] == "escape"
    # the table closes: the one left is not offered a next hand that waits for ever
    duel.refresh_from_db()
    assert duel.status == Table.Status.FINISHED
    with translation.override("en"):
        assert duel.note_text == "Alice was disconnected too long and left the table."
    page = client_of(bob).get(duel.get_absolute_url()).content.decode()
    assert "Alice 断线过久，已离开牌桌。" in page and "等待对手" not in page
    assert 'data-testid="to-lobby"' in page and 'data-testid="to-bot"' in page


def test_a_reconnect_within_the_limit_is_not_an_escape(duel):
    seat = Seat.objects.get(table=duel, index=0)
    services.connected(seat, "chan-a")
    services.disconnected(seat, "chan-a")
    services.connected(seat, "chan-b")
    later = timezone.now() + datetime.timedelta(seconds=200)
    presence.beat("chan-b", duel.pk, now=later - datetime.timedelta(seconds=10))  # pings on
    assert not services.check_escape(seat.pk, now=later)


def test_the_sweeper_resolves_an_overdue_decision(duel):
    hand = duel.current_hand()
    assert services.sweep() == 0  # nothing overdue yet
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - datetime.timedelta(seconds=5))
    assert services.sweep() == 1
    hand.refresh_from_db()
    assert hand.version == 2


def test_the_next_hand_starts_when_both_are_ready(duel, alice, bob):
    play_out(duel)
    assert services.ready_next(duel, alice) is None
    second = services.ready_next(duel, bob)
    first = Hand.objects.get(table=duel, number=1)
    assert second.number == 2 and second.version == first.version + 1
    # a click made on the first hand's last view is stale on the second hand
    with pytest.raises(services.StaleVersion):
        services.act(duel, alice, "pass", first.version)


def test_a_table_dealt_before_claim_pauses_gets_them_from_its_next_hand(duel, alice, bob):
    """A hand stored without the flag plays on as it was dealt; the table's next hand
    has the pause (issue 30: the claim window tells nothing)."""
    hand = duel.current_hand()
    old = dict(hand.state)
    old.pop("claim_pause")
    Hand.objects.filter(pk=hand.pk).update(state=old)
    play_out(duel)
    services.ready_next(duel, alice)
    assert services.ready_next(duel, bob).game().claim_pause


def test_a_player_below_the_room_minimum_is_returned_to_the_lobby(duel, alice, bob):
    from accounts import wallet

    play_out(duel)
    alice.refresh_from_db()
    wallet.adjust(alice, -(alice.beans - 10), note="test", actor=None, key="drain-alice")
    services.ready_next(duel, alice)
    assert services.ready_next(duel, bob) is None
    duel.refresh_from_db()
    assert duel.status == Table.Status.FINISHED and "Alice" in duel.note


def test_leaving_a_closed_table_keeps_the_note_saying_why_it_closed(duel, alice, bob):
    from accounts import wallet

    play_out(duel)
    alice.refresh_from_db()
    wallet.adjust(alice, -(alice.beans - 10), note="test", actor=None, key="drain-alice")
    services.ready_next(duel, bob)
    services.ready_next(duel, alice)
    duel.refresh_from_db()
    why = duel.note
    with translation.override("en"):
        assert "Alice" in duel.note_text and "below" in duel.note_text
    assert services.leave(duel, alice) == "left"
    duel.refresh_from_db()
    assert duel.note == why


def test_two_players_leaving_during_a_hand_one_escape_and_the_first_note(duel, alice, bob):
    assert services.leave(duel, alice) == "escaped"
    assert services.leave(duel, bob) == "left"
    duel.refresh_from_db()
    with translation.override("en"):
        assert duel.note_text == "Alice left the table."
    assert LedgerEntry.objects.filter(idempotency_key=f"hand:{duel.public_id}:1").count() == 2


def test_the_note_of_a_player_with_the_longest_name_fits_its_column(make_player, bob):
    from catalogue.models import RoomTier

    long = make_player("x" * 150, beans=10)  # no nickname: the user name is shown
    tier = RoomTier.objects.get(slug="novice")
    table = services.open_table(tier.ruleset, [long, bob], tier=tier)
    services.leave(table, long)
    table.refresh_from_db()
    assert len(table.note) <= Table._meta.get_field("note").max_length
    assert table.note_text.startswith("x" * 59 + "…")
    with_stakes = services.open_table(tier.ruleset, [long, bob], tier=tier)
    play_out(with_stakes)
    services.ready_next(with_stakes, long)
    services.ready_next(with_stakes, bob)  # 10 beans: below the room's minimum
    with_stakes.refresh_from_db()
    assert with_stakes.status == Table.Status.FINISHED
    assert len(with_stakes.note) <= Table._meta.get_field("note").max_length


def test_a_bot_table_plays_the_bot_seat(bot_table):
    for _ in range(500):
        hand = bot_table.current_hand()
        if hand.game().ended:
            break
        services.advance(hand.pk, hand.version)
    assert hand.game().ended
    bys = set(Event.objects.filter(hand=hand, kind="action").values_list("data__by", flat=True))
    assert "bot" in bys


def test_a_table_left_between_hands_is_closed_after_a_while_and_nobody_pays(duel):
    hand = play_out(duel)
    ledger = LedgerEntry.objects.count()
    services.sweep(now=hand.ended_at + services.ABANDONED_AFTER - datetime.timedelta(seconds=5))
    duel.refresh_from_db()
    assert duel.status == Table.Status.PLAYING  # still time to click "next hand"
    services.sweep(now=hand.ended_at + services.ABANDONED_AFTER + datetime.timedelta(seconds=5))
    duel.refresh_from_db()
    assert duel.status == Table.Status.FINISHED
    assert "nobody came back" in duel.note or "没有人回到牌桌" in duel.note
    assert LedgerEntry.objects.count() == ledger  # nobody escaped: no penalty
    assert not Hand.objects.filter(table=duel, ended_at__isnull=True).exists()


def test_a_table_without_a_hand_does_not_stop_the_sweeper(duel):
    """Only services open tables, with their first hand; a bare row (an old admin form
    could add one) is none of the sweeper's, and the abandoned tables after it close."""
    Table.objects.create(ruleset=duel.ruleset)
    hand = play_out(duel)
    assert services.close_abandoned(now=hand.ended_at + services.ABANDONED_AFTER * 2) == 1
    duel.refresh_from_db()
    assert duel.status == Table.Status.FINISHED


def test_an_open_result_page_or_a_hand_in_play_keeps_the_table(duel):
    later = timezone.now() + services.ABANDONED_AFTER * 2
    assert services.close_abandoned(now=later) == 0  # the first hand is still in play
    play_out(duel)
    presence.joined(duel.seats.get(index=0), "result-page", now=later)  # a page still open
    assert services.close_abandoned(now=later) == 0
    presence.left(duel.seats.get(index=0), "result-page", now=later)
    assert services.close_abandoned(now=later) == 1


@pytest.mark.parametrize("escaper", [0, 1])
def test_a_wenzhou_escape_pays_the_progressive_base_not_one(alice, bob, escaper):
    """RULES.md 9.5: the first hand of a dealer has base B = 10, and an escape costs
    B x 16 (dealer) or B x 8 (non-dealer); the room's 底分 of 1 is not B."""
    from catalogue.models import Ruleset

    table = services.open_table(
        Ruleset.objects.get(slug="wenzhou"), [alice, bob], beans_per_point=1
    )
    dealer = table.current_hand().game().dealer
    services.leave(table, [alice, bob][escaper])
    hand = table.current_hand()
    penalty = 10 * (16 if escaper == dealer else 8)
    assert hand.result["points"] == penalty
    assert hand.result["beans"][escaper] == -penalty


def test_asking_for_the_next_hand_ends_auto_play(duel, alice, bob):
    """A player put on 托管 by timeouts who clicks "next hand" is back: the new hand must
    not auto-play their moves (the result screen offers no "I'm back" button)."""
    play_out(duel)  # every decision timed out: both seats are on auto-play
    assert all(s.auto_play for s in Seat.objects.filter(table=duel))
    services.ready_next(duel, alice)
    services.ready_next(duel, bob)
    assert duel.current_hand().number == 2
    for seat in Seat.objects.filter(table=duel):
        assert (seat.auto_play, seat.timeouts) == (False, 0)


def test_sitting_down_elsewhere_leaves_the_tables_between_hands(duel, alice, bob):
    """A hand over vs a bot, the player back in the lobby plays again: the old table closes
    as if they had clicked Leave (it stayed open, on the live list, for ten minutes). Other
    players' tables are not touched."""
    from accounts.models import User
    from catalogue.models import Ruleset

    classic, bot = Ruleset.objects.get(slug="classic"), User.objects.get(username="bot-random")
    services.leave(duel, alice)  # a closed table stays as it was
    bot_table = services.open_table(classic, [alice, bot], bot_level="random")
    play_out(bot_table)
    assert bot_table.current_hand().game().ended
    bobs = services.open_table(classic, [bob, bot])
    assert Table.objects.get(pk=bot_table.pk).status == Table.Status.PLAYING  # not bob's
    again = services.open_table(classic, [alice, bot])
    old = Table.objects.get(pk=bot_table.pk)
    assert old.status == Table.Status.FINISHED and old.note_text == "Alice 离开了牌桌。"
    assert Hand.objects.filter(table=old).count() == 1  # no hand was started or escaped
    assert Table.objects.get(pk=duel.pk).note_text == "Alice 离开了牌桌。"
    assert {t.status for t in Table.objects.filter(pk__in=[again.pk, bobs.pk])} == {
        Table.Status.PLAYING
    }


def test_the_turn_after_the_second_timeout_is_played_after_the_short_delay(duel):
    """托管 begins with the second timeout in a row. When that timeout leaves the same
    seat to decide (a claim let go on time, then its own draw), the decision is the
    server's already: the short delay, not a whole timer with the clock counting down
    beside the "Auto-play" tag while nobody plays."""
    found = 0
    for _ in range(200):
        hand = duel.current_hand()
        state = hand.game()
        if state.ended:
            break
        seat = Seat.objects.get(table=duel, index=state.turn)
        if seat.auto_play:
            found += 1
            left = (hand.deadline - (hand.pause_until or timezone.now())).total_seconds()
            assert left <= state.ruleset.timers.locked_delay + 0.5, (hand.version, left)
        services.advance(hand.pk, hand.version)
    assert found, "no auto-played turn in the hand"
