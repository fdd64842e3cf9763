"""From the camera to the live table: the mirror's inferences become the table's commands.

Vision sees cards; the table mirror (:mod:`assistant.mirror`) turns what changed into
SPEC §3 actions; this link hands each to the :class:`~assistant.live.table.LiveTable`
as a command from the ``camera``:

- an action the mirror played, or one it refused, is proposed to the table, which
  judges it again: accepted, it is an event; refused, an alert the judge sees with its
  rulebook line;
- an action a person must confirm (a sideways Active: Asleep or Paralyzed? two Pokémon
  changed places: a retreat or a Switch?) becomes a question with one option per
  reading and one for "it did not happen"; the person's answer plays the chosen action;
- an action that needs a coin is proposed as it is: the table asks for the coin.

The live table is the truth. Whenever someone else changed it (the console ended a
turn, declared an attack, rewound), the mirror takes the table's position as its own
before it looks at the next picture, so the two never drift apart.

The table starts from the mirror's first picture of the table (a game joined in
progress, see :mod:`assistant.mirror`); ``start`` makes it, so the caller chooses where
it is recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from assistant.engine.actions import parse_target
from assistant.engine.positions import CardBook, position_to_json
from assistant.live.feed import Subscription, Update
from assistant.live.table import LiveTable, Reply
from assistant.mirror import Inference, SeenCard, TableMirror

#: The option of a camera question that says the camera was wrong.
NOT_SO = "it did not happen"


class CameraLink:
    """Feeds one live table from one mirror. Call :meth:`see` with each settled picture
    of the table, from one thread (the vision worker's)."""

    def __init__(self, mirror: TableMirror, start: Callable[[dict[str, Any]], LiveTable]) -> None:
        self.mirror = mirror
        self._start = start
        self._book = CardBook()
        self.table: LiveTable | None = None
        self._follow: Subscription | None = None
        self._asked: dict[int, int] = {}  # question's entry number -> the mirror's inference number
        self._mine: set[int] = set()      # entries this link wrote

    def see(self, snapshot: Sequence[SeenCard]) -> list[Reply]:
        """Show the mirror a picture; the table's replies to what it inferred."""
        self._catch_up()
        inferences = self.mirror.see(snapshot)
        if self.table is None:
            if self.mirror.game is None:
                return []
            self.table = self._start(position_to_json(self.mirror.game.position, self._book))
            self._follow = self.table.subscribe(after=self.table.seq)
        replies = [self._send(inference) for inference in inferences]
        if any(reply.alert is not None or reply.questions for reply in replies):
            self.mirror.follow(self.table.position_copy())  # it refused or waits: the table is the truth
        return replies

    def _send(self, inference: Inference) -> Reply:
        assert self.table is not None
        raw = inference.to_json()
        verdict = raw.pop("verdict")
        choices = raw.pop("choices", None)
        if verdict == "pending" and choices and choices != ["coin"]:
            options: dict[str, dict[str, Any] | None] = {choice: _reading(raw, choice) for choice in choices}
            options[NOT_SO] = None
            reply = self.table.ask(f"The camera saw {_describe(raw)}. What happened?", options,
                                   shows=self._cards_in(raw))
            self._asked[reply.seq] = inference.number
        elif verdict == "pending" and not choices:
            reply = self.table.ask(f"The camera saw {_describe(raw)}. Did it happen?", {"yes": raw, NOT_SO: None},
                                   shows=self._cards_in(raw))
            self._asked[reply.seq] = inference.number
        else:
            if verdict == "pending":  # a coin: the table asks for it, the mirror follows the table
                self.mirror.settled(inference.number, played=False)
            reply = self.table.propose(raw, source="camera")
        self._mine.update(entry.seq for entry in reply.entries)
        return reply

    def _cards_in(self, raw: dict[str, Any]) -> tuple[str, ...]:
        """The names of the cards an action is about, as vision reads them: the card
        played, and the Pokémon at its target (a turned Active, the two of a swap)."""
        assert self.table is not None
        names = [raw["card"]] if isinstance(raw.get("card"), str) else []
        position = self.table.position_copy()
        for key in ("target", "to"):
            where = raw.get(key)
            if isinstance(where, str):
                try:
                    player, index = parse_target(where, raw.get("player") or position.current)
                except ValueError:
                    continue
                slot = position.slot(player, index)
                if slot is not None:
                    names.append(slot.card.name)
        if raw.get("type") in ("retreat", "switch"):
            active = position.players[raw.get("player") or position.current].active
            if active is not None:
                names.insert(0, active.card.name)
        return tuple(dict.fromkeys(names))

    def _catch_up(self) -> None:
        """Read what happened at the table since the last picture: answers to the
        camera's questions, and changes made by anyone else."""
        if self._follow is None or self.table is None:
            return
        changed = False
        while (item := self._follow.get(timeout=0)) is not None:
            if not isinstance(item, Update):
                changed = True  # fell behind: a snapshot, so the table may have changed
                continue
            entry = item.entry
            if entry.kind == "answer" and entry.body["question"] in self._asked:
                number = self._asked.pop(entry.body["question"])
                self.mirror.settled(number, played=entry.body["answer"] != NOT_SO)
                changed = True
            elif entry.seq not in self._mine and entry.kind in ("action", "rewind", "penalty"):
                changed = True
        if changed:
            self.mirror.follow(self.table.position_copy())

    def close(self) -> None:
        if self._follow is not None:
            self._follow.close()


def _reading(raw: dict[str, Any], choice: str) -> dict[str, Any]:
    """The action a person's choice stands for: the condition chosen, or a switch
    instead of a retreat."""
    if raw.get("type") == "condition":
        return {**raw, "add": choice}
    if raw.get("type") == "retreat" and choice == "switch":
        return {"type": "switch", "player": raw.get("player"), "to": raw.get("to")}
    return raw


def _describe(raw: dict[str, Any]) -> str:
    details = ", ".join(f"{key} {value}" for key, value in raw.items() if key not in ("type", "player"))
    return f"{raw.get('player', '?')}: {raw.get('type')}" + (f" ({details})" if details else "")
