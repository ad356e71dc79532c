"""Art and sound the project draws itself: ``python -m mahjong.assets.tiles`` writes
static/tiles/*.svg, ``python -m mahjong.assets.rooms`` the lobby's room banners
static/lobby/rooms/*.svg, ``python -m mahjong.assets.sounds`` static/sounds/*.wav.

The generators are deterministic (same bytes on every run) and need neither Django nor
anything outside the standard library; the generated files are committed, and a test
checks they equal a fresh generation.
"""
