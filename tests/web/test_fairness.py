"""The fairness proof (issue 30 item 9): the whole commitment on every screen from the
hand's first push, for the players and the spectators; the wall no one can choose: the
server's commitment for a hand is shown before the players' values are taken, the values
change the wall, and a seat without one is said to use the server's seed only."""

import hashlib
import re

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from lobby import replays
from mahjong.asgi import application
from mahjong.engine.game import new_hand
from mahjong.engine.wall import wall_seed
from mahjong.tables.models import Seat
from tests.web.tables_support import play_out, private_table, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_eager_timers")]


def socket(table, user, path=""):
    client = Client()
    client.force_login(user)
    headers = [
        (b"host", b"testserver"),
        (b"origin", b"http://testserver"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
    ]
    return WebsocketCommunicator(
        application, f"/ws/tables/{table.public_id}/{path}", headers=headers
    )


def first_push(ws) -> str:
    async def scenario():
        assert (await ws.connect())[0]
        snapshot = await ws.receive_from(10)
        await ws.disconnect()
        return snapshot

    return run(scenario)


def test_the_first_push_shows_the_whole_commitment_to_a_player_and_a_spectator(
    redis_layer, duel, alice, outsider
):
    commitment = duel.current_hand().commitment
    assert len(commitment) == 64
    for ws in (socket(duel, alice), socket(duel, outsider, "watch/")):
        push = first_push(ws)
        assert f"<code>{commitment}</code>" in push


@pytest.mark.parametrize(
    "language, said", [("en", "SHA-256(seed ‖ salt)"), ("zh-hans", "SHA-256(种子 ‖ 盐)")]
)
def test_the_verify_page_states_exactly_what_is_hashed(client, language, said):
    client.cookies.load({"django_language": language})
    page = client.get(reverse("history:verify")).content.decode()
    assert said in page and "mahjong-salt|" in page
    assert "the SHA-256 of the wall's secret seed" not in page


# ----- the wall no one can choose --------------------------------------------------------

MINE, THEIRS = "ab" * 32, "0f" * 32


def next_hand(client_of, user, table, number, contribution=None):
    data = {"hand": number}
    if contribution is not None:
        data["contribution"] = contribution
    return (
        client_of(user)
        .post(reverse("tables:next", args=[table.public_id]), data, HTTP_HX_REQUEST="true")
        .content.decode()
    )


def ended(table):
    hand = play_out(table)
    assert hand.next_commitment and hand.next_seed
    return hand


def test_the_next_hands_commitment_is_on_the_result_before_any_contribution(alice, bob, client_of):
    table = private_table(alice, bob)
    first = ended(table)
    page = client_of(alice).get(table.get_absolute_url()).content.decode()
    assert f"<code>{first.next_commitment}</code>" in page  # shown, bound, before the clicks
    assert first.next_seed not in page
    next_hand(client_of, alice, table, 1, MINE)
    assert table.current_hand().number == 1  # bob has not clicked: nothing dealt yet
    next_hand(client_of, bob, table, 1, THEIRS)
    second = table.current_hand()
    state = second.game()
    assert second.number == 2 and second.commitment == first.next_commitment
    assert state.seed.hex() == first.next_seed and state.contributions == (MINE, THEIRS)
    # the players' values changed the wall: the server's seed alone deals another
    alone = new_hand(state.ruleset, state.seed, session=state.session)
    assert state.live != alone.live
    assert (
        state.live
        == new_hand(
            state.ruleset, state.seed, session=state.session, contributions=(MINE, THEIRS)
        ).live
    )
    assert not Seat.objects.filter(table=table).exclude(contribution="").exists()


def test_the_opponent_sees_the_hash_of_a_value_and_a_second_click_cannot_change_it(
    alice, bob, client_of
):
    table = private_table(alice, bob)
    ended(table)
    next_hand(client_of, alice, table, 1, MINE)
    next_hand(client_of, alice, table, 1, THEIRS)  # another tab, another value: kept first
    assert Seat.objects.get(table=table, index=0).contribution == MINE
    page = client_of(bob).get(table.get_absolute_url()).content.decode()
    assert hashlib.sha256(bytes.fromhex(MINE)).hexdigest() in page and MINE not in page


@pytest.mark.parametrize("bad", ["xyz", "ab" * 31, "ab" * 33, "ab" * 31 + "zz"])
def test_a_malformed_value_is_refused_and_changes_nothing(alice, bob, client_of, bad):
    table = private_table(alice, bob)
    ended(table)
    html = next_hand(client_of, alice, table, 1, bad)
    assert "64 位十六进制" in html
    seat = Seat.objects.get(table=table, index=0)
    assert not seat.ready_next and seat.contribution == ""


def test_a_bots_seat_is_the_server_seeds_alone_and_the_hand_page_says_so(
    bot_table, alice, client_of, client
):
    ended(bot_table)
    next_hand(client_of, alice, bot_table, 1, MINE)
    second = ended(bot_table)
    assert second.game().contributions == (MINE, "")
    assert replays.rebuild(second)[-1].state.to_dict() == second.state  # the replay too
    client.cookies.load({"django_language": "en"})
    url = reverse("history:hand", args=[bot_table.public_id, 2])
    page = client.get(url).content.decode()
    assert "None: server seed only for seat 1." in page and MINE in page
    assert wall_seed(bytes.fromhex(second.seed), (MINE, "")).hex() in page
    assert second.next_seed not in page
    # its verify link carries the values, and the page's check passes with them
    link = re.search(r'href="(/history/verify/\?[^"]+)"', page).group(1).replace("&amp;", "&")
    verdict = client.get(link).content.decode()
    assert 'data-ok="true"' in verdict and "Server seed only for seat 1." in verdict
    # the first hand was dealt as the table opened: the server's seed only, for both
    first = client.get(reverse("history:hand", args=[bot_table.public_id, 1])).content.decode()
    assert "server seed only for seat 0" in first and "server seed only for seat 1" in first
