"""The lobby's room cards (issue 32): each room a card with its art, its name, who plays
there now, its stakes and one primary button; the counts in a fixed number of queries."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from catalogue.models import RoomTier
from mahjong.tables import services

pytestmark = pytest.mark.django_db

SLUGS = ["novice", "normal", "junior", "intermediate", "senior"]


def cards(html: str) -> dict[str, str]:
    """{room slug: the card's markup} in the page's order."""
    bodies = re.findall(r'<article class="tier card.*?</article>', html, re.S)
    return {re.search(r'id="tier-([a-z-]+)"', body).group(1): body for body in bodies}


def playing(card: str) -> str:
    return re.search(r'<p class="playing[^"]*"[^>]*>(.*?)</p>', card, re.S).group(1).strip()


def seat(tier_slug, *players):
    tier = RoomTier.objects.get(slug=tier_slug)
    return services.open_table(
        tier.ruleset, list(players), tier=tier, beans_per_point=tier.beans_per_point
    )


def a_bot():
    return User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()


def test_each_room_is_a_card_with_its_own_art_its_name_and_one_primary_button(alice, client_of):
    page = cards(client_of(alice).get("/").content.decode())
    assert list(page) == SLUGS
    for place, (slug, card) in enumerate(page.items(), start=1):
        # the art is the project's own SVG, decorative: the heading names the room
        art = re.findall(r"<img [^>]*>", card)
        assert len(art) == 1 and 'alt=""' in art[0], art
        assert f'src="/static/lobby/rooms/room-{place}.svg"' in art[0]
        assert f'aria-labelledby="tier-{slug}-name"' in card
        assert re.search(rf'<h3 id="tier-{slug}-name">[^<]+</h3>', card)
        assert card.count("button primary") == 1 and f'id="quick-{slug}"' in card
        assert playing(card) == "0 人在玩"
    assert "1,000 – 60,000" in page["novice"] and "正在等待" in page["novice"]


def test_a_visitor_gets_one_primary_button_on_each_card_to_log_in(builtin, client):
    page = cards(client.get("/").content.decode())
    for card in page.values():
        assert card.count("button primary") == 1 and "登录后开始" in card
        assert "<form" not in card  # no quick match button to press before logging in


def test_a_card_counts_the_people_playing_in_its_room_and_not_the_bots(
    alice, bob, make_player, client_of
):
    seat("novice", alice, bob)
    seat("normal", make_player("carol", beans=10_000), a_bot())
    page = cards(client_of(make_player("dora")).get("/").content.decode())
    assert playing(page["novice"]) == "2 人在玩"
    assert 'class="playing now"' in page["novice"]
    assert playing(page["normal"]) == "1 人在玩"  # carol; the bot that filled the seat is no one
    for slug in ["junior", "intermediate", "senior"]:
        assert playing(page[slug]) == "0 人在玩"
        assert 'class="playing now"' not in page[slug]


def test_the_english_card_says_how_many_play(alice, bob, client_of):
    seat("novice", alice, bob)
    c = client_of(alice)
    c.cookies["django_language"] = "en"
    page = cards(c.get("/", headers={"Accept-Language": "en"}).content.decode())
    assert playing(page["novice"]) == "2 playing now"
    assert playing(page["senior"]) == "0 playing now"


def test_a_closed_table_or_a_bot_game_outside_the_rooms_counts_for_no_room(
    alice, bob, outsider, client_of, bot_table
):
    table = seat("novice", bob, outsider)
    services.close_by_operator(table.pk)  # the hand called off, the table closed
    page = cards(client_of(alice).get("/").content.decode())
    # alice plays the bot from "play vs bot": no room's table
    assert [playing(card) for card in page.values()] == ["0 人在玩"] * 5


def test_the_counts_cost_the_same_queries_for_one_table_or_many(
    alice, bob, make_player, client_of, htmx
):
    c = client_of(make_player("dora"))

    def refresh() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert c.get("/", headers=htmx(target="tiers")).status_code == 200
        return len(queries)

    seat("novice", alice, bob)
    one = refresh()
    for n in range(4):
        seat(SLUGS[n % 2], make_player(f"p{n}a", beans=10_000), make_player(f"p{n}b", beans=10_000))
    html = c.get("/", headers=htmx(target="tiers")).content.decode()
    assert refresh() == one
    assert playing(cards(html)["novice"]) == "6 人在玩"
    assert playing(cards(html)["normal"]) == "4 人在玩"
