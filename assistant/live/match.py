"""A match: best of three games, a round clock, Sudden Death, the result.

A league match is won by the first player to win two games. A game that ends with both
players winning at once is decided by Sudden Death, a whole new game with one Prize card
each (RULES.md WIN-04, WIN-05; 001_75e061fbe3c8e794.txt:546-554): it is linked to the
match as the same game's decider, and its winner wins that game.

The round has a clock (50 minutes unless the judge sets another) that the judge may
pause and resume. What happens when time is called is not in any of the rulebooks: it
is tournament procedure, and RULES.md §0.2 P5 says the engine must not guess. So the
table records a ``time`` entry marked as a judge's ruling, with the procedure the match
was configured with (by default the usual league practice: the turn in progress is
"turn 0", then ``extra_turns`` more turns, then the player with fewer Prize cards left
wins the game; equal Prizes, and the judge decides), and the judge enters the outcome.

The clock is folded from the ``clock`` entries in the match's games (``start``,
``pause``, ``resume``): it runs on wall-clock time, so it keeps running while the
program is stopped, as a round's clock does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from assistant.cards import Card
from assistant.editions import Edition
from assistant.live.record import Entry, Record
from assistant.live.table import CommandError, LiveTable, Reply

DEFAULT_ROUND_MINUTES = 50
DEFAULT_EXTRA_TURNS = 3


@dataclass(frozen=True, slots=True)
class ClockState:
    """The round clock at one moment."""

    limit: float
    elapsed: float
    running: bool
    called: bool

    @property
    def remaining(self) -> float:
        return max(0.0, self.limit - self.elapsed)

    def to_json(self) -> dict[str, Any]:
        return {"limit": self.limit, "elapsed": round(self.elapsed, 3), "remaining": round(self.remaining, 3),
                "running": self.running, "called": self.called}


def fold_clock(entries: list[Entry], limit: float, now: float) -> ClockState:
    """The clock after these ``clock`` and ``time`` entries (in time order), at ``now``."""
    elapsed = 0.0
    since: float | None = None
    called = False
    for entry in entries:
        if entry.kind == "time":
            called = True
            continue
        if entry.kind != "clock":
            continue
        what = entry.body["do"]
        if what in ("start", "resume") and since is None:
            since = entry.at
        elif what == "pause" and since is not None:
            elapsed += entry.at - since
            since = None
    if since is not None:
        elapsed += now - since
    return ClockState(limit, elapsed, since is not None, called)


class Match:
    """The games of one match and its round clock, over a :class:`Record`."""

    def __init__(self, record: Record, match_id: int, lookup: Callable[[str], Card | None], *,
                 now: Callable[[], float] = time.time, **table_options: Any) -> None:
        self.record = record
        self.id = match_id
        self.lookup = lookup
        self.now = now
        self.table_options = table_options
        self.settings = record.match(match_id)
        self.tables: dict[int, LiveTable] = {}

    @classmethod
    def create(cls, record: Record, edition: Edition, lookup: Callable[[str], Card | None], *,
               round_minutes: float = DEFAULT_ROUND_MINUTES, extra_turns: int = DEFAULT_EXTRA_TURNS,
               players: tuple[str, str] = ("A", "B"), **options: Any) -> Match:
        if round_minutes <= 0:
            raise CommandError(f"a round lasts more than 0 minutes, not {round_minutes}")
        settings = {"era": edition.era, "best_of": 3, "round_minutes": round_minutes,
                    "extra_turns": extra_turns, "players": list(players)}
        return cls(record, record.new_match(settings), lookup, **options)

    # -- games -----------------------------------------------------------------------

    @property
    def game_ids(self) -> list[int]:
        return self.record.match_games(self.id)

    def table(self, game_id: int) -> LiveTable:
        """A game of this match, opened (and held by this process) once."""
        if game_id not in self.tables:
            self.tables[game_id] = LiveTable.open(self.record, game_id, self.lookup, **self.table_options)
        return self.tables[game_id]

    @property
    def current(self) -> LiveTable | None:
        ids = self.game_ids
        return self.table(ids[-1]) if ids else None

    def new_game(self, edition: Edition, state: dict[str, Any], cards: dict[str, Any] | None = None) -> LiveTable:
        """The next game. After a game both players won at once it is that game's
        Sudden Death: one Prize card each, whatever ``state`` says."""
        if self.result() is not None:
            raise CommandError(f"match {self.id} is over: {self.result()}")
        current = self.current
        if current is not None and current.result is None:
            raise CommandError(f"game {current.game_id} of match {self.id} is still being played")
        sudden_death = current is not None and current.result["winner"] == "sudden-death"
        title = f"game {self._decided() + 1}" + (" (Sudden Death)" if sudden_death else "")
        if sudden_death:
            state = {**state, "players": {p: {**data, "prizes": 1} for p, data in state["players"].items()}}
        table = LiveTable.start(self.record, edition, state, self.lookup, cards=cards, title=title,
                                match_id=self.id, **self.table_options)
        self.tables[table.game_id] = table
        return table

    def _decided(self) -> int:
        return sum(1 for winner in self._winners() if winner in ("A", "B"))

    def _winners(self) -> list[str | None]:
        return [(self.table(g).result or {}).get("winner") for g in self.game_ids]

    def score(self) -> dict[str, int]:
        winners = self._winners()
        return {p: winners.count(p) for p in ("A", "B")}

    def result(self) -> dict[str, Any] | None:
        """The match's winner once a player has won two games (or the judge decided
        after time was called: a game-loss penalty ends that game)."""
        score = self.score()
        for player, wins in score.items():
            if wins >= 2:
                return {"winner": player, "score": score}
        return None

    # -- the round clock -------------------------------------------------------------

    def clock(self) -> ClockState:
        entries = [e for g in self.game_ids for e in self.record.entries(g) if e.kind in ("clock", "time")]
        entries.sort(key=lambda e: e.at)
        return fold_clock(entries, float(self.settings["round_minutes"]) * 60, self.now())

    def start_clock(self, by: str = "judge") -> Reply:
        return self._clock("start", by, lambda c: c.elapsed == 0 and not c.running, "the clock has already started")

    def pause_clock(self, by: str = "judge") -> Reply:
        return self._clock("pause", by, lambda c: c.running, "the clock is not running")

    def resume_clock(self, by: str = "judge") -> Reply:
        return self._clock("resume", by, lambda c: not c.running and c.elapsed > 0, "the clock is not paused")

    def _clock(self, what: str, by: str, allowed: Callable[[ClockState], bool], why: str) -> Reply:
        table = self._current_table()
        if not allowed(self.clock()):
            raise CommandError(why)
        return table.note("clock", {"do": what, "by": by}, at=self.now())

    def tick(self) -> Reply | None:
        """Call time once the round's time is up; the server calls this every second."""
        state = self.clock()
        if state.called or state.remaining > 0 or not state.running:
            return None
        return self._current_table().note("time", {
            "ruling": "time_called", "judge": True, "extra_turns": self.settings["extra_turns"],
            "procedure": "the turn in progress is turn 0, then the extra turns; then fewer Prize cards "
                         "left wins; the rulebooks do not cover time: the judge decides",
        }, at=self.now())

    def _current_table(self) -> LiveTable:
        table = self.current
        if table is None:
            raise CommandError(f"match {self.id} has no game yet")
        return table
