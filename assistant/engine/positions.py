"""Position files (SPEC §3): a table position in JSON, in and out.

Cards are written as aliases (defined inline under ``cards`` with pokemontcg.io field
names), as card ids or names the card database knows, or as basic Energy names
(``Fire Energy``). Hidden zones may be counts: ``"hand": {"count": 5}``, ``"deck": 40``,
``"prizes": 6``.

The engine reads no card database itself: whoever opens a position file passes the
lookups (``assistant.catalog`` behind them) to :class:`CardBook`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from assistant.cards import Card, basic_energy, basic_energy_type, fold
from assistant.engine.model import PLAYERS, PlayerState, Position, Slot, TurnFlags

#: Finds a card by a reference (an id or a name), or None.
CardLookup = Callable[[str], "Card | None"]
#: Finds the card of a deck-list line: (name, set code, number) → Card or None.
DeckLineLookup = Callable[[str, str, str], "Card | None"]


class UnknownCard(KeyError):
    """A card reference that is no alias, no basic Energy and unknown to the database."""


class CardBook:
    """The cards one position file speaks of: its aliases, then basic Energy, then the
    card database through ``lookup`` (e.g. ``default_catalog().resolve``). Deck-list
    lines (``deck_check``) go to ``deck_lookup`` after the aliases (e.g.
    ``assistant.decks.catalog_resolver(catalog)``)."""

    def __init__(self, inline: dict[str, Any] | None = None, lookup: CardLookup | None = None,
                 deck_lookup: DeckLineLookup | None = None) -> None:
        self.lookup = lookup
        self.deck_lookup = deck_lookup
        self._looked_up: dict[str, Card] = {}
        self.aliases: dict[str, Card] = {}
        for alias, data in (inline or {}).items():
            if isinstance(data, dict):
                self.aliases[alias] = replace(Card.from_json(data), id=alias)
            else:  # an alias of a card named elsewhere (an id, a name, another alias)
                self.aliases[alias] = self.resolve(str(data))

    def resolve(self, ref: str) -> Card:
        if ref in self.aliases:
            return self.aliases[ref]
        kind = basic_energy_type(ref)
        if kind:
            return basic_energy(kind)
        if ref in self._looked_up:
            return self._looked_up[ref]
        card = self.lookup(ref) if self.lookup else None
        if card is None:
            raise UnknownCard(ref)
        self._looked_up[ref] = card
        return card

    def ref(self, card: Card) -> str:
        """How a position file writes this card."""
        if card.id in self.aliases and self.aliases[card.id] == card:
            return card.id
        if card.is_basic_energy and basic_energy_type(card.name):
            return card.name
        return card.id or card.name

    def matches(self, ref: str, card: Card | None) -> bool:
        """Whether a reference written in an expectation names this card: by alias, id
        or name."""
        if card is None:
            return False
        if ref == card.id or fold(ref) == fold(card.name):
            return True
        try:
            return self.resolve(ref) == card
        except UnknownCard:
            return False

    def deck_resolver(self) -> DeckLineLookup:
        """For ``deck_check``: a deck line's name is looked up among this file's cards
        first (SPEC §4), then through ``deck_lookup``."""
        by_name: dict[str, Card] = {}
        for card in self.aliases.values():
            by_name.setdefault(fold(card.name), card)
        deck_lookup = self.deck_lookup

        def resolve(name: str, set_code: str, number: str) -> Card | None:
            found = by_name.get(fold(name))
            if found is None and deck_lookup is not None:
                found = deck_lookup(name, set_code, number)
            return found

        return resolve


def _zone(value: Any, book: CardBook) -> list[Card | None]:
    if isinstance(value, int):
        return [None] * value
    if isinstance(value, dict):
        return [None] * int(value.get("count", 0))
    return [book.resolve(str(ref)) for ref in value or ()]


def slot_from_json(data: dict[str, Any], book: CardBook) -> Slot:
    return Slot(
        card=book.resolve(str(data["card"])),
        under=[book.resolve(str(c)) for c in data.get("under") or ()],
        energy=[book.resolve(str(c)) for c in data.get("energy") or ()],
        tool=book.resolve(str(data["tool"])) if data.get("tool") else None,
        damage=int(data.get("damage", 0)),
        conditions=set(data.get("conditions") or ()),
        entered_turn=data.get("entered_turn"),
        # optional keys beyond SPEC §3 (allowed extensions): other counters, lingering
        # attack effects, and who attached the Tool when it is not the owner
        markers={str(k): int(v) for k, v in (data.get("markers") or {}).items()},
        effects=set(data.get("effects") or ()),
        tool_owner=data.get("tool_owner"),
    )


def position_from_json(state: dict[str, Any], book: CardBook) -> Position:
    players: dict[str, PlayerState] = {}
    for p in PLAYERS:
        data = state.get("players", {}).get(p, {})
        flags = data.get("turn_flags") or {}
        active = data.get("active")
        players[p] = PlayerState(
            active=slot_from_json(active, book) if active else None,
            bench=[slot_from_json(s, book) for s in data.get("bench") or ()],
            hand=_zone(data.get("hand", []), book),
            deck=_zone(data.get("deck", 0), book),
            prizes=_zone(data.get("prizes", 0), book),
            discard=[c for c in _zone(data.get("discard", []), book) if c is not None],
            lost_zone=[c for c in _zone(data.get("lost_zone", []), book) if c is not None],
            flags=TurnFlags(
                energy_attached=bool(flags.get("energy_attached", False)),
                supporters=int(bool(flags.get("supporter_played", False))),
                stadiums=int(bool(flags.get("stadium_played", False))),
                retreats=int(bool(flags.get("retreated", False))),
            ),
            gx_used=bool(data.get("gx_used", False)),
            vstar_used=bool(data.get("vstar_used", False)),
            mulligans=int(data.get("mulligans", 0)),
            v_unions_played=set(data.get("v_unions_played") or ()),
        )
    stadium = state.get("stadium")
    phase = state.get("phase", "main")
    position = Position(
        players=players,
        turn=int(state.get("turn", 1)),
        current=state.get("current", "A"),
        first=state.get("first", "A"),
        phase="main" if phase in ("checkup", "promote") else phase,
        stadium=(book.resolve(str(stadium["card"])), stadium.get("owner", "A")) if stadium else None,
    )
    if phase == "setup":
        position.dealt = any(players[p].hand or players[p].active for p in PLAYERS)
    else:
        for p in sorted(PLAYERS, key=lambda q: q == position.current):
            if players[p].active is None and players[p].bench:
                position.pending_promotion.append(p)
        if position.pending_promotion:
            position.phase = "promote"
    return position


def _zone_json(zone: list[Card | None], book: CardBook) -> Any:
    if any(c is None for c in zone):
        return {"count": len(zone)}
    return [book.ref(c) for c in zone if c is not None]


def slot_to_json(slot: Slot, book: CardBook) -> dict[str, Any]:
    out: dict[str, Any] = {"card": book.ref(slot.card)}
    if slot.under:
        out["under"] = [book.ref(c) for c in slot.under]
    if slot.energy:
        out["energy"] = [book.ref(c) for c in slot.energy]
    if slot.tool is not None:
        out["tool"] = book.ref(slot.tool)
    if slot.damage:
        out["damage"] = slot.damage
    if slot.conditions:
        out["conditions"] = sorted(slot.conditions)
    if slot.entered_turn is not None:
        out["entered_turn"] = slot.entered_turn
    if slot.markers:
        out["markers"] = dict(sorted(slot.markers.items()))
    if slot.effects:
        out["effects"] = sorted(slot.effects)
    if slot.tool_owner is not None:
        out["tool_owner"] = slot.tool_owner
    return out


def position_to_json(pos: Position, book: CardBook) -> dict[str, Any]:
    """The SPEC §3 ``state`` of a position (unknown cards written as counts)."""
    players: dict[str, Any] = {}
    for p in PLAYERS:
        me = pos.players[p]
        deck = _zone_json(me.deck, book)
        players[p] = {
            "active": slot_to_json(me.active, book) if me.active else None,
            "bench": [slot_to_json(s, book) for s in me.bench],
            "hand": _zone_json(me.hand, book),
            "deck": deck["count"] if isinstance(deck, dict) else deck,
            "prizes": len(me.prizes),
            "discard": [book.ref(c) for c in me.discard],
            "lost_zone": [book.ref(c) for c in me.lost_zone],
            "turn_flags": {
                "energy_attached": me.flags.energy_attached,
                "supporter_played": me.flags.supporters > 0,
                "stadium_played": me.flags.stadiums > 0,
                "retreated": me.flags.retreats > 0,
            },
            "gx_used": me.gx_used,
            "vstar_used": me.vstar_used,
            "mulligans": me.mulligans,
        }
        if me.v_unions_played:
            players[p]["v_unions_played"] = sorted(me.v_unions_played)
    out: dict[str, Any] = {"turn": pos.turn, "current": pos.current, "first": pos.first,
                           "phase": pos.phase, "players": players}
    if pos.stadium is not None:
        out["stadium"] = {"card": book.ref(pos.stadium[0]), "owner": pos.stadium[1]}
    return out


def cards_to_json(pos: Position, book: CardBook) -> dict[str, Any]:
    """Inline definitions for every card of the position that has an alias."""
    every: list[Card | None] = []
    for p in PLAYERS:
        me = pos.players[p]
        every += [*me.hand, *me.deck, *me.prizes, *me.discard, *me.lost_zone]
        for slot in me.in_play():
            every += slot.cards()
    if pos.stadium is not None:
        every.append(pos.stadium[0])
    seen: dict[str, Any] = {}
    for card in every:
        if card is None:
            continue
        ref = book.ref(card)
        if ref in book.aliases and ref not in seen:
            data = card.to_json()
            data.pop("id", None)
            seen[ref] = data
    return seen


def save_position(pos: Position, book: CardBook, era: str, title: str = "") -> dict[str, Any]:
    """A whole position file with no actions yet (``do`` is for the caller to add)."""
    return {"title": title or "saved position", "era": era,
            "cards": cards_to_json(pos, book), "state": position_to_json(pos, book)}
