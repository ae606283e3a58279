"""Die sources. Every roll the engine makes is drawn here and recorded as an event.

SeededDice is verifiable: roll number i (0-based, counting every die of the game)
is derived from HMAC-SHA256(key=seed, msg=str(i)). The digest's bytes are read in
order and the first byte below 252 gives (byte % 6) + 1, which is exactly uniform
(252 = 6 * 42); should all 32 bytes be 252 or more, the message str(i) + "/1"
(then "/2", ...) is hashed instead. Anyone holding the revealed seed can recompute
every roll of a game.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Iterator


def seeded_roll(seed: str, index: int) -> int:
    return _roll_with_key(seed.encode("utf-8"), index)


def _roll_with_key(key: bytes, index: int) -> int:
    """seeded_roll with the seed already encoded as the HMAC key."""
    attempt = 0
    while True:
        msg = str(index) if attempt == 0 else f"{index}/{attempt}"
        # hmac.digest: the same bytes as hmac.new(...).digest(), in one C call
        for byte in hmac.digest(key, msg.encode("ascii"), "sha256"):
            if byte < 252:
                return byte % 6 + 1
        attempt += 1


def commitment(seed: str) -> str:
    """SHA-256 of the seed, published before play so the seed cannot change later."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class SeededDice:
    def __init__(self, seed: str, start_index: int = 0):
        self.seed = seed
        self._key = seed.encode("utf-8")          # the HMAC key, encoded once, not per die
        self.index = start_index

    def roll(self) -> int:
        value = _roll_with_key(self._key, self.index)
        self.index += 1
        return value


class ScriptedDice:
    """Dice given in advance (tests, rules questions)."""

    def __init__(self, values: Iterable[int]):
        self._values: Iterator[int] = iter(list(values))

    def roll(self) -> int:
        try:
            value = next(self._values)
        except StopIteration:
            raise RuntimeError("the scripted dice have run out") from None
        if not 1 <= value <= 6:
            raise ValueError(f"scripted die {value} is not 1-6")
        return value


class NoDice:
    """A replayed game without its seed: it can be inspected but not rolled on."""

    def roll(self) -> int:
        raise RuntimeError("this game was replayed without its seed; it cannot roll new dice")
