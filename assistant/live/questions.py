"""Questions the table asks a person or the coin device.

The camera sees cards move; it cannot see a coin land, which attack a player declared,
which card of a hand was meant, or which of two readings of a blurred picture is right.
The engine never guesses hidden information, so whatever it cannot know becomes a
question: a typed request with the answers it allows, answered later by whoever can
(the console, the coin device, the software coin). A question is an entry of the
record like any other, and so is its answer, so a restart finds it still waiting.

In the manner of ryuu-play's prompts, a question says what it is for and offers a
closed set of answers; an answer outside them is refused with the allowed ones.

- :class:`CoinQuestion`: a flip an action needs (Confusion, Asleep, Burn, an attack's
  coin); its answers are ``heads`` and ``tails``. The action resumes once every flip it
  needs is answered.
- :class:`ChoiceQuestion`: one of several labelled options, each naming the SPEC §3
  action it stands for (``null`` for "none of these"): an ambiguous picture, an attack
  and its choices.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assistant.engine.coins import HEADS, TAILS

COIN_ANSWERS = (HEADS, TAILS)
#: Who may answer: a person at the console, the coin device, or the program's own coin.
ANSWER_SOURCES = ("console", "device", "software")


class AnswerError(ValueError):
    """An answer the question does not allow."""


@dataclass(frozen=True, slots=True)
class CoinQuestion:
    """A coin flip for ``purpose`` (``confusion``, ``asleep``…) that ``action`` needs;
    ``flips`` are the results it already has, each ``{"result", "source", "purpose"}``."""

    id: int
    purpose: str
    action: dict[str, Any]
    proposed_by: str
    flips: tuple[dict[str, str], ...] = ()
    kind = "coin"

    @property
    def answers(self) -> tuple[str, ...]:
        return COIN_ANSWERS

    def check(self, answer: str) -> str:
        value = str(answer).strip().lower()
        if value not in COIN_ANSWERS:
            raise AnswerError(f"question {self.id} asks for a coin: answer heads or tails, not {answer!r}")
        return value

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "purpose": self.purpose, "answers": list(COIN_ANSWERS),
                "action": self.action, "proposed_by": self.proposed_by, "flips": list(self.flips),
                "text": f"Flip a coin ({self.purpose.replace('-', ' ')}): heads or tails?"}


@dataclass(frozen=True, slots=True)
class ChoiceQuestion:
    """One of ``options`` (label → the SPEC §3 action it stands for, or None);
    ``shows`` names the cards the question is about, so that a console can show the
    camera's picture of each."""

    id: int
    text: str
    options: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    asked_by: str = "camera"
    shows: tuple[str, ...] = ()
    kind = "choice"

    @property
    def answers(self) -> tuple[str, ...]:
        return tuple(self.options)

    def check(self, answer: str) -> str:
        if answer not in self.options:
            allowed = ", ".join(repr(label) for label in self.options)
            raise AnswerError(f"question {self.id} allows {allowed}; not {answer!r}")
        return answer

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "text": self.text, "answers": list(self.options),
                "options": self.options, "asked_by": self.asked_by, "shows": list(self.shows)}


Question = CoinQuestion | ChoiceQuestion


def question_from_entry(seq: int, body: dict[str, Any]) -> Question:
    """The question a ``question`` entry of the record asked."""
    if body["kind"] == "coin":
        return CoinQuestion(seq, body["purpose"], body["action"], body["proposed_by"],
                            tuple(body.get("flips") or ()))
    return ChoiceQuestion(seq, body["text"], dict(body["options"]), body.get("asked_by", "camera"),
                          tuple(body.get("shows") or ()))


def question_body(question: Question) -> dict[str, Any]:
    """What a ``question`` entry stores (its id is the entry's number)."""
    body = question.to_json()
    del body["id"]
    return body
