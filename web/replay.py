"""A stored game replayed entry by entry, read-only: the board after entry N.

A live table's position is the fold of its record (:mod:`assistant.live.table`): the
actions that stand (no later rewind took them back) and the prize penalties, played in
order into a fresh game from the stored setup, with the coin results the record kept.
:class:`Replay` steps a read-only table (:meth:`LiveTable.replay`: no claim on the game,
nothing written) one entry at a time, so a records page can show the scoreboard after
any entry and what that entry said, even while the game is still being played at its
table.

A correction (``rewind``) rebuilds the position from the entries that still stand, as
the table did when the judge rewound.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from assistant.cards import Card
from assistant.engine.positions import CardBook, UnknownCard
from assistant.live.feed import Snapshot
from assistant.live.record import Entry, Record, RecordError
from assistant.live.table import LiveTable
from assistant.lookups import database_lookups
from web.board import board
from web.narrate import entry_lines


class ReplayError(ValueError):
    """A stored entry that does not replay (a record written under other rules)."""


@dataclass(frozen=True, slots=True)
class Step:
    """Entry ``seq`` of a game (0: the setup, before any entry) and the board after it;
    ``lines`` are the entry in words, as the view asked for saw them."""

    game: int
    seq: int
    last: int
    kind: str
    lines: list[str]
    board: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seq": self.seq, "last": self.last, "kind": self.kind, "lines": self.lines,
                "board": self.board}


class Replay:
    """One stored game, folded from its setup one entry at a time (:meth:`take`) by a
    read-only live table (:meth:`LiveTable.replay`), so that it shows exactly what the
    table showed."""

    def __init__(self, record: Record, game_id: int, lookup: Callable[[str], Card | None] | None = None) -> None:
        era, setup, match_id = record.game(game_id)
        self.game_id, self.match_id, self.era = game_id, match_id, era
        self.book = CardBook(setup.get("cards") or {}, *database_lookups(lookup))
        self.entries = record.entries(game_id)
        try:
            self.table = LiveTable.replay(record, game_id, lookup or _no_lookup)
        except (UnknownCard, KeyError, ValueError, TypeError) as error:
            raise ReplayError(f"game {game_id}: its setup does not read ({error})") from None

    @property
    def seq(self) -> int:
        return self.table.seq

    def take(self, entry: Entry) -> None:
        """Fold one entry in, as the live table did."""
        try:
            self.table.fold(entry)
        except RecordError as error:
            raise ReplayError(str(error)) from None

    def step_to(self, seq: int) -> None:
        """Fold on to entry ``seq`` (not before the entries already folded)."""
        for entry in self.entries[self.seq:seq]:
            self.take(entry)

    @property
    def result(self) -> dict[str, Any] | None:
        return self.table.result

    def snapshot(self) -> Snapshot:
        """The public snapshot after the entries folded so far, as the table gave it."""
        return self.table.snapshot()

    def board(self) -> dict[str, Any]:
        """The scoreboard after the entries folded so far (hands and decks as counts)."""
        return board(self.snapshot(), self.book.resolve)


def _no_lookup(ref: str) -> Card | None:
    return None  # the card book's database lookups find it


def step(record: Record, game_id: int, seq: int | None = None, *, console: bool = False,
         lookup: Callable[[str], Card | None] | None = None) -> Step:
    """The board after entry ``seq`` of a stored game (its last entry when None), and
    that entry in words; :class:`ValueError` for an entry the game does not have."""
    replay = Replay(record, game_id, lookup)
    last = len(replay.entries)
    seq = last if seq is None else seq
    if not 0 <= seq <= last:
        raise ValueError(f"game {game_id} has entries 0..{last}, not {seq}")
    if seq == 0:
        return Step(game_id, 0, last, "setup", ["The game as it was set up"], replay.board())
    replay.step_to(seq - 1)
    entry = replay.entries[seq - 1]
    before = replay.board() if entry.kind == "action" else None  # names the Pokémon its events speak of
    replay.take(entry)
    return Step(game_id, seq, last, entry.kind, entry_lines(entry, before, console=console), replay.board())
