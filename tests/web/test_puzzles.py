"""Puzzles (何切, issue 35): "what would you discard?" positions from the reviews of real
finished hands where one discard is clearly the best, shown as the seat saw them, the
answer revealed only after a choice; a player's first answer counts; a daily puzzle on
the lobby and the solved count on the profile."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from lobby.puzzles import PAGE_SIZE
from mahjong.engine.game import replay, revealed_start
from mahjong.engine.views import view
from mahjong.reviews import puzzles
from mahjong.reviews import services as reviews
from mahjong.reviews.models import Puzzle, Review
from mahjong.tables import services
from mahjong.tables.presenters import tiles_of
from tests.web import test_reviews
from tests.web.tables_support import play_out

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]

# test_reviews' hand ("history-12"), its end committed and reviewed: alice wins on bob's
# discard; bob's seat has two clear-best discards, alice's none
played = test_reviews.played


def decisions(hand):
    return {
        (r.seat, d.step): d
        for r in Review.objects.filter(hand=hand)
        for d in r.engine_review().decisions
    }


def state_before(hand, step):
    state = revealed_start(hand.state, hand.seed, hand.commitment)
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


# ----- the page ---------------------------------------------------------------------------


@pytest.fixture
def puzzle(played):
    return Puzzle.objects.filter(hand=played).order_by("step").first()


def url(p):
    return reverse("lobby:puzzle", args=[p.code])


def test_the_page_shows_the_position_and_a_button_per_option_but_not_the_answer(
    puzzle, client, client_of, alice
):
    for viewer in (client, client_of(alice)):
        page = viewer.get(url(puzzle)).content.decode()
        assert "何切" in page and puzzle.hand.table.ruleset.display_name in page
        mine = puzzle.position["seats"][puzzle.seat]
        assert f'data-tiles="{mine["concealed"]}"' in page
        for o in puzzle.options:
            assert f'name="choice" value="{o["action"]}"' in page
        assert 'data-testid="puzzle-result"' not in page
        assert "review-options" not in page and "★" not in page and "data-option=" not in page
        assert "puzzle-replay" not in page and "history/hands" not in page


def test_an_answer_reveals_every_option_and_is_recorded_once(puzzle, client_of, alice):
    from mahjong.reviews.models import PuzzleAttempt

    c = client_of(alice)
    wrong = next(o["action"] for o in puzzle.options if o["action"] != puzzle.answer)
    page = c.post(url(puzzle), {"choice": wrong}).content.decode()
    assert 'data-correct="false"' in page
    for o in puzzle.options:
        row = page[page.index(f'data-option="{o["action"]}"') :]
        row = row[: row.index("</tr>")]
        assert f'<td class="num">{o["acceptance"]}</td>' in row
        assert ("★" in row) == (o["action"] == puzzle.answer)
    replay = reverse("history:replay", args=[puzzle.hand.table.public_id, puzzle.hand.number])
    assert f'href="{replay}?step={puzzle.step}"' in page
    attempt = PuzzleAttempt.objects.get(user=alice, puzzle=puzzle)
    assert (attempt.choice, attempt.correct) == (wrong, False)
    # a second answer, the right one, changes nothing: the first counts
    again = c.post(url(puzzle), {"choice": puzzle.answer}, headers={"HX-Request": "true"})
    assert 'data-correct="false"' in again.content.decode()
    assert "<html" not in again.content.decode()  # the fragment alone, over HTMX
    assert list(PuzzleAttempt.objects.values_list("choice", "correct")) == [(wrong, False)]
    # and the page shows the first answer from then on
    assert 'data-correct="false"' in c.get(url(puzzle)).content.decode()


def test_an_anonymous_visitor_may_try_without_anything_recorded(puzzle, client):
    from mahjong.reviews.models import PuzzleAttempt

    page = client.post(url(puzzle), {"choice": puzzle.answer}).content.decode()
    assert 'data-correct="true"' in page and "puzzle-recorded" not in page
    assert not PuzzleAttempt.objects.exists()
    assert 'data-testid="puzzle-result"' not in client.get(url(puzzle)).content.decode()


@pytest.mark.parametrize("forged", ["discard 9s", "hu", "", "discard 5m' or 1=1", "x" * 500])
def test_an_option_not_offered_is_refused_and_changes_nothing(puzzle, client_of, alice, forged):
    from mahjong.reviews.models import PuzzleAttempt

    if forged in puzzle.choices():
        pytest.skip("offered")
    reply = client_of(alice).post(url(puzzle), {"choice": forged})
    assert reply.status_code == 400
    assert not PuzzleAttempt.objects.exists()


def test_an_unknown_puzzle_is_a_404(client):
    assert client.get(reverse("lobby:puzzle", args=["nosuchcode"])).status_code == 404


def test_the_puzzle_list_links_each_puzzle(played, client):
    page = client.get(reverse("lobby:puzzles")).content.decode()
    for p in Puzzle.objects.all():
        assert p.get_absolute_url() in page


def test_the_puzzle_speaks_chinese_by_default_and_english_on_request(puzzle, client):
    page = client.post(url(puzzle), {"choice": puzzle.answer}).content.decode()
    assert "打哪张？" in page and "答对了！" in page and "最佳打法" in page
    client.cookies.load({"django_language": "en"})
    page = client.post(url(puzzle), {"choice": puzzle.answer}).content.decode()
    assert "What would you discard?" in page and "Correct!" in page


# ----- the daily puzzle and the profile ----------------------------------------------------


def test_the_daily_puzzle_is_stable_for_a_date_and_shown_on_the_lobby(played, client):
    import datetime

    from django.utils import timezone

    assert Puzzle.objects.count() >= 2
    day = timezone.localdate() + datetime.timedelta(days=1)  # all stored before that day
    first = puzzles.daily(day)
    assert first is not None and puzzles.daily(day) == first
    # a puzzle stored during the day does not change the day's choice
    extra = Puzzle.objects.get(pk=first.pk)
    extra.pk, extra.code, extra.step = None, "later12345", extra.step + 1000
    extra.created_at = timezone.make_aware(datetime.datetime.combine(day, datetime.time(12)))
    extra.save()
    assert puzzles.daily(day) == first
    picks = {puzzles.daily(day + datetime.timedelta(days=n)).pk for n in range(20)}
    assert len(picks) > 1  # the days go round the stored puzzles
    today = puzzles.daily(timezone.localdate())
    page = client.get("/").content.decode()
    assert 'data-testid="daily-puzzle"' in page and today.get_absolute_url() in page
    assert today.get_absolute_url() in client.get(reverse("lobby:puzzles")).content.decode()


def test_no_daily_puzzle_without_puzzles(client, db):
    from django.utils import timezone

    assert puzzles.daily(timezone.localdate()) is None
    assert 'data-testid="daily-puzzle"' not in client.get("/").content.decode()


def test_the_profile_counts_the_puzzles_solved_at_the_first_try(played, client, client_of, alice):
    mine = client_of(alice)
    profile = reverse("accounts:player", args=[alice.public_id])
    assert "首次作答答对 0 道何切题" in client.get(profile).content.decode()
    first, second = Puzzle.objects.order_by("pk")[:2]
    mine.post(url(first), {"choice": first.answer})  # right
    wrong = next(a for a in second.choices() if a != second.answer)
    mine.post(url(second), {"choice": wrong})  # wrong, then right: the first counts
    mine.post(url(second), {"choice": second.answer})
    assert puzzles.solved(alice) == 1
    assert "首次作答答对 1 道何切题" in client.get(profile).content.decode()


# ----- the list: pages, the ruleset filter, a player's marks --------------------------------

LIST = reverse("lobby:puzzles")


def play_gb_hand(alice, bob, settings, callbacks):
    """A 国标 (gb) hand between alice and bob played out and reviewed: over a page of
    puzzles of its own (the seed's hand has about fifty), stored after played's."""
    from catalogue.models import Ruleset

    settings.MAHJONG_TEST_SEED = "review-b"
    table = services.open_table(Ruleset.objects.filter(engine_slug="gb").first(), [alice, bob])
    with callbacks(execute=True):
        hand = play_out(table)
    assert hand.puzzles.count() > PAGE_SIZE, "the seed's hand no longer fills a page"
    return hand


@pytest.fixture
def many(played, alice, bob, settings, django_capture_on_commit_callbacks):
    """played's classic puzzles, then a gb hand's: more than a page, two rulesets."""
    play_gb_hand(alice, bob, settings, django_capture_on_commit_callbacks)
    return list(Puzzle.objects.order_by("-pk"))


def listed(page: str) -> list[str]:
    """The codes of the list's rows, in the page's order."""
    return re.findall(r'<li class="puzzle-item[^"]*" data-puzzle="(\w+)"', page)


def marks(page: str) -> dict[str, str]:
    return dict(re.findall(r'data-puzzle="(\w+)" data-mark="(\w+)"', page))


def ruleset_options(page: str) -> str:
    start = page.index('<select name="ruleset">')
    return page[start : page.index("</select>", start)]


def test_the_list_pages_through_every_puzzle_newest_first(many, client):
    first = client.get(LIST).content.decode()
    assert listed(first) == [p.code for p in many[:PAGE_SIZE]]
    assert f'data-testid="puzzle-count">共 {len(many)} 道何切题' in first
    # plain links, no script needed; the current page is marked for a screen reader
    assert 'aria-current="page">1</a>' in first and 'href="?page=2" rel="next"' in first
    assert 'rel="prev"' not in first
    pages = -(-len(many) // PAGE_SIZE)
    seen = []
    for n in range(1, pages + 1):
        page = client.get(LIST, {"page": n}).content.decode()
        assert f'href="?page={n}" aria-current="page">{n}</a>' in page
        assert f"第 {n} 页，共 {pages} 页" in page
        seen += listed(page)
    assert seen == [p.code for p in many]  # each once, newest first
    assert 'rel="prev"' in page and 'rel="next"' not in page  # the last page


@pytest.mark.parametrize(
    "number, which", [("abc", "first"), ("", "first"), ("1.5", "first"), ("99999", "last")]
)
def test_a_bad_page_number_is_the_first_or_the_last_page(many, client, number, which):
    """As the match history's pages (Paginator.get_page): never a 404 nor a 500."""
    reply = client.get(LIST, {"page": number})
    assert reply.status_code == 200
    last = (len(many) - 1) // PAGE_SIZE * PAGE_SIZE
    expected = many[:PAGE_SIZE] if which == "first" else many[last:]
    assert listed(reply.content.decode()) == [p.code for p in expected]


def test_the_ruleset_filter_offers_the_rulesets_with_puzzles_kept_across_pages(many, client):
    page = client.get(LIST).content.decode()
    options = ruleset_options(page)
    assert '<option value="classic">二人麻将</option>' in options
    assert '<option value="gb">国标麻将</option>' in options
    assert options.count("<option") == 3  # all, and the two with puzzles
    gb = [p.code for p in many if p.ruleset == "gb"]
    first = client.get(LIST, {"ruleset": "gb"}).content.decode()
    assert '<option value="gb" selected>' in first
    assert listed(first) == gb[:PAGE_SIZE]
    assert 'href="?ruleset=gb&page=2" rel="next"' in first  # the filter travels along
    second = client.get(LIST, {"ruleset": "gb", "page": 2}).content.decode()
    assert listed(second) == gb[PAGE_SIZE : 2 * PAGE_SIZE]
    assert 'href="?ruleset=gb&page=1" rel="prev"' in second
    classic = client.get(LIST, {"ruleset": "classic"}).content.decode()
    assert listed(classic) == [p.code for p in many if p.ruleset == "classic"]
    assert "国标麻将 ·" not in classic and 'data-testid="puzzle-pager"' not in classic
    client.cookies.load({"django_language": "en"})
    page = client.get(LIST).content.decode()
    assert '<option value="gb">Chinese Official</option>' in page and "All rulesets" in page


@pytest.mark.parametrize("value", ["<script>alert(1)</script>", "nosuch", "gb\x00", "x" * 500])
def test_an_unknown_ruleset_lists_nothing_and_says_so(many, client_of, alice, value):
    for viewer in (client_of(alice), Client()):
        reply = viewer.get(LIST, {"ruleset": value, "unsolved": "1"})
        assert reply.status_code == 200
        page = reply.content.decode()
        assert listed(page) == [] and "没有符合条件的何切题。" in page
        assert "<script>alert" not in page and " selected" not in ruleset_options(page)
        assert f'href="{LIST}">全部何切题</a>' in page


def test_a_player_sees_each_puzzle_marked_solved_missed_or_new(many, client_of, alice, bob):
    mine = client_of(alice)
    right, wrong = many[0], many[1]
    mine.post(url(right), {"choice": right.answer})
    mine.post(url(wrong), {"choice": next(a for a in wrong.choices() if a != wrong.answer)})
    client_of(bob).post(url(many[2]), {"choice": many[2].answer})  # someone else's answer
    page = mine.get(LIST).content.decode()
    shown = marks(page)
    assert shown.pop(right.code) == "solved" and shown.pop(wrong.code) == "missed"
    assert set(shown.values()) == {"new"} and len(shown) == len(listed(page)) - 2
    # the mark is a word, not a colour alone
    row = page[page.index(f'data-puzzle="{right.code}"') :]
    assert "答对</span>" in row[: row.index("</li>")]
    row = page[page.index(f'data-puzzle="{wrong.code}"') :]
    assert "答错</span>" in row[: row.index("</li>")]
    row = page[page.index(f'data-puzzle="{many[2].code}"') :]
    assert "未作答</span>" in row[: row.index("</li>")]
    assert 'name="unsolved" value="1"' in page  # its filter, for a player only
    mine.cookies.load({"django_language": "en"})
    page = mine.get(LIST).content.decode()
    assert "Solved</span>" in page and "Missed</span>" in page and "New</span>" in page


def test_a_player_may_list_only_the_puzzles_not_answered_yet(many, client_of, alice):
    mine = client_of(alice)
    answered = [many[0], many[3], many[-1]]
    for p in answered:
        mine.post(url(p), {"choice": p.answer})
    left = [p.code for p in many if p not in answered]
    page = mine.get(LIST, {"unsolved": "1"}).content.decode()
    assert listed(page) == left[:PAGE_SIZE] and set(marks(page).values()) == {"new"}
    assert 'name="unsolved" value="1" checked' in page
    assert 'href="?unsolved=1&page=2" rel="next"' in page
    rest = mine.get(LIST, {"unsolved": "1", "page": 2}).content.decode()
    assert listed(page) + listed(rest) == left
    classic = [p.code for p in many if p.ruleset == "classic" and p not in answered]
    both = mine.get(LIST, {"unsolved": "1", "ruleset": "classic"}).content.decode()
    assert listed(both) == classic
    # all answered: the list says so
    for p in Puzzle.objects.filter(ruleset="classic"):
        mine.post(url(p), {"choice": p.answer})
    done = mine.get(LIST, {"unsolved": "1", "ruleset": "classic"}).content.decode()
    assert listed(done) == [] and "这里的何切题你都已作答。" in done


def test_a_visitor_sees_no_marks_and_no_unsolved_filter(many, client, alice, client_of):
    client_of(alice).post(url(many[0]), {"choice": many[0].answer})
    page = client.get(LIST).content.decode()
    assert marks(page) == {} and 'name="unsolved"' not in page
    assert "答对" not in page and "未作答" not in page
    assert listed(client.get(LIST, {"unsolved": "1"}).content.decode()) == listed(page)


def test_the_list_reads_no_answer_nor_measure(many, client_of, alice):
    """A row shows the seat's hand, as its page does before an answer; the options, their
    numbers and the answer are not even read."""
    with CaptureQueriesContext(connection) as queries:
        page = client_of(alice).get(LIST).content.decode()
    read = " ".join(q["sql"] for q in queries if '"reviews_puzzle"' in q["sql"])
    for column in ("options", "answer", "bot", "chosen"):
        assert f'"reviews_puzzle"."{column}"' not in read, column
    assert "★" not in page and "data-option=" not in page and "review-options" not in page
    p = many[0]
    row = page[page.index(f'data-puzzle="{p.code}"') :]
    row = row[: row.index("</li>")]
    mine = p.position["seats"][p.seat]
    assert row.count("<img ") == len(tiles_of(mine["concealed"])) + bool(mine["drawn"])
    assert "data-tile" not in row  # the tiles carry no notation a script could read


def test_the_list_costs_the_same_queries_for_two_puzzles_or_sixty(
    played,
    alice,
    bob,
    client_of,
    settings,
    django_capture_on_commit_callbacks,
    django_assert_max_num_queries,
):
    """The marks come in the page's own query: no query per row."""
    mine = client_of(alice)

    def cost():
        with CaptureQueriesContext(connection) as queries:
            assert mine.get(LIST).status_code == 200
        return len(queries)

    for p in Puzzle.objects.all():  # marked solved and missed
        mine.post(url(p), {"choice": p.choices()[0]})
    few = cost()
    play_gb_hand(alice, bob, settings, django_capture_on_commit_callbacks)
    for p in Puzzle.objects.filter(ruleset="gb")[:10]:
        mine.post(url(p), {"choice": p.answer})
    assert cost() == few
    # the session and its user, the rulesets, the daily puzzle (3 on the puzzles' first
    # day: reviews.puzzles.daily), the count, the page with its marks
    with django_assert_max_num_queries(8):
        page = mine.get(LIST, {"page": 2}).content.decode()
    assert marks(page)
