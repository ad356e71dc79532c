"""One game at a time (issue 30, item 7): the check holds in the transaction that seats
the player (services.open_table), not only in the lobby's look before it. The races
themselves (20 simultaneous "play vs bot") are in test_table_lock_concurrency.py."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from accounts.builtin import bot_for
from catalogue.models import Ruleset
from mahjong.tables import services
from mahjong.tables.models import Match, Table

pytestmark = pytest.mark.usefixtures("no_eager_timers")


@pytest.fixture
def classic(builtin):
    return Ruleset.objects.get(slug="classic")


@pytest.fixture
def alice_at_a_bot(classic, alice):
    """alice in a hand against a bot."""
    return services.open_table(classic, [alice, bot_for("novice")])


def test_a_second_table_is_refused_while_a_hand_is_in_play(alice_at_a_bot, classic, alice):
    with pytest.raises(services.TableError):
        services.open_table(classic, [alice, bot_for("novice")])
    assert list(Table.objects.filter(seats__user=alice)) == [alice_at_a_bot]


def test_a_match_does_not_open_while_a_player_is_at_another_hand(
    alice_at_a_bot, classic, alice, bob, client_of
):
    match = Match.objects.create(
        kind=Match.Kind.PRIVATE, ruleset=classic, ranked=False, player_one=alice, player_two=bob
    )
    response = client_of(bob).get(reverse("lobby:sit_down", args=[match.public_id]))
    assert response.status_code == 302 and response.url == "/"
    assert "Alice" in str(next(iter(get_messages(response.wsgi_request))))
    assert not Table.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).state == Match.State.READY


def test_a_bot_plays_at_many_tables_at_once(alice_at_a_bot, classic, bob):
    table = services.open_table(classic, [bob, bot_for("novice")])
    assert table.seats.get(index=1).user == alice_at_a_bot.seats.get(index=1).user
