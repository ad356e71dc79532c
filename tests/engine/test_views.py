"""What each viewer may see (issue 2 item 6): own tiles, the opponent's count, never the
wall order, the seed only after the end."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong.engine.actions import parse_action
from mahjong.engine.game import apply, escape, legal_actions, new_hand
from mahjong.engine.invariants import check_views
from mahjong.engine.scripted import scripted_hand
from mahjong.engine.tiles import format_tiles
from mahjong.engine.views import event_for, view


def _text(shown):
    return json.dumps(shown, ensure_ascii=False)


def test_a_player_sees_their_own_tiles_and_only_the_opponents_count():
    state = scripted_hand(
        "classic", dealer_hand="11122m59m4445566z", other_hand="3455567m112233z", draws="7z"
    )
    state, _ = apply(state, 0, parse_action("discard 4z"))
    mine, theirs = view(state, 1), view(state, 0)
    assert mine["seats"][1]["concealed"] == "3455567m112233z" and mine["seats"][1]["drawn"] == "7z"
    assert mine["seats"][0]["concealed"] is None and mine["seats"][0]["concealed_count"] == 13
    assert theirs["seats"][1]["concealed"] is None and theirs["seats"][1]["drawn"] is None
    assert theirs["seats"][1]["concealed_count"] == 14 and theirs["seats"][1]["has_drawn"]
    assert mine["legal_actions"][0].startswith(("discard", "ting", "hu"))
    assert theirs["legal_actions"] == []


def test_a_spectator_sees_no_concealed_tiles_and_no_actions():
    state = new_hand("gb", b"spectate")
    shown = view(state, None)
    assert [s["concealed"] for s in shown["seats"]] == [None, None]
    assert shown["legal_actions"] == []
    assert shown["wall"] == {"live": len(state.live), "reserve": 0}


def test_an_opponents_concealed_kong_shows_without_its_tiles():
    state = scripted_hand(
        "classic", dealer_hand="1111m234m567m1z222z", other_hand="5689m113344556z", back="9m"
    )
    state, events = apply(state, 0, parse_action("ankan 1111m"))
    assert view(state, 1)["seats"][0]["melds"] == ["ankan"]
    assert view(state, None)["seats"][0]["melds"] == ["ankan"]
    assert view(state, 0)["seats"][0]["melds"] == ["ankan 1111m"]
    kong = events[0]
    assert event_for(kong, 1) == {"type": "ankan", "seat": 0, "private": 0}
    assert event_for(kong, 0)["meld"] == "ankan 1111m"


def test_draw_events_show_the_tile_only_to_the_drawer():
    state = scripted_hand(
        "classic", dealer_hand="11122m59m4445566z", other_hand="3455567m112233z", draws="7z"
    )
    _, events = apply(state, 0, parse_action("discard 4z"))
    draw = events[-1]
    assert event_for(draw, 1)["tile"] == "7z"
    assert "tile" not in event_for(draw, 0) and "tile" not in event_for(draw, None)
    assert "7z" not in _text(event_for(draw, None))


def test_the_seed_and_both_hands_are_revealed_only_at_the_end():
    state = new_hand("classic", b"reveal")
    for viewer in (0, 1, None):
        shown = view(state, viewer)
        assert "seed" not in shown and state.seed.hex() not in _text(shown)
        assert shown["commitment"] == state.commitment
    ended, _ = escape(state, 0)
    for viewer in (0, 1, None):
        shown = view(ended, viewer)
        assert shown["seed"] == state.seed.hex() and shown["salt"] == state.salt.hex()
        assert [s["concealed"] for s in shown["seats"]] == [
            format_tiles(p.concealed) for p in state.seats
        ]
        assert shown["outcome"]["kind"] == "escape"


@pytest.mark.parametrize("slug", ["classic", "stage", "quesheng", "tiao72", "gb", "wenzhou"])
def test_no_view_leaks_the_wall_order(slug):
    state = new_hand(slug, slug.encode())
    assert check_views(state) == []
    wall = format_tiles(state.live)
    assert all(wall not in _text(view(state, v)) for v in (0, 1, None))


def test_wenzhou_views_show_the_indicator_and_the_wild():
    state = scripted_hand(
        "wenzhou", dealer_hand="111234567899m11122z", other_hand="12345667899p11123s", back="3m"
    )
    shown = view(state, None)
    assert shown["indicator"] == "3m" and shown["wild"] == "3m"


def test_views_are_plain_json():
    state = new_hand("wenzhou", b"json")
    for viewer in (0, 1, None):
        shown = view(state, viewer)
        assert json.loads(_text(shown)) == shown


# ----- indistinguishability: hidden tiles do not change what a viewer gets ---------------


def _hide_differently(state, hidden_seat):
    """The same public situation with the hidden seat's concealed tiles exchanged for
    tiles from the live wall, and the wall reversed."""
    player = state.seat(hidden_seat)
    n = len(player.concealed)
    if len(state.live) < n:
        return None
    swapped = tuple(sorted(state.live[:n]))
    live = tuple(reversed(player.concealed + state.live[n:]))
    return state.replace_seat(hidden_seat, concealed=swapped).evolve(live=live)


@pytest.mark.parametrize("slug", ["classic", "wenzhou", "gb"])
@settings(max_examples=10, deadline=None)
@given(seed=st.binary(min_size=2, max_size=8), steps=st.integers(min_value=0, max_value=40))
def test_a_viewer_cannot_tell_hidden_tiles_apart(slug, seed, steps):
    state = new_hand(slug, seed)
    for step in range(steps):
        if state.phase == "ended":
            return
        actions = legal_actions(state, state.turn)
        state, _ = apply(state, state.turn, actions[step % len(actions)])
    if state.phase == "ended":
        return
    for viewer in (0, None):
        other = _hide_differently(state, 1)
        if other is not None:
            assert view(other, viewer) == view(state, viewer)


def test_the_haidi_tile_being_decided_is_public():
    state = scripted_hand(
        "classic",
        dealer_hand="11122m59m4445566z",
        other_hand="67m123m111z222z33z",
        reserve="9m8m3z",
    )
    state = state.evolve(live=(), unused=state.live)
    state, _ = apply(state, 0, parse_action("discard 9m"))
    assert view(state, 0)["haidi"] == {"seat": 1, "shown": "9m", "drawn": "8m"}
    assert view(state, 0)["seats"][1]["concealed"] is None
