"""Chance: coin flips and shuffles come from one injectable source.

A game never calls ``random`` itself. It asks its :class:`CoinSource`, which may be a
script (tests and position files: results are never invented), a physical flipper, a
person typing what the coin showed, or a secure random generator. Every flip is recorded
as a :class:`CoinFlip` naming the source, so the log shows where each result came from.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, MutableSequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

HEADS = "heads"
TAILS = "tails"
T = TypeVar("T")


class OutOfCoins(RuntimeError):
    """A scripted source was asked for a flip it has no result for."""


@dataclass(frozen=True, slots=True)
class CoinFlip:
    result: str
    source: str
    purpose: str


class CoinSource(Protocol):
    """Where coin results (and shuffles) come from."""

    name: str

    def flip(self, purpose: str) -> str: ...

    def shuffle(self, items: MutableSequence[T]) -> None: ...


class ScriptedCoins:
    """Results given in advance, in order (position files, replays, tests). Shuffles keep
    the order as written, since a position file lists its deck top first."""

    name = "scripted"

    def __init__(self, results: Iterable[str] = ()) -> None:
        self.results = [_check(r) for r in results]
        self.used = 0

    def flip(self, purpose: str) -> str:
        if self.used >= len(self.results):
            raise OutOfCoins(f"no coin result left for {purpose}")
        self.used += 1
        return self.results[self.used - 1]

    def shuffle(self, items: MutableSequence[T]) -> None:
        return None

    @property
    def remaining(self) -> int:
        return len(self.results) - self.used


class SecureCoins:
    """A secure random generator, for a game the program itself flips for."""

    name = "secure-random"

    def __init__(self) -> None:
        self.rng = secrets.SystemRandom()

    def flip(self, purpose: str) -> str:
        return HEADS if self.rng.getrandbits(1) else TAILS

    def shuffle(self, items: MutableSequence[T]) -> None:
        self.rng.shuffle(items)


class SeededCoins:
    """A reproducible pseudo-random source for self-play and benchmarks (never for a
    real game: use :class:`SecureCoins`)."""

    name = "seeded-random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def flip(self, purpose: str) -> str:
        return HEADS if self.rng.random() < 0.5 else TAILS

    def shuffle(self, items: MutableSequence[T]) -> None:
        self.rng.shuffle(items)


class PersonCoins:
    """A person at the table flips a real coin and enters the result."""

    name = "person"

    def __init__(self, ask: Callable[[str], str]) -> None:
        self.ask = ask

    def flip(self, purpose: str) -> str:
        return _check(self.ask(purpose))

    def shuffle(self, items: MutableSequence[T]) -> None:
        return None  # the real deck is shuffled by hand; the position holds counts


class FlipperCoins:
    """A physical coin flipper (the hardware layer passes a function that triggers it
    and reads the result)."""

    name = "flipper"

    def __init__(self, read: Callable[[], str]) -> None:
        self.read = read

    def flip(self, purpose: str) -> str:
        return _check(self.read())

    def shuffle(self, items: MutableSequence[T]) -> None:
        return None


def _check(result: str) -> str:
    value = str(result).strip().lower()
    if value not in (HEADS, TAILS):
        raise ValueError(f"a coin shows heads or tails, not {result!r}")
    return value
