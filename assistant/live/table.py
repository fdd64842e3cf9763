"""The live table: one running game that the camera, the console and the coin device feed.

Commands come in from three sources: the camera (through the table mirror), the
console (a person: the judge or a player), and the coin device. Each goes through the
rules engine under the game's edition:

- accepted, it becomes an ``action`` entry with the events it produced and the coin
  flips it used, each with who decided it;
- refused, it becomes an ``alert`` entry with its reason code, the rulebook line and a
  sentence for the judge;
- needing what the table cannot know (a coin's result, a choice), it becomes a
  ``question`` entry (:mod:`assistant.live.questions`); the answer is an ``answer``
  entry, and the action resumes.

Every entry is committed to the record (:mod:`assistant.live.record`) before the
command is answered or any subscriber hears of it (:mod:`assistant.live.feed`). The
table's state is the fold of its entries: :meth:`LiveTable._take` is the one place an
entry changes it, whether the entry was just written or read back after a restart, so a
resumed table is the table that stopped.

A judge corrects by rewinding to an earlier entry (a ``rewind`` entry with a reason:
the actions after it stop counting, nothing is deleted) and notes penalties. The
hand-size ledger and the prize check are rebuilt from the record.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterator, MutableSequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from assistant.cards import Card
from assistant.editions import Edition, edition
from assistant.engine.actions import action_from_json
from assistant.engine.coins import CoinSource, SecureCoins
from assistant.engine.game import Game
from assistant.engine.model import PLAYERS, Position, other
from assistant.engine.positions import CardBook, UnknownCard, position_from_json, position_to_json
from assistant.live.feed import DEFAULT_CAPACITY, Feed, Snapshot, Subscription
from assistant.live.questions import (
    ANSWER_SOURCES,
    ChoiceQuestion,
    CoinQuestion,
    Question,
    question_body,
    question_from_entry,
)
from assistant.live.record import Entry, Record, RecordError
from assistant.live.view import public_position
from assistant.lookups import database_lookups, deck_checker
from assistant.quoting import quote
from assistant.rulebooks import readable

#: Where a proposed action comes from.
COMMAND_SOURCES = ("camera", "console", "device")
PENALTIES = ("caution", "warning", "prize-penalty", "game-loss")
T = TypeVar("T")


class CommandError(ValueError):
    """A command the table cannot take at all (malformed, or naming what does not
    exist). Nothing is recorded; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Alert:
    """A refused action, as the judge sees it."""

    reason: str
    rule: str
    message: str
    action: dict[str, Any]
    source: str

    @classmethod
    def from_entry(cls, entry: Entry) -> Alert:
        """The alert an ``alert`` entry of the record holds."""
        body = entry.body
        return cls(body["reason"], body["rule"], body["message"], body["action"], body["source"])

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "rule": self.rule, "citation": readable(self.rule),
                "message": self.message, "action": self.action, "source": self.source}


@dataclass
class Reply:
    """What a command got: the entries it wrote (the last one's number is ``seq``), the
    events of an accepted action, the alert of a refused one, the questions it opened."""

    seq: int
    entries: list[Entry] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    alert: Alert | None = None
    questions: list[Question] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return any(entry.kind == "action" for entry in self.entries)

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "accepted": self.accepted, "events": self.events,
                "alert": self.alert.to_json() if self.alert else None,
                "questions": [q.to_json() for q in self.questions]}


class _NeedCoin(Exception):
    def __init__(self, purpose: str) -> None:
        super().__init__(purpose)
        self.purpose = purpose


class _AnsweredCoins:
    """The coin results already answered for one action; one more flip asks."""

    name = "answered"

    def __init__(self, results: list[str]) -> None:
        self.results = results
        self.used = 0

    def flip(self, purpose: str) -> str:
        if self.used >= len(self.results):
            raise _NeedCoin(purpose)
        self.used += 1
        return self.results[self.used - 1]

    def shuffle(self, items: MutableSequence[T]) -> None:
        return None  # real decks are shuffled by hand: the zones hold unknown cards


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """Hand and Prize counts after one standing action (entry ``seq``)."""

    seq: int
    turn: int
    action: str
    hands: dict[str, int]
    prizes: dict[str, int]


class LiveTable:
    """One running game. Thread-safe: commands from the camera's worker, the web
    server and the device driver are taken one at a time.

    ``lookup`` finds a card by the reference a stored action uses (an id or a name);
    ``software_coin`` is the program's own coin, used when a person asks it to flip."""

    def __init__(self, record: Record, game_id: int, lookup: Callable[[str], Card | None], *,
                 software_coin: CoinSource | None = None, capacity: int = DEFAULT_CAPACITY,
                 resume: bool = True) -> None:
        self.record = record
        self.game_id = game_id
        self.software_coin = software_coin or SecureCoins()
        era, setup, match_id = record.game(game_id)
        self.edition: Edition = edition(era)
        self.match_id = match_id
        self._setup = setup
        self._book = CardBook(setup.get("cards") or {}, *database_lookups(lookup))
        self._lock = threading.RLock()
        self.feed = Feed(self._lock, self._snapshot, lambda after: record.entries(game_id, after), capacity)
        self.seq = 0
        self._standing: list[Entry] = []   # accepted actions and prize penalties that count
        self.questions: dict[int, Question] = {}
        self.penalties: list[Entry] = []
        self.result: dict[str, Any] | None = None
        self.game = self._new_game()
        stored = record.entries(game_id) if resume else []
        # Resuming, an action that a later rewind takes back is never replayed, and a
        # rewind rebuilds nothing: the actions that stand are replayed once, in order,
        # which is the position the rewinds left (a 500-entry game with 26 rewinds
        # resumed in ~300 ms rebuilding at each rewind, ~20 ms this way).
        self._undone_later = frozenset(seq for e in stored if e.kind == "rewind" for seq in e.body["undone"])
        for entry in stored:
            self._take(entry)
        self._undone_later = frozenset()

    # -- opening ---------------------------------------------------------------------

    @classmethod
    def start(cls, record: Record, game_edition: Edition, state: dict[str, Any],
              lookup: Callable[[str], Card | None], *, cards: dict[str, Any] | None = None,
              title: str = "", match_id: int | None = None, **options: Any) -> LiveTable:
        """A new game from a SPEC §3 ``state`` (and its inline ``cards``), held by this
        process."""
        book = CardBook(cards or {}, *database_lookups(lookup))
        position_from_json(state, book)  # a bad position fails here, before it is stored
        game_id = record.new_game(game_edition.era, {"state": state, "cards": cards or {}},
                                  title=title, match_id=match_id)
        record.claim(game_id)
        return cls(record, game_id, lookup, **options)

    @classmethod
    def open(cls, record: Record, game_id: int, lookup: Callable[[str], Card | None],
             **options: Any) -> LiveTable:
        """A stored game, resumed exactly where its record stops; held by this process
        (:class:`~assistant.live.record.GameInUse` if another holds it)."""
        record.claim(game_id)
        return cls(record, game_id, lookup, **options)

    @classmethod
    def replay(cls, record: Record, game_id: int, lookup: Callable[[str], Card | None]) -> LiveTable:
        """A stored game at its setup, to be stepped through its record with :meth:`fold`
        (a records page, a replay). It is not held, so the game may go on at its table
        meanwhile; it is for reading only: send it no commands."""
        return cls(record, game_id, lookup, resume=False)

    def fold(self, entry: Entry) -> None:
        """Fold one stored entry into a replayed table, as it was folded when it was
        written (a rewind rebuilds from what still stands). :class:`RecordError` if it
        does not replay."""
        with self._lock:
            self._take(entry)

    def _new_game(self) -> Game:
        position = position_from_json(self._setup["state"], self._book)
        return Game(position, self.edition, _AnsweredCoins([]), record=False,
                    deck_checker=deck_checker(self.edition))

    # -- commands --------------------------------------------------------------------

    def propose(self, action: dict[str, Any], source: str = "console") -> Reply:
        """An action seen by the camera or entered at the console or by the device."""
        if source not in COMMAND_SOURCES:
            raise CommandError(f"a command comes from {', '.join(COMMAND_SOURCES)}, not {quote(source)}")
        with self._lock:
            return self._play(action, source, [])

    def answer(self, question_id: int, answer: str, source: str = "console") -> Reply:
        """Answer an open question. A coin's answer resumes the action that flipped."""
        if source not in ANSWER_SOURCES:
            raise CommandError(f"an answer comes from {', '.join(ANSWER_SOURCES)}, not {quote(source)}")
        with self._lock:
            question = self.questions.get(question_id)
            if question is None:
                raise CommandError(f"question {question_id} is not open (open: {sorted(self.questions) or 'none'})")
            value = question.check(answer)
            reply = Reply(self.seq)
            self._write(reply, "answer", {"question": question_id, "answer": value, "source": source})
            if isinstance(question, CoinQuestion):
                flip = {"result": value, "source": source, "purpose": question.purpose}
                return self._play(question.action, question.proposed_by, [*question.flips, flip], reply)
            chosen = question.options[value]
            if chosen is not None:
                return self._play(chosen, "console", [], reply)
            return reply

    def flip(self, question_id: int) -> Reply:
        """Answer a coin question with the program's own coin."""
        with self._lock:
            question = self.questions.get(question_id)
            if not isinstance(question, CoinQuestion):
                raise CommandError(f"question {question_id} is not an open coin question")
            return self.answer(question_id, self.software_coin.flip(question.purpose), "software")

    def ask(self, text: str, options: dict[str, dict[str, Any] | None], asked_by: str = "camera",
            shows: tuple[str, ...] = ()) -> Reply:
        """Put a choice to a person: the camera's ambiguous picture (``shows``: the names
        of the cards it is about), an attack's choices."""
        if len(options) < 2:
            raise CommandError("a choice needs at least two options")
        with self._lock:
            reply = Reply(self.seq)
            question = ChoiceQuestion(0, text, dict(options), asked_by, tuple(shows))
            entry = self._write(reply, "question", question_body(question))
            reply.questions.append(self.questions[entry.seq])
            return reply

    def rewind(self, to: int, reason: str, by: str = "judge") -> Reply:
        """Take back every action after entry ``to``: a logged correction, never a deletion."""
        if not reason.strip():
            raise CommandError("a rewind needs a reason: it is on the record for both players")
        with self._lock:
            if not 0 <= to <= self.seq:
                raise CommandError(f"there is no entry {to} to rewind to (entries 0..{self.seq})")
            undone = [e.seq for e in self._standing if e.seq > to and e.kind == "action"]
            if not undone:
                raise CommandError(f"no action after entry {to} to take back")
            reply = Reply(self.seq)
            self._write(reply, "rewind", {"to": to, "undone": undone, "reason": reason.strip(), "by": by})
            return reply

    def penalty(self, player: str, kind: str, reason: str, by: str = "judge") -> Reply:
        """Note a penalty. A prize penalty gives the opponent a Prize card; a game loss
        ends the game."""
        if player not in PLAYERS:
            raise CommandError(f"a penalty is for player A or B, not {quote(player)}")
        if kind not in PENALTIES:
            raise CommandError(f"a penalty is one of {', '.join(PENALTIES)}, not {quote(kind)}")
        if not reason.strip():
            raise CommandError("a penalty needs a reason")
        with self._lock:
            reply = Reply(self.seq)
            self._write(reply, "penalty", {"player": player, "kind": kind, "reason": reason.strip(), "by": by})
            return reply

    def note(self, kind: str, body: dict[str, Any], at: float | None = None) -> Reply:
        """Put something on the record that does not change the game: the round clock,
        time called. Subscribers see it like any entry."""
        with self._lock:
            reply = Reply(self.seq)
            self._write(reply, kind, body, at=at)
            return reply

    # -- following -------------------------------------------------------------------

    def subscribe(self, after: int | None = None) -> Subscription:
        return self.feed.subscribe(after)

    def snapshot(self) -> Snapshot:
        return self.feed.snapshot()

    @property
    def position(self) -> Position:
        return self.game.position

    def position_copy(self) -> Position:
        """The position now, copied under the table's lock: safe to keep and change
        while commands from other threads go on."""
        with self._lock:
            return copy.deepcopy(self.game.position)

    @property
    def standing(self) -> list[Entry]:
        """The entries that make the position: accepted actions no rewind took back, and
        prize penalties."""
        return list(self._standing)

    # -- inside ----------------------------------------------------------------------

    def _play(self, raw: dict[str, Any], source: str, flips: list[dict[str, str]],
              reply: Reply | None = None) -> Reply:
        reply = reply or Reply(self.seq)
        if self.result is not None:
            self._write(reply, "alert", self._alert_body(raw, source, "game-over", "", "the game is over"))
            reply.alert = Alert.from_entry(reply.entries[-1])
            return reply
        action = self._read(raw)
        before = self.game.position
        self.game.coins = _AnsweredCoins([flip["result"] for flip in flips])
        try:
            outcome = self.game.play(action)
        except _NeedCoin as need:
            self.game.position = before
            body = question_body(CoinQuestion(0, need.purpose, raw, source, tuple(flips)))
            entry = self._write(reply, "question", body)
            reply.questions.append(self.questions[entry.seq])
            return reply
        if not outcome.accepted:
            refusal = outcome.refusal
            assert refusal is not None
            self._write(reply, "alert", self._alert_body(raw, source, refusal.reason, refusal.rule, refusal.message))
            reply.alert = Alert.from_entry(reply.entries[-1])
            return reply
        body = {"action": raw, "source": source, "events": outcome.events, "coins": flips}
        try:
            self._write(reply, "action", body, applied=True)
        except BaseException:
            self.game.position = before  # not on the record, so not in the game
            raise
        reply.events = list(outcome.events)
        return reply

    def _read(self, raw: Any) -> Any:
        if not isinstance(raw, dict):
            raise CommandError(f"an action is a JSON object (SPEC §3), not {quote(raw)}")
        try:
            return action_from_json(raw, self.game.position.current, self._book.resolve)
        except UnknownCard as unknown:
            raise CommandError(f"unknown card {quote(str(unknown.args[0]))}") from None
        except (KeyError, ValueError, TypeError) as error:
            raise CommandError(f"unreadable action {quote(raw)}: {error}") from None

    @staticmethod
    def _alert_body(raw: dict[str, Any], source: str, reason: str, rule: str, message: str) -> dict[str, Any]:
        return {"action": raw, "source": source, "reason": reason, "rule": rule, "message": message}

    def _write(self, reply: Reply, kind: str, body: dict[str, Any], *, applied: bool = False,
               at: float | None = None) -> Entry:
        """Commit an entry, fold it in, tell the subscribers: in that order."""
        entry = self.record.append(self.game_id, kind, body, at)
        self._take(entry, applied=applied)
        self.feed.publish(entry)
        reply.entries.append(entry)
        reply.seq = entry.seq
        return entry

    def _take(self, entry: Entry, *, applied: bool = False) -> None:
        """Fold one entry into the table: the only place the table's state changes."""
        self.seq = entry.seq
        body = entry.body
        if entry.kind == "action":
            if not applied and entry.seq not in self._undone_later:
                self._replay(entry, self.game)
            self._standing.append(entry)
            self.questions = {k: q for k, q in self.questions.items()
                              if not (isinstance(q, CoinQuestion) and q.action == body["action"])}
            if self.game.position.winner is not None:
                self.result = {"winner": self.game.position.winner, "why": list(self.game.position.win_reasons)}
        elif entry.kind == "question":
            self.questions[entry.seq] = question_from_entry(entry.seq, body)
        elif entry.kind == "answer":
            self.questions.pop(body["question"], None)
        elif entry.kind == "rewind":
            undone = set(body["undone"])
            self._standing = [e for e in self._standing if e.seq not in undone]
            self.questions = {}
            self.result = None
            if not self._undone_later:
                self._rebuild()
        elif entry.kind == "penalty":
            self.penalties.append(entry)
            if body["kind"] == "prize-penalty":
                self._standing.append(entry)
                _take_prize(self.game.position, other(body["player"]))
            elif body["kind"] == "game-loss":
                self.result = {"winner": other(body["player"]), "why": ["game-loss penalty"]}

    def _replay(self, entry: Entry, game: Game) -> None:
        """Play a stored action into ``game`` with the coins the record kept;
        :class:`RecordError` if the rules refuse it now."""
        game.coins = _AnsweredCoins([flip["result"] for flip in entry.body.get("coins") or ()])
        try:
            outcome = game.play(self._read(entry.body["action"]))
        except (CommandError, _NeedCoin) as error:
            outcome = None
            why = str(error)
        else:
            why = outcome.reason or ""
        if outcome is None or not outcome.accepted:
            raise RecordError(f"{self.record.path}: game {self.game_id} entry {entry.seq} does not replay "
                              f"({why}); was it written by another version of the rules?")

    def _replay_standing(self, game: Game) -> Iterator[Entry]:
        """Play the standing entries into ``game`` (a fresh one) in order, handing each
        back once it is played: accepted actions, and prize penalties."""
        for entry in self._standing:
            if entry.kind == "action":
                self._replay(entry, game)
            else:
                _take_prize(game.position, other(entry.body["player"]))
            yield entry

    def _rebuild(self) -> None:
        self.game = self._new_game()
        for _entry in self._replay_standing(self.game):
            pass

    def _snapshot(self) -> Snapshot:
        state = {
            "game": self.game_id, "era": self.edition.era, "match": self.match_id,
            "position": public_position(position_to_json(self.game.position, self._book), self.game.position),
            "questions": [q.to_json() for q in self.questions.values()],
            "penalties": [{"seq": e.seq, **e.body} for e in self.penalties],
            "result": self.result,
        }
        return Snapshot(self.seq, state)

    def ledger(self) -> list[LedgerLine]:
        """Hand and Prize counts after each standing action, rebuilt from the record:
        the judge's hand-size ledger and prize check."""
        with self._lock:
            game = self._new_game()
            lines = []
            for entry in self._replay_standing(game):
                what = str(entry.body["action"].get("type")) if entry.kind == "action" else "prize-penalty"
                pos = game.position
                lines.append(LedgerLine(entry.seq, pos.turn, what,
                                        {p: len(pos.players[p].hand) for p in PLAYERS},
                                        {p: len(pos.players[p].prizes) for p in PLAYERS}))
            return lines


def _take_prize(position: Position, player: str) -> None:
    """A prize penalty: ``player`` takes one of their Prize cards into their hand."""
    me = position.players[player]
    if me.prizes:
        me.hand.append(me.prizes.pop(0))
