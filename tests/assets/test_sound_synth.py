"""The sound synthesizer: valid, short, small WAV files, deterministic and committed."""

import io
import wave
from pathlib import Path

import pytest

from mahjong.assets import sounds

ROOT = Path(__file__).resolve().parents[2]
STATIC_SOUNDS = ROOT / "static" / "sounds"
NAMES = ["draw", "discard", "claim", "win", "tick"]


@pytest.fixture(scope="module")
def generated():
    return sounds.generate()


@pytest.mark.parametrize("name", NAMES)
def test_each_effect_is_a_small_short_mono_wav(generated, name):
    data = generated[f"{name}.wav"]
    assert len(data) < 30_000
    with wave.open(io.BytesIO(data)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 16_000)
        seconds = w.getnframes() / w.getframerate()
        frames = w.readframes(w.getnframes())
    assert 0.03 <= seconds <= 0.9
    samples = memoryview(frames).cast("h")
    assert max(abs(s) for s in samples) > 20_000  # audible, normalised
    assert abs(samples[-1]) < 500  # faded out: no click at the end


def test_the_tick_is_short_enough_for_once_a_second(generated):
    with wave.open(io.BytesIO(generated["tick.wav"])) as w:
        assert w.getnframes() / w.getframerate() <= 0.1


def test_generating_twice_gives_identical_bytes(generated):
    assert sounds.generate() == generated


def test_the_committed_files_are_a_fresh_generation(generated):
    committed = {p.name: p.read_bytes() for p in STATIC_SOUNDS.glob("*.wav")}
    assert committed == generated, "run `python -m mahjong.assets.sounds` and commit static/sounds/"


def test_the_script_knows_every_effect():
    script = (ROOT / "static" / "js" / "sounds.js").read_text()
    assert 'var NAMES = ["draw", "discard", "claim", "win", "tick"];' in script
    assert sorted(NAMES) == sorted(sounds.SOUNDS)
