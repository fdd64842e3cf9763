"""A stored game replayed entry by entry, read-only: the board after entry N.

A live table's position is the fold of its record (:mod:`assistant.live.table`): the
actions that stand (no later rewind took them back) and the prize penalties, played in
order into a fresh game from the stored setup, with the coin results the record kept.
:class:`Replay` is that fold for watching afterwards: it opens nothing (no claim on the
game, no feed), writes nothing, and can be stepped one entry at a time, so a records page
can show the scoreboard after any entry and what that entry said, even while the game
is still being played at its table.

A correction (``rewind``) rebuilds the position from the entries that still stand, as
the table did when the judge rewound.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from assistant.cards import Card
from assistant.editions import edition
from assistant.engine.actions import action_from_json
from assistant.engine.coins import ScriptedCoins
from assistant.engine.game import Game
from assistant.engine.model import Position, other
from assistant.engine.positions import CardBook, UnknownCard, position_from_json, position_to_json
from assistant.live.feed import Snapshot
from assistant.live.questions import question_from_entry
from assistant.live.record import Entry, Record
from assistant.live.view import public_position
from assistant.lookups import database_lookups, deck_checker
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
    """One stored game, folded from its setup one entry at a time (:meth:`take`)."""

    def __init__(self, record: Record, game_id: int, lookup: Callable[[str], Card | None] | None = None) -> None:
        era, setup, match_id = record.game(game_id)
        self.game_id, self.match_id, self.era = game_id, match_id, era
        self.rules = edition(era)
        self.book = CardBook(setup.get("cards") or {}, *database_lookups(lookup))
        self._setup_state = setup["state"]
        self.entries = record.entries(game_id)
        self.seq = 0
        self.standing: list[Entry] = []
        self.questions: dict[int, dict[str, Any]] = {}
        self.penalties: list[Entry] = []
        self.game_loss: dict[str, Any] | None = None
        self.game = self._fresh()

    def _fresh(self) -> Game:
        try:
            position = position_from_json(self._setup_state, self.book)
        except (UnknownCard, KeyError, ValueError, TypeError) as error:
            raise ReplayError(f"game {self.game_id}: its setup does not read ({error})") from None
        return Game(position, self.rules, ScriptedCoins(), record=False, deck_checker=deck_checker(self.rules))

    # -- folding ---------------------------------------------------------------------

    def take(self, entry: Entry) -> None:
        """Fold one entry in, as the live table did."""
        self.seq = entry.seq
        body = entry.body
        if entry.kind == "action":
            self._play(entry)
            self.standing.append(entry)
        elif entry.kind == "question":
            self.questions[entry.seq] = question_from_entry(entry.seq, body).to_json()
        elif entry.kind == "answer":
            self.questions.pop(body.get("question"), None)
        elif entry.kind == "rewind":
            undone = set(body.get("undone") or ())
            self.standing = [e for e in self.standing if e.seq not in undone]
            self.questions, self.game_loss = {}, None
            self.game = self._fresh()
            for kept in self.standing:
                if kept.kind == "action":
                    self._play(kept)
                else:
                    take_prize(self.game.position, other(kept.body["player"]))
        elif entry.kind == "penalty":
            self.penalties.append(entry)
            if body.get("kind") == "prize-penalty":
                self.standing.append(entry)
                take_prize(self.game.position, other(body["player"]))
            elif body.get("kind") == "game-loss":
                self.game_loss = {"winner": other(body["player"]), "why": ["game-loss penalty"]}

    def _play(self, entry: Entry) -> None:
        self.game.coins = ScriptedCoins(flip["result"] for flip in entry.body.get("coins") or ())
        try:
            action = action_from_json(entry.body["action"], self.game.position.current, self.book.resolve)
            outcome = self.game.play(action)
        except Exception as error:  # noqa: BLE001 - any failure is the record's, said in words
            raise ReplayError(f"game {self.game_id} entry {entry.seq} does not replay ({error})") from None
        if not outcome.accepted:
            raise ReplayError(f"game {self.game_id} entry {entry.seq} does not replay ({outcome.reason})")

    def step_to(self, seq: int) -> None:
        """Fold on to entry ``seq`` (not before the entries already folded)."""
        for entry in self.entries[self.seq:seq]:
            self.take(entry)

    # -- what it shows ---------------------------------------------------------------

    @property
    def result(self) -> dict[str, Any] | None:
        position = self.game.position
        if self.game_loss is not None:
            return self.game_loss
        if position.winner is not None:
            return {"winner": position.winner, "why": list(position.win_reasons)}
        return None

    def snapshot(self) -> Snapshot:
        """The public snapshot after the entries folded so far, as the table gave it."""
        position = self.game.position
        state = {
            "game": self.game_id, "era": self.era, "match": self.match_id,
            "position": public_position(position_to_json(position, self.book), position),
            "questions": list(self.questions.values()),
            "penalties": [{"seq": e.seq, **e.body} for e in self.penalties],
            "result": self.result,
        }
        return Snapshot(self.seq, state)

    def board(self) -> dict[str, Any]:
        """The scoreboard after the entries folded so far (hands and decks as counts)."""
        return board(self.snapshot(), self.book.resolve)


def take_prize(position: Position, player: str) -> None:
    """A prize penalty: ``player`` takes one of their Prize cards into their hand."""
    me = position.players[player]
    if me.prizes:
        me.hand.append(me.prizes.pop(0))


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
