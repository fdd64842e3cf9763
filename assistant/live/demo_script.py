"""The demo game: a scripted game of the two embedded decks, as a list of table steps.

A step is what a person does at the table. Most are *seen*: cards laid down, lifted,
slid to other places or turned; each carries the action the camera should infer from
it (SPEC §3, with ``player``), or ``None`` when the camera should infer nothing (a
Knocked Out Pokémon put in the discard pile, a Prize card taken, a Pokémon set upright
once its Special Condition is over). The rest are what only a person can say, entered
at the console: an attack, the end of a turn, and the answer to a question the camera
asked (a swap: a retreat or a Switch? a sideways card: Asleep or Paralyzed?).

The script is data so that a test can compare what the mirror recovers from the video
with what the script did. ``alone`` is what ``table-assistant mirror`` infers with no
person to answer its questions, where that differs (a retreat nobody confirmed leaves
the Pokémon where the mirror last knew them).

Where cards lie is given as *spots* (:data:`SPOTS`): a player's ``active`` or
``bench0``-``bench2``, an Energy attached to one as ``active+1`` (``+2``, ``+3``),
``prize0``-``prize5``. Player A sits at the bottom of the image, B at the top, as
:class:`assistant.mirror.TableLayout` expects; each player's left is their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

#: Where a spot's card lies for player A, as fractions of the image (x, y); B's spots
#: are A's turned half a turn about the centre (B sits across the table).
SPOTS: dict[str, tuple[float, float]] = {
    # Vision needs a gap between two cards to tell them apart, and the mirror an Energy
    # within a quarter of the image of its Pokémon (TableLayout.near).
    "active": (0.5, 0.62),
    "active+1": (0.625, 0.62),
    "active+2": (0.375, 0.62),
    "active+3": (0.745, 0.62),
    "bench0": (0.12, 0.87),
    "bench0+1": (0.235, 0.87),
    "bench1": (0.44, 0.87),
    "bench1+1": (0.555, 0.87),
    "bench2": (0.76, 0.87),
    "bench2+1": (0.875, 0.87),
    "bench2+2": (0.645, 0.87),
    **{f"prize{k}": (0.88 + 0.012 * k, 0.60) for k in range(6)},
}


def spot_xy(player: str, spot: str) -> tuple[float, float]:
    """The centre of ``player``'s ``spot`` in the image (fractions)."""
    x, y = SPOTS[spot]
    return (x, y) if player == "A" else (1 - x, 1 - y)


@dataclass(frozen=True)
class Card:
    """One card on the table: ``key`` names this physical card in the script."""

    key: str
    name: str
    player: str
    spot: str
    #: Quarter turns clockwise from how its player laid it (0, 90, 180, 270).
    turned: int = 0
    face_down: bool = False


@dataclass(frozen=True)
class Seen:
    """Cards laid (on an empty spot, or on a Pokémon: an Evolution), lifted, slid to
    other spots or turned, all in one move of a hand; and what the camera should infer."""

    lay: tuple[Card, ...] = ()
    lift: tuple[str, ...] = ()
    slide: tuple[tuple[str, str], ...] = ()
    turn: tuple[tuple[str, int], ...] = ()
    expect: dict[str, Any] | None = None
    #: What ``table-assistant mirror`` infers instead, with nobody answering it
    #: (``{}``: nothing).
    alone: dict[str, Any] | None = None
    #: The answer a person gives the camera's question about this step.
    answer: str | None = None


@dataclass(frozen=True)
class Say:
    """What a person enters at the console (an attack, the end of a turn)."""

    action: dict[str, Any]


Step = Seen | Say


@dataclass
class Table:
    """The cards on the table, by key, in the order they were laid (later on top)."""

    cards: dict[str, Card] = field(default_factory=dict)

    def after(self, step: Seen) -> Table:
        """The table once ``step`` is done."""
        cards = dict(self.cards)
        for key in step.lift:
            del cards[key]
        for key, spot in step.slide:
            old = cards.pop(key)
            cards[key] = Card(old.key, old.name, old.player, spot, old.turned, old.face_down)
        for key, turned in step.turn:
            old = cards[key]
            cards[key] = Card(old.key, old.name, old.player, old.spot, turned, old.face_down)
        for card in step.lay:
            # An Evolution covers its Pokémon: the covered card is out of sight.
            for other in [k for k, c in cards.items() if (c.player, c.spot) == (card.player, card.spot)]:
                del cards[other]
            cards[card.key] = card
        return Table(cards)


def _bench(player: str, key: str, name: str, spot: str) -> Seen:
    return Seen(lay=(Card(key, name, player, spot),),
                expect={"type": "bench", "player": player, "card": name})


def _laid_on(kind: str, player: str, key: str, name: str, spot: str, target: str, alone: str | None) -> Seen:
    """A card laid at a Pokémon (``kind``: ``attach`` or ``evolve``); ``alone``: the
    target ``table-assistant mirror`` names instead, where it differs."""
    expect = {"type": kind, "player": player, "card": name, "target": target}
    return Seen(lay=(Card(key, name, player, spot),), expect=expect,
                alone={**expect, "target": alone} if alone else None)


def _attach(player: str, key: str, name: str, spot: str, target: str, alone: str | None = None) -> Seen:
    return _laid_on("attach", player, key, name, spot, target, alone)


def _evolve(player: str, key: str, name: str, spot: str, target: str, alone: str | None = None) -> Seen:
    return _laid_on("evolve", player, key, name, spot, target, alone)


def _attack(player: str, name: str, base: int | None = None) -> Say:
    """``base``: the damage an attack's own text decides (none printed), before Weakness."""
    action: dict[str, Any] = {"type": "attack", "player": player, "attack": name}
    return Say(action if base is None else {**action, "base": base})


def _knocked_out(player: str, *keys: str, prizes: tuple[str, ...]) -> tuple[Seen, Seen]:
    """``player``'s Knocked Out Pokémon and its Energy put in the discard pile, then the
    opponent's Prize cards taken: the table has already counted both (the attack)."""
    return Seen(lift=keys), Seen(lift=prizes)


def _end(player: str) -> Say:
    return Say({"type": "end_turn", "player": player})


FIRE, PSYCHIC = "Basic Fire Energy", "Basic Psychic Energy"

#: The table when the video starts: the game is under way (turn 3, A's turn), as the
#: mirror expects of a game it joins.
OPENING = Table({c.key: c for c in [
    Card("aS1", "Scorbunny", "A", "active"),
    Card("bR1", "Ralts", "B", "active"),
    Card("bE1", PSYCHIC, "B", "active+1"),
    Card("bD", "Duskull", "B", "bench0"),
    *(Card(f"{p}P{k}", "prize", p.upper(), f"prize{k}", face_down=True) for p in "ab" for k in range(6)),
]})

#: Turns 3 to 17: A plays the fire deck (Scorbunny → Raboot → Cinderace ex, and
#: Fezandipiti ex, a Darkness Pokémon), B the psychic deck (Ralts → Kirlia → Mega
#: Gardevoir ex, Duskull → Dusclops), whose Pokémon are all Weak to Darkness. A wins on
#: turn 17, when B's last Pokémon is Knocked Out.
SCRIPT: tuple[Step, ...] = (
    # Turn 3, A.
    _bench("A", "aS2", "Scorbunny", "bench0"),
    _attach("A", "aE1", FIRE, "active+1", "A.active"),
    _bench("A", "aV", "Victini", "bench1"),
    _end("A"),
    # Turn 4, B.
    _bench("B", "bR2", "Ralts", "bench1"),
    _attach("B", "bE2", PSYCHIC, "bench0+1", "B.bench[0]"),
    _evolve("B", "bDc", "Dusclops", "bench0", "B.bench[0]"),
    _attack("B", "Headbutt"),
    _end("B"),
    # Turn 5, A.
    _evolve("A", "aRb1", "Raboot", "active", "A.active"),
    _attach("A", "aE2", FIRE, "active+2", "A.active"),
    _attack("A", "Low Sweep"),
    _end("A"),
    # Turn 6, B: Kirlia, then Ralts retreats (discarding its Energy) for Dusclops.
    _evolve("B", "bK", "Kirlia", "bench1", "B.bench[1]"),
    Seen(lift=("bE1",), slide=(("bR1", "bench0"), ("bDc", "active"), ("bE2", "active+1")),
         expect={"type": "retreat", "player": "B", "to": "B.bench[0]"}, answer="retreat"),
    _attach("B", "bE3", PSYCHIC, "active+2", "B.active", alone="B.bench[0]"),
    _end("B"),
    # Turn 7, A: Fezandipiti ex (Darkness) joins the Bench: B's Psychic Pokémon are Weak to it.
    _evolve("A", "aRb2", "Raboot", "bench0", "A.bench[0]"),
    _bench("A", "aFz", "Fezandipiti ex", "bench2"),
    _attach("A", "aE3", FIRE, "bench2+1", "A.bench[2]"),
    _attack("A", "Low Sweep"),
    _end("A"),
    # Turn 8, B: Will-O-Wisp, and A's Raboot is Paralyzed (B turns it a quarter turn
    # clockwise; the camera asks Asleep or Paralyzed, and the judge answers).
    _attach("B", "bE4", PSYCHIC, "bench1+1", "B.bench[1]"),
    _attack("B", "Will-O-Wisp"),
    Seen(turn=(("aRb1", 90),), expect={"type": "condition", "target": "A.active", "add": "Paralyzed", "player": "B"},
         answer="Paralyzed"),
    _end("B"),
    # Turn 9, A: Raboot can neither attack nor retreat. The Pokémon Checkup at the turn's
    # end cures it, and A lays it upright (the table has cured it: nothing to infer).
    _evolve("A", "aCx", "Cinderace ex", "bench0", "A.bench[0]"),
    _attach("A", "aE4", FIRE, "bench2+2", "A.bench[2]"),
    _end("A"),
    Seen(turn=(("aRb1", 0),)),
    # Turn 10, B.
    _attach("B", "bE5", PSYCHIC, "bench0+1", "B.bench[0]", alone="B.active"),
    _end("B"),
    # Turn 11, A: Raboot retreats (one Fire Energy discarded) for Fezandipiti ex, whose
    # Cruel Arrow (100 to the Active, ×2 for Weakness) Knocks Out Dusclops; A takes a
    # Prize card; B promotes Ralts.
    Seen(lift=("aE1",), slide=(("aRb1", "bench2"), ("aFz", "active"), ("aE3", "active+1"), ("aE4", "active+2"),
                               ("aE2", "bench2+1")),
         expect={"type": "retreat", "player": "A", "to": "A.bench[2]"}, answer="retreat"),
    # (Not where the discarded Energy lay: a card put where one just vanished is, to
    # vision, that card back again.)
    _attach("A", "aE5", FIRE, "active+3", "A.active", alone="A.bench[2]"),
    _attack("A", "Cruel Arrow", base=100),
    *_knocked_out("B", "bDc", "bE2", "bE3", prizes=("aP5",)),
    # Alone, the mirror never saw the attack: the Pokémon moved up is no play it can name.
    Seen(slide=(("bR1", "active"), ("bE5", "active+1")),
         expect={"type": "promote", "player": "B", "from": "B.bench[0]"}, alone={}),
    _end("A"),
    # Turn 12, B: Kirlia becomes Mega Gardevoir ex on the Bench; Ralts only draws.
    # (Alone, the mirror still has Dusclops on the Bench before Kirlia: it never saw the
    # Knock Out.)
    _evolve("B", "bMg", "Mega Gardevoir ex", "bench1", "B.bench[0]", alone="B.bench[1]"),
    _attach("B", "bE6", PSYCHIC, "active+2", "B.active"),
    _attack("B", "Collect"),
    _end("B"),
    # Turn 13, A: Cruel Arrow Knocks Out Ralts; B promotes Mega Gardevoir ex, its last Pokémon.
    _attach("A", "aE6", FIRE, "bench0+1", "A.bench[0]"),
    _attack("A", "Cruel Arrow", base=100),
    *_knocked_out("B", "bR1", "bE5", "bE6", prizes=("aP4",)),
    Seen(slide=(("bMg", "active"), ("bE4", "active+1")),
         expect={"type": "promote", "player": "B", "from": "B.bench[0]"}, alone={}),
    _end("A"),
    # Turn 14, B: Mega Symphonia, 50 for each Psychic Energy on B's Pokémon (two).
    _attach("B", "bE7", PSYCHIC, "active+3", "B.active", alone="B.bench[1]"),
    _attack("B", "Mega Symphonia", base=100),
    _end("B"),
    # Turn 15, A.
    _attach("A", "aE7", FIRE, "bench1+1", "A.bench[1]"),
    _attack("A", "Cruel Arrow", base=100),
    _end("A"),
    # Turn 16, B: Fezandipiti ex is left with 10 HP.
    _attack("B", "Mega Symphonia", base=100),
    _end("B"),
    # Turn 17, A: Cruel Arrow Knocks Out Mega Gardevoir ex (three Prize cards): B has no
    # Pokémon in play, and A wins.
    _attack("A", "Cruel Arrow", base=100),
    *_knocked_out("B", "bMg", "bE4", "bE7", prizes=("aP3", "aP2", "aP1")),
)


def seen_steps(script: tuple[Step, ...] = SCRIPT) -> Iterator[tuple[Seen, Table, Table]]:
    """Each seen step with the table before and after it."""
    table = OPENING
    for step in script:
        if isinstance(step, Seen):
            after = table.after(step)
            yield step, table, after
            table = after


def camera_actions(script: tuple[Step, ...] = SCRIPT, *, alone: bool = False) -> list[dict[str, Any]]:
    """The actions the camera should infer, in order. ``alone``: as ``table-assistant
    mirror`` does, with nobody to answer it (its questions stay open) and nobody to end a
    turn (the mirror sees a turn pass when the other player plays)."""
    out: list[dict[str, Any]] = []
    current = "A"
    for step in script:
        if isinstance(step, Say):
            continue
        expect = step.alone if alone and step.alone is not None else step.expect
        if not expect:
            continue
        if alone and expect["type"] != "condition" and expect["player"] != current:
            out.append({"type": "end_turn", "player": current})
            current = expect["player"]
        out.append(expect)
    return out
