"""Pure-Python rules engine for two-player Chinese mahjong.

Nothing below this package imports Django: the engine is a library with a notation
(tiles ``"123m456p11z"``, melds ``"pon 777z"``, actions ``"discard 5m"``) and is
deterministic given a wall seed.
"""
