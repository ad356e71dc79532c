"""The query budget (issue 9): at most 8 SQL queries per game action through
``tables.services.act`` (counted as the test sees them, savepoints included), and a
constant number for rendering a viewer's fragments, however long the hand has run.

Scripted players take a win whenever offered, claim half the time, else discard at
random, until discards, claims, passes and a win have all been measured.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from mahjong.engine.game import legal_actions
from mahjong.tables import presenters, services
from mahjong.tables.models import Table

pytestmark = pytest.mark.usefixtures("no_eager_timers")

BUDGET = 8
CLAIMS = ("pon", "chi", "kan", "addkan", "ankan")


def _pick(actions: list[str], rng: random.Random) -> str:
    wins = [a for a in actions if a.startswith("hu")]
    claims = [a for a in actions if a.split()[0] in CLAIMS]
    if wins:
        return wins[0]
    if claims and rng.random() < 0.5:
        return rng.choice(claims)
    return rng.choice(actions)


def _play_until_covered(table, users, *, max_hands=12):
    """Play hands with scripted players; yields (action, queries, ended) per move."""
    rng = random.Random(9)
    for _ in range(max_hands):
        hand = table.current_hand()
        while not hand.game().ended:
            state = hand.game()
            pick = _pick([str(a) for a in legal_actions(state, state.turn)], rng)
            with CaptureQueriesContext(connection) as queries:
                hand = services.act(table, users[state.turn], pick, hand.version).hand
            yield pick, len(queries), hand.game().ended
        for user in users:
            services.ready_next(table, user)


@pytest.fixture
def friendly(settings, alice, bob):
    """alice and bob at a table without stakes (a private room's kind)."""
    from catalogue.models import Ruleset

    settings.MAHJONG_TEST_SEED = "budget"
    return services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])


def test_every_action_of_a_hand_stays_within_the_budget(friendly, alice, bob):
    seen: dict[str, int] = {}
    for pick, count, ended in _play_until_covered(friendly, [alice, bob]):
        kind = "win" if pick.startswith("hu") and ended else pick.split()[0]
        kind = "claim" if kind in CLAIMS else kind
        seen[kind] = max(seen.get(kind, 0), count)
        assert count <= BUDGET, f"{pick}: {count} queries"
        if {"discard", "claim", "pass", "win"} <= set(seen):
            break
    assert {"discard", "claim", "pass", "win"} <= set(seen), seen


@pytest.fixture
def staked(settings, alice, bob):
    """alice and bob in the novice room: beans move and rank scores count."""
    from catalogue.models import RoomTier

    settings.MAHJONG_TEST_SEED = "budget"
    tier = RoomTier.objects.get(slug="novice")
    return services.open_table(
        tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
    )


# The end of a won hand at a staked room table adds what the ledger and the ranks need:
# wallet.post's own transaction (savepoint, lock both accounts, idempotency check, one
# balance update per account, the ledger rows, release = 7), one rank-score update per
# player (accounts.ranks.add_points) and the ratings' rows (mahjong.ratings: hand results,
# read the two ratings, update each, the changes = 5), and the lock on
# the players' rows before their balances are read for the payment (1, it also finds the
# house; tests/faults/test_money.py shows the race it closes). The table's own part
# stays within BUDGET.
STAKED_WIN = BUDGET + 7 + 2 + 5 + 1


def test_a_staked_win_costs_the_budget_plus_the_ledger_posting_and_ranks(staked, alice, bob):
    from accounts.models import LedgerEntry

    for pick, count, ended in _play_until_covered(staked, [alice, bob]):
        if not ended:
            assert count <= BUDGET, f"{pick}: {count} queries"
        elif pick.startswith("hu"):
            assert count <= STAKED_WIN, f"{pick}: {count} queries"
            assert LedgerEntry.objects.filter(reason="settlement").exists()
            return
    raise AssertionError("no hand was won")


def test_a_viewers_fragments_cost_the_same_at_any_point_of_the_hand(
    friendly, alice, bob, django_assert_max_num_queries
):
    """Two queries per viewer (the hand, the seats with their players), as a push to each
    screen costs; not one more after many moves (no query per event, meld or discard)."""
    for seat in (0, 1):
        with django_assert_max_num_queries(2):
            presenters.fragments(friendly, seat)
    moves = _play_until_covered(friendly, [alice, bob], max_hands=1)
    for _ in range(30):
        next(moves)
    for seat in (0, 1):
        with django_assert_max_num_queries(2):
            presenters.fragments(friendly, seat)


def test_the_movers_own_fragments_cost_no_query_and_match_a_fresh_render(
    friendly, alice, bob, django_assert_num_queries
):
    """The mover's screen after its move comes from the move's own reads (services.act
    returns them): the same fragments as a render from the database, for no query."""
    for _ in range(12):
        hand = friendly.current_hand()
        state = hand.game()
        pick = str(legal_actions(state, state.turn)[-1])
        done = services.act(friendly, [alice, bob][state.turn], pick, hand.version)
        with django_assert_num_queries(0):
            mine = presenters.fragments_after_move(done, state.turn)
        fresh = presenters.fragments(Table.objects.get(pk=friendly.pk), state.turn)
        assert mine == fresh


def test_a_timer_that_fired_after_the_move_costs_one_query(
    friendly, alice, bob, django_assert_max_num_queries
):
    """Most decision timers fire after the player moved: an unlocked read settles them."""
    hand = friendly.current_hand()
    state = hand.game()
    services.act(
        friendly, [alice, bob][state.turn], str(legal_actions(state, state.turn)[0]), hand.version
    )
    with django_assert_max_num_queries(1):
        assert services.advance(hand.pk, hand.version) is False


def test_tables_left_between_hands_cost_the_sweeper_nothing(builtin, make_player):
    """A player who closes the tab after a hand's result leaves the table open with a
    disconnected seat: the sweeper must not re-check it on every pass, for ever. It closes
    such a table once, after services.ABANDONED_AFTER; until then and after, it costs the
    sweeper the same queries whatever the number of such tables."""
    from django.utils import timezone

    from catalogue.models import Ruleset
    from mahjong.tables.models import Table
    from tests.web.tables_support import play_out

    def left_between_hands(i):
        player, other = make_player(f"gone{i}"), make_player(f"stays{i}")
        table = services.open_table(Ruleset.objects.get(slug="classic"), [player, other])
        play_out(table)
        seat = table.seats.get(index=0)
        services.connected(seat, f"chan-{i}")
        services.disconnected(seat, f"chan-{i}")
        return table

    def sweep_queries(after):
        with CaptureQueriesContext(connection) as queries:
            assert services.sweep(now=timezone.now() + after) == 0
        return len(queries)

    soon, later = services.ABANDONED_AFTER / 2, services.ABANDONED_AFTER * 2
    left_between_hands(0)
    waiting = sweep_queries(soon)
    tables = [left_between_hands(i) for i in range(1, 6)]
    assert sweep_queries(soon) == waiting
    sweep_queries(later)  # closes them all, once
    assert all(Table.objects.get(pk=t.pk).status == Table.Status.FINISHED for t in tables)
    assert sweep_queries(later) == waiting  # closed tables cost nothing
