"""Sound effects synthesized from sine waves and seeded noise, standard library only.

``python -m mahjong.assets.sounds [OUT_DIR]`` writes draw, discard, claim, win and tick
as 16-bit mono WAV files at 16 kHz into static/sounds/ (or OUT_DIR), each under 30 KB.
The noise comes from a fixed linear congruential generator, so every run writes the same
bytes; static/js/sounds.js plays them.
"""

from __future__ import annotations

import io
import math
import struct
import sys
import wave
from pathlib import Path

from .files import write_files

RATE = 16_000
OUT_DIR = Path(__file__).resolve().parents[2] / "static" / "sounds"
MAX_BYTES = 30_000


def _noise(seed: int):
    state = seed
    while True:
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        yield state / 0x3FFFFFFF - 1.0


def _mix(into: list[float], sound: list[float], at: float = 0.0) -> list[float]:
    start = int(at * RATE)
    if len(into) < start + len(sound):
        into.extend([0.0] * (start + len(sound) - len(into)))
    for i, value in enumerate(sound):
        into[start + i] += value
    return into


def tone(
    freq: float,
    seconds: float,
    *,
    decay: float,
    amp: float = 1.0,
    partials: tuple[tuple[float, float], ...] = ((1, 1),),
    attack: float = 0.004,
) -> list[float]:
    """A struck tone: partials (ratio, weight) under an exponential decay (per second)."""
    n = int(RATE * seconds)
    out = []
    for i in range(n):
        t = i / RATE
        env = min(1.0, t / attack) * math.exp(-decay * t)
        out.append(amp * env * sum(w * math.sin(2 * math.pi * freq * r * t) for r, w in partials))
    return out


def click(seconds: float, *, seed: int, decay: float, amp: float, smooth: float) -> list[float]:
    """A noise burst through a one-pole low-pass (smooth 0..1: higher is duller)."""
    noise = _noise(seed)
    out, last = [], 0.0
    for i in range(int(RATE * seconds)):
        last = smooth * last + (1 - smooth) * next(noise)
        out.append(amp * last * math.exp(-decay * i / RATE))
    return out


def draw() -> list[float]:
    """A soft slide and tap: a tile taken from the wall."""
    sound = click(0.09, seed=7, decay=45, amp=0.5, smooth=0.85)
    return _mix(sound, tone(620, 0.08, decay=60, amp=0.25, partials=((1, 1), (2.7, 0.3))), 0.02)


def discard() -> list[float]:
    """A firm clack: tile on table, two woody resonances over a short noise transient."""
    sound = click(0.05, seed=11, decay=90, amp=0.7, smooth=0.55)
    body = tone(1250, 0.18, decay=38, amp=0.45, partials=((1, 1), (2.31, 0.45), (3.9, 0.2)))
    return _mix(_mix(sound, body), tone(240, 0.12, decay=40, amp=0.35))


def claim() -> list[float]:
    """Two rising struck notes (chi, pon, kan)."""
    bell = ((1, 1), (2, 0.35), (3.01, 0.12))
    sound = tone(659.25, 0.22, decay=14, amp=0.5, partials=bell)
    return _mix(sound, tone(987.77, 0.3, decay=10, amp=0.5, partials=bell), 0.09)


def win() -> list[float]:
    """A bright rising arpeggio, C E G C, ringing out together."""
    bell = ((1, 1), (2, 0.3), (3.01, 0.1), (4.2, 0.05))
    sound: list[float] = []
    for i, freq in enumerate((523.25, 659.25, 783.99, 1046.5)):
        _mix(sound, tone(freq, 0.85 - 0.09 * i, decay=5.5, amp=0.3, partials=bell), 0.09 * i)
    return sound


def tick() -> list[float]:
    """The clock's last five seconds: a dry wooden tick."""
    sound = tone(1800, 0.05, decay=110, amp=0.55, partials=((1, 1), (2.5, 0.3)), attack=0.001)
    return _mix(sound, click(0.02, seed=3, decay=200, amp=0.25, smooth=0.3))


SOUNDS = {"draw": draw, "discard": discard, "claim": claim, "win": win, "tick": tick}


def to_wav(samples: list[float], peak: float = 0.8) -> bytes:
    """Normalise to `peak`, fade the last 5 ms, and pack as 16-bit mono WAV."""
    top = max(abs(s) for s in samples) or 1.0
    fade = int(RATE * 0.005)
    scaled = []
    for i, s in enumerate(samples):
        gain = min(1.0, (len(samples) - i) / fade)
        scaled.append(round(max(-1.0, min(1.0, s / top * peak * gain)) * 32767))
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(struct.pack(f"<{len(scaled)}h", *scaled))
    return buffer.getvalue()


def generate() -> dict[str, bytes]:
    """{file name: WAV bytes} for every effect."""
    return {f"{name}.wav": to_wav(make()) for name, make in SOUNDS.items()}


def write(out_dir: Path = OUT_DIR) -> list[Path]:
    files = generate()
    for name, data in files.items():
        if len(data) > MAX_BYTES:
            raise ValueError(f"{name} is {len(data)} bytes; keep effects under {MAX_BYTES}")
    return write_files(files, out_dir)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT_DIR
    written = write(target)
    print(f"{len(written)} WAV files in {target}")
