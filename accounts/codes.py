"""Short public ids for URLs: random, unguessable enough, and easy to read aloud
(no 0/o, 1/l/i). Primary keys never appear in a URL."""

import secrets

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def new_code(length: int = 10) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def new_public_id() -> str:
    return new_code(10)
