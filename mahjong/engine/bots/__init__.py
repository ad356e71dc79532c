"""Bot players. A bot chooses one of ``legal_actions(state, seat)``; stronger bots live
next to the random one and share its ``choose(state, seat, actions)`` interface."""

from .random_bot import RandomBot

__all__ = ["RandomBot"]
