"""Puzzles (何切, issue 35): "what would you discard?" positions from the reviews of real
finished hands where one discard is clearly the best, shown as the seat saw them, the
answer revealed only after a choice; a player's first answer counts; a daily puzzle on
the lobby and the solved count on the profile."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from mahjong.engine.game import replay
from mahjong.engine.review import hand_start
from mahjong.engine.views import view
from mahjong.reviews import puzzles
from mahjong.reviews import services as reviews
from mahjong.reviews.models import Puzzle, Review
from mahjong.tables import services
from tests.web.tables_support import play_out

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]

SEED = "history-12"  # alice wins on bob's discard; bob's seat has two clear discards


@pytest.fixture
def played(alice, bob, settings, django_capture_on_commit_callbacks):
    from catalogue.models import RoomTier

    tier = RoomTier.objects.get(slug="novice")
    settings.MAHJONG_TEST_SEED = SEED
    table = services.open_table(
        tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
    )
    with django_capture_on_commit_callbacks(execute=True):
        hand = play_out(table)
    return hand


def decisions(hand):
    return {
        (r.seat, d.step): d
        for r in Review.objects.filter(hand=hand)
        for d in r.engine_review().decisions
    }


def state_before(hand, step):
    state = hand_start(hand.state, hand.seed)
    return replay(state, [(seat, action) for seat, action, _by in hand.moves()[:step]])[0]


# ----- which decisions make puzzles -------------------------------------------------------


def test_only_discards_with_one_clearly_best_option_become_puzzles(played):
    made = {(p.seat, p.step): p for p in Puzzle.objects.filter(hand=played)}
    assert made  # the hand has some
    for key, d in decisions(played).items():
        best = puzzles.clear_best(d)
        assert (key in made) == (best is not None), key
        if best is None:
            continue
        p = made[key]
        assert p.answer == best.action == d.best[0] and len(d.best) == 1
        assert d.kind == "discard" and len(p.options) >= puzzles.MIN_OPTIONS
        others = [o for o in d.options if o.action != p.answer]
        assert all(
            o.shanten > best.shanten
            or (o.shanten == best.shanten and best.acceptance - o.acceptance >= puzzles.MARGIN)
            for o in others
        )
        assert p.options == [
            {
                "action": o.action,
                "tile": o.action.split()[1],
                "shanten": o.shanten,
                "acceptance": o.acceptance,
                "tiles": o.tiles,
            }
            for o in d.options
        ]
        assert (p.chosen, p.bot, p.ruleset) == (d.chosen, d.bot, "classic")


def test_a_best_by_a_tile_or_two_or_a_tie_is_no_puzzle(played):
    found = decisions(played)
    # alice's second discard: 7z accepts 15 tiles, four others 14 at the same shanten
    narrow = found[(0, 2)]
    assert narrow.best == ("discard 7z",) and narrow.kind == "discard"
    assert puzzles.clear_best(narrow) is None
    tie = found[(0, 10)]  # two best discards
    assert len(tie.best) == 2 and puzzles.clear_best(tie) is None
    claim = found[(0, 1)]
    assert puzzles.clear_best(claim) is None
    assert not Puzzle.objects.filter(hand=played, seat=0, step__in=(1, 2, 10)).exists()


def test_the_position_holds_only_what_the_seat_saw(played):
    for p in Puzzle.objects.filter(hand=played):
        seen = view(state_before(played, p.step), p.seat)
        assert seen["legal_actions"] == p.choices()  # the position the options came from
        assert p.position == puzzles.seen(seen)
        mine, theirs = p.position["seats"][p.seat], p.position["seats"][1 - p.seat]
        assert mine["concealed"] == seen["seats"][p.seat]["concealed"] and mine["concealed"]
        assert theirs["concealed"] is None and theirs["drawn"] is None
        assert theirs["concealed_count"] == seen["seats"][1 - p.seat]["concealed_count"]
        stored = str(p.position)
        for secret in ("seed", "salt", "outcome", "commitment", "legal_actions", "live_tiles"):
            assert secret not in stored
        # the opponent's concealed tiles at that moment appear nowhere in the position
        hidden = view(state_before(played, p.step), 1 - p.seat)["seats"][1 - p.seat]
        assert hidden["concealed"] not in stored


def test_puzzles_are_stored_once_and_the_command_backfills_them(played, capsys):
    before = list(Puzzle.objects.values_list("pk", "code", "step"))
    assert reviews.review(played.pk) == 0
    assert puzzles.create(played, [r.engine_review() for r in played.reviews.all()]) == 0
    Puzzle.objects.all().delete()
    call_command("make_puzzles")
    assert f"1 hands looked at, {len(before)} puzzles stored." in capsys.readouterr().out
    assert sorted(Puzzle.objects.values_list("step", flat=True)) == sorted(s for *_, s in before)
    call_command("make_puzzles")
    assert "0 puzzles stored" in capsys.readouterr().out
