"""The room art generator: one banner per room level, valid SVG, small, deterministic,
committed, and a path for any room however many the operator opens."""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mahjong.assets import rooms as art

STATIC_ROOMS = Path(__file__).resolve().parents[2] / "static" / "lobby" / "rooms"
SVG_NS = "{http://www.w3.org/2000/svg}"
NAMES = [f"room-{n}.svg" for n in range(1, 6)]


def test_there_is_one_banner_per_level():
    assert sorted(art.generate()) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_each_banner_is_svg_without_text_or_outside_references(name):
    text = art.generate()[name]
    root = ET.fromstring(text)
    assert root.tag == f"{SVG_NS}svg" and root.get("viewBox") == "0 0 320 120"
    assert root.get("preserveAspectRatio") == "xMidYMid slice"  # a card crops it to the middle
    assert root.find(f".//{SVG_NS}text") is None  # no words: the card's heading names the room
    assert "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert len(text.encode()) < 8_000  # the five together stay a few kB of the lobby's load


def test_the_levels_differ_and_each_higher_one_has_more_beans():
    files = art.generate()
    assert len(set(files.values())) == 5
    coins = [files[name].count('href="#bean"') for name in NAMES]
    assert coins == sorted(coins) and len(set(coins)) == 5


def test_every_place_in_the_lobby_has_art():
    assert art.path(1) == "lobby/rooms/room-1.svg"
    assert art.path(5) == art.path(9) == "lobby/rooms/room-5.svg"


def test_generating_twice_gives_identical_bytes():
    assert art.generate() == art.generate()


def test_the_committed_files_are_a_fresh_generation(tmp_path):
    art.write(tmp_path)
    fresh = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    committed = {p.name: p.read_bytes() for p in STATIC_ROOMS.glob("*.svg")}
    stale = sorted(n for n in fresh if committed.get(n) != fresh[n])
    assert stale == [], "run `python -m mahjong.assets.rooms` and commit static/lobby/rooms/"
    assert sorted(committed) == sorted(fresh)
