"""Hidden information never reaches a player: every WebSocket message, every action
response and every page sent to seat 0 over whole random games, in every two-player
ruleset, is exactly what the same situation renders with the opponent's concealed tiles
(and drawn tile) exchanged for wall tiles and the wall reordered. A payload that depended
on the opponent's tiles or on the wall would differ."""

import random
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.template.loader import render_to_string
from django.test import Client

from accounts.models import User
from catalogue.models import Ruleset
from mahjong.asgi import application
from mahjong.engine.game import legal_actions
from mahjong.engine.state import GameState
from mahjong.tables import presenters, services, watchers
from mahjong.tables.models import Hand
from tests.web.tables_support import run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_eager_timers")]

RULESETS = ["classic", "quesheng", "tiao72", "gb", "wenzhou"]
SECTION = re.compile(r'<section class="mj-table".*?</section>', re.S)
VERSION = re.compile(r'data-version="(\d+)"')


def hide_differently(state: GameState, hidden: int) -> GameState | None:
    """The same public situation, the hidden seat holding other tiles from the wall."""
    player = state.seat(hidden)
    need = len(player.concealed) + (player.drawn is not None)
    if len(state.live) < need:
        return None
    taken, rest = state.live[:need], state.live[need:]
    drawn = taken[-1] if player.drawn is not None else None
    concealed = tuple(sorted(taken[: len(player.concealed)]))
    live = tuple(reversed(rest + player.hand))
    return state.replace_seat(hidden, concealed=concealed, drawn=drawn).evolve(live=live)


def reorder_wall(state: GameState) -> GameState:
    return state.evolve(live=tuple(reversed(state.live)), reserve=tuple(reversed(state.reserve)))


def snapshot_of(hand: Hand) -> dict:
    """What a rendering of this version reads besides the state, kept to re-render it."""
    fields = ("version", "state", "deadline", "result", "seed", "held")
    return {name: getattr(hand, name) for name in fields}


def as_hand(real: Hand, state: GameState, snapshot: dict) -> Hand:
    return Hand(
        pk=real.pk,
        table=real.table,
        number=real.number,
        state=state.to_dict(),
        version=snapshot["version"],
        commitment=real.commitment,
        next_commitment=real.next_commitment,  # public: the result panel shows it
        seed=snapshot["seed"],
        deadline=snapshot["deadline"],
        result=snapshot["result"],
        held=snapshot["held"],
    )


def page_section(table, seat, hand) -> str:
    html = render_to_string("tables/table.html", presenters.context_for(table, seat, hand))
    return SECTION.search(html).group(0)


def test_nothing_sent_to_a_seat_depends_on_hidden_tiles(redis_layer, alice, settings):
    settings.TABLES_ACTION_RATE = 1000  # clicks as fast as the server answers: no "slow down"
    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    client = Client()
    client.force_login(alice)
    rng = random.Random(20261130)
    swapped_hands = checked = 0

    for slug in RULESETS:
        table = services.open_table(
            Ruleset.objects.get(slug=slug), [alice, bot], bot_level="random"
        )
        snapshots, payloads = {}, []  # version -> hand facts; (kind, version, text)

        def remember():
            hand = Hand.objects.get(table=table)
            snapshots[hand.version] = snapshot_of(hand)
            return hand

        def step() -> bool:
            """One move: seat 0 by a random click over HTTP, seat 1 by its bot timer."""
            hand = remember()
            state = hand.game()
            if state.ended:
                return True
            if state.turn == 0:
                action = rng.choice(legal_actions(state, 0))
                reply = client.post(
                    f"{table.get_absolute_url()}act/",
                    {"action": str(action), "version": hand.version},
                    headers={"HX-Request": "true"},
                )
                held = Hand.objects.get(table=table)
                # a pass before the claim pause's end: the reply renders it held (no
                # buttons), then the pause's timer plays it
                payloads.append(("act", reply.content.decode(), snapshot_of(held)))
                if held.held:
                    assert services.advance(hand.pk, hand.version)
            else:
                assert services.advance(hand.pk, hand.version)
            page = client.get(table.get_absolute_url()).content.decode()
            payloads.append(("page", SECTION.search(page).group(0)))
            remember()
            return Hand.objects.get(table=table).game().ended

        ws = WebsocketCommunicator(
            application,
            f"/ws/tables/{table.public_id}/",
            headers=[
                (b"host", b"testserver"),
                (b"origin", b"http://testserver"),
                (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
            ],
        )

        async def play():
            assert (await ws.connect())[0]
            payloads.append(("snapshot", await ws.receive_from(5)))
            for _ in range(400):
                done = await database_sync_to_async(step)()
                payloads.append(("ws", await ws.receive_from(5)))
                if done:
                    break
            await ws.disconnect()

        run(play)
        real = Hand.objects.get(table=table)
        assert real.game().ended, slug

        for kind, text, *seen in payloads:
            version = int(VERSION.search(text).group(1))
            snap = seen[0] if seen else snapshots[version]
            state = GameState.from_dict(snap["state"])
            alternatives = [reorder_wall(state)]
            if not state.ended:
                other = hide_differently(state, 1)
                if other is not None and other.seat(1).hand != state.seat(1).hand:
                    alternatives.append(other)
                    swapped_hands += 1
                # before the end, the opponent's area shows a count of backs, no own tile
                opponent = text[text.index('id="mj-opponent"') : text.index('id="mj-rivers"')]
                assert f'data-count="{len(state.seat(1).hand)}"' in opponent
                assert "data-tile" not in opponent
            for alt in alternatives:
                hand = as_hand(real, alt, snap)
                expected = (
                    page_section(table, 0, hand)
                    if kind == "page"
                    else presenters.fragments(table, 0, hand=hand)
                )
                if kind == "snapshot":  # a connect's: the count of spectators too
                    expected += watchers.fragment(table.pk)
                assert text == expected, (slug, kind, version)
                checked += 1

    assert swapped_hands > 100 and checked > 500
