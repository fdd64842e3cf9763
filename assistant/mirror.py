"""The table mirror: what the players did on the table, as rules-engine actions.

Vision reports the cards it sees, each with a track id that stays with the card from
frame to frame, a settled name (or ``None`` when it is not sure) and where it lies. The
mirror turns successive *table snapshots* of such cards into SPEC §3 actions and asks
the rules engine about each one. Data only flows one way (camera → vision → mirror →
engine): this module knows nothing of images; :class:`SeenCard` is all it needs.

Where things lie (:class:`TableLayout`): in the zones of :mod:`assistant.mat_layout`,
player A's at the bottom of the picture, B's at the top: the Active Spot by the centre
line, the Bench beyond it, the deck, discard, Prizes and Lost Zone around them.

What the mirror infers, by comparing the table with what it already mirrored
(the verdict in brackets):

- a new Basic Pokémon in a player's Bench row → ``bench`` (the engine's);
- an Evolution card laid where a Pokémon lay → ``evolve`` (the engine's);
- an Energy card appearing at a Pokémon or tucked under it → ``attach`` (the engine's);
- the Active and a Benched Pokémon changing places → ``retreat`` (``pending`` when the
  engine would allow it: a Switch effect moves the same two cards; else the reason);
- a Benched Pokémon moved up while the engine awaits a promotion → ``promote`` (the
  engine's);
- the Active turned sideways → ``condition`` (``pending``: a person says Asleep or
  Paralyzed; turned clockwise suggests Paralyzed, counter-clockwise Asleep);
- the Active turned upside down → ``condition`` Confused (``pending``);
- a turned Active back upright → ``condition`` remove (``pending``).

"The engine's" verdict is ``accepted`` (and the action is played) or the refusal's
reason code (and nothing changes). Special Conditions are always left to a person:
they come from effects the mirror cannot see, and the way a card is turned is the
least certain thing vision reads (upside down and upright differ only by which end
looks like a title). Confused is therefore ``pending`` too, though only Confusion turns
a card upside down. A retreat the engine would refuse is reported with its reason;
one it would accept stays ``pending``, because a Switch card moves the same two cards.

What the mirror never does:

- act on a card whose name is ``None`` (a wrong answer is worse than none);
- infer anything from a card leaving the table (a Knock Out, a discard, a card picked
  up to be moved look alike), nor Trainer cards, attacks, damage or draws;
- see a turn end. A person may say so (:meth:`TableMirror.end_turn`); otherwise the
  turn passes when the other player makes a play that is legal only on their turn
  (``end_turn`` is then inferred first, see :mod:`assistant.mirror_follow`).

Cards that change places keep vision's track of the place they move to, not their own;
the mirror follows them (:func:`assistant.mirror_follow.moves`): two Pokémon swapping
places are a retreat, a Benched Pokémon moved into the Active Spot is that Pokémon.

Hidden information: the mirror starts from the first snapshot it is shown, as a game
in progress in phase ``main`` (turn 3 by default: past both first turns, whose special
rules a view joined mid-game cannot judge). Cards in play are what is seen; each
player's other cards are unknown (``None`` in the engine's zones, see
:mod:`assistant.engine.model`): the edition's Prize cards (six), and the unseen rest of
its deck (60) split between hand and deck, so that no play is refused for want of a
card nobody can see.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from assistant.cards import Card
from assistant.editions import Edition
from assistant.engine.actions import (
    Action,
    Attach,
    Bench,
    ChangeCondition,
    EndTurn,
    Evolve,
    Promote,
    Retreat,
    Switch,
    Target,
    action_to_json,
)
from assistant.engine.coins import CoinSource, OutOfCoins, ScriptedCoins
from assistant.engine.game import Game
from assistant.engine.model import PLAYERS, ROTATION, PlayerState, Position, Slot, other, plays_as_basic
from assistant.mirror_follow import moves, passes_turn
from assistant.mirror_tucked import with_tucked
from assistant.table_layout import SeenCard, TableLayout

__all__ = ["Inference", "SeenCard", "TableLayout", "TableMirror"]

#: Looks a seen card up: (name, card id or None) → the card, or None if unknown.
Resolve = Callable[[str, "str | None"], "Card | None"]

#: How a turn of the Active card (clockwise, relative to how it lay upright) reads:
#: Paralyzed turns the card clockwise, Asleep counter-clockwise, Confused upside down.
#: Vision's quarter turns are trusted as "sideways" only: the person chooses.
SIDEWAYS = ("Asleep", "Paralyzed")


@dataclass
class Inference:
    """One action the mirror inferred, and its verdict: ``accepted``, ``pending`` (a
    person must confirm; ``choices`` says between what, the action holds the likelier
    one) or a refusal's reason code. ``number`` names it for :meth:`TableMirror.confirm`."""

    number: int
    action: Action
    player: str
    verdict: str
    choices: tuple[str, ...] = ()
    #: Brings the mirror's card → slot map up to date once the action is played.
    on_accept: Callable[[], None] | None = field(default=None, repr=False, compare=False)

    def to_json(self, **context: Any) -> dict[str, Any]:
        """The SPEC §3 action with ``player``, then ``context`` (the command's ``frame``
        and ``t``), then ``verdict`` (and ``choices`` when a person must pick)."""
        out = action_to_json(self.action, lambda card: card.name)
        out["player"] = self.player
        out.update(context)
        out["verdict"] = self.verdict
        if self.choices and self.verdict == "pending":
            out["choices"] = list(self.choices)
        return out


#: A situation the mirror may report: its signature (one report per signature while it
#: lasts), the tracks of the cards it concerns, and what makes the inference.
_Proposal = tuple[tuple, tuple[int, ...], Callable[[], Inference | None]]


@dataclass
class _Named:
    """A seen card with a known name, and the card it is."""

    seen: SeenCard
    card: Card

    @property
    def track(self) -> int:
        return self.seen.track

    @property
    def is_pokemon(self) -> bool:
        return self.card.is_pokemon or plays_as_basic(self.card)


def _distance(a: SeenCard | tuple[float, float], b: SeenCard | tuple[float, float]) -> float:
    ax, ay = (a.x, a.y) if isinstance(a, SeenCard) else a
    bx, by = (b.x, b.y) if isinstance(b, SeenCard) else b
    return math.hypot(ax - bx, ay - by)


class TableMirror:
    """Keeps a :class:`~assistant.engine.game.Game` in step with the table.

    Call :meth:`see` with each table snapshot; it answers with the actions it inferred
    from what changed. The game starts at the first snapshot (see the module text).
    """

    def __init__(self, edition: Edition, layout: TableLayout | None = None,
                 resolve: Resolve | None = None, *, current: str = "A", turn: int = 3,
                 coins: CoinSource | None = None, turns_from_table: bool = True) -> None:
        self.edition = edition
        #: Whether a play by the other player passes the turn (see the module text);
        #: where a person ends turns at the console, such a play is refused instead.
        self.turns_from_table = turns_from_table
        self.layout = layout or TableLayout()
        self.resolve = resolve or _catalog_resolver()
        self.current = current
        self.turn = turn
        self.coins = coins or ScriptedCoins()  # never invents a flip: a person gives it
        self.game: Game | None = None
        self.pending: dict[int, Inference] = {}
        # The mirror's picture of the table, by track id: which engine slot a Pokémon
        # card is, under what name, how it lay when upright and where it was last seen.
        self._target: dict[int, Target] = {}
        self._name: dict[int, str] = {}
        self._upright: dict[int, int] = {}
        self._last_xy: dict[int, tuple[float, float]] = {}
        self._energy: dict[int, str] = {}  # Energy cards already accounted for, by name
        self._visible: set[int] = set()  # the tracks of the last snapshot
        self._passed: list[Inference] = []  # turns that passed before the last inference
        # Situations already reported: one report per change on the table, not one per
        # frame. A situation stays reported while any card it concerns is out of sight.
        self._open: dict[tuple, tuple[int, ...]] = {}
        self._found: dict[int, int] = {}  # a lost card's old track → the one it was found under
        self._count = 0

    # -- public ------------------------------------------------------------------------

    def see(self, snapshot: Sequence[SeenCard]) -> list[Inference]:
        """Compare a snapshot with the mirrored table; the inferred actions, in order."""
        snapshot = with_tucked(snapshot)  # an Energy tucked under a Pokémon lies at it
        named = [_Named(c, card) for c in snapshot if c.name is not None
                 for card in [self.resolve(c.name, c.card_id)] if card is not None]
        visible = {c.track for c in snapshot}
        if self.game is None:
            self._start(named)
            self._visible = visible
            return []
        game = self.game
        proposals: list[_Proposal] = []
        pokemon = [n for n in named if n.is_pokemon]
        waiting = self._follow_moves(snapshot, visible)
        self._reidentify(pokemon, visible)
        for item in pokemon:
            if item.track in waiting:
                continue
            if item.track in self._target:
                if item.card.name != self._name[item.track] and item.card.is_evolution:
                    proposals.append((("evolve", item.track, item.card.name), (item.track,),
                                      self._evolve_maker(item, item.track)))
                continue
            under = self._covered(item, visible) if item.card.is_evolution else None
            if under is not None:
                proposals.append((("evolve", item.track, item.card.name), (item.track,),
                                  self._evolve_maker(item, under)))
            elif self._may_bench(item):
                proposals.append((("bench", item.track), (item.track,), self._bench_maker(item)))
        for item in named:
            if item.card.is_energy and item.track not in self._energy and not self._moved_energy(item, visible):
                slot_track = self._nearest_slot(item.seen, pokemon)
                if slot_track is not None:
                    proposals.append((("attach", item.track, slot_track), (item.track,),
                                      self._attach_maker(item, slot_track)))
        arranged = self.layout.arrange(n.seen for n in pokemon if n.track in self._target)
        for player in PLAYERS:
            proposals += self._moves(player, arranged[player], visible)
            proposals += self._turns(player, pokemon)
        out: list[Inference] = []
        proposed: dict[tuple, tuple[int, ...]] = {}
        for signature, tracks, make in proposals:
            proposed[signature] = tracks
            if signature in self._open or game.position.winner is not None:
                continue
            inference = make()
            out += self._passed
            self._passed = []
            if inference is not None:
                out.append(inference)
        # A situation no longer seen while all its cards are in sight, and read, has been
        # resolved (a card being read afresh under a hand says nothing yet).
        read = {item.track for item in named}
        self._open = {sig: tracks for sig, tracks in self._open.items()
                      if not set(tracks) <= read} | proposed
        for item in named:
            self._last_xy[item.track] = (item.seen.x, item.seen.y)
        self._visible = visible
        return out

    def confirm(self, number: int, choice: str | None = None) -> Inference:
        """A person confirms pending inference ``number``: for a sideways Active, which
        condition (``Asleep`` or ``Paralyzed``); for a swap, ``retreat`` or
        ``switch``. The action is then played; the answer carries the verdict."""
        inference = self.pending.pop(number)
        action = inference.action
        if choice is not None:
            if inference.choices and choice not in inference.choices:
                self.pending[number] = inference
                raise ValueError(f"choose one of {', '.join(inference.choices)}")
            if action.type == "condition":
                action = replace(action, add=choice)
            elif action.type == "retreat" and choice == "switch":
                action = Switch(player=action.player, to=action.to)
        return self._play(inference.number, action, inference.player, inference.on_accept)

    def reject(self, number: int) -> None:
        """A person says pending inference ``number`` did not happen."""
        self.pending.pop(number)

    def end_turn(self) -> Inference:
        """A person says the turn ended: Pokémon Checkup, then the other player's turn."""
        game = self._game()
        return self._play(self._next(), EndTurn(), game.position.current, None)

    def settled(self, number: int, played: bool) -> None:
        """Pending inference ``number`` was settled elsewhere (a person answered the live
        table, which played the action or not): bring the card → slot map up to date.
        Follow with :meth:`follow`, since the table's position is the truth."""
        inference = self.pending.pop(number, None)
        if played and inference is not None and inference.on_accept is not None:
            inference.on_accept()

    def follow(self, position: Position) -> None:
        """Take the live table's position as the mirror's own (someone at the console
        attacked, ended a turn, corrected the record): links to slots the position no
        longer agrees with are forgotten, as after a Knock Out."""
        if self.game is not None:
            self.game.position = position
            self._resync()

    # -- the starting position ---------------------------------------------------------

    def _start(self, named: list[_Named]) -> None:
        """The first snapshot is the position: what lies in play is in play."""
        pokemon = [n for n in named if n.is_pokemon]
        cards = {n.track: n.card for n in named}
        arranged = self.layout.arrange(n.seen for n in pokemon)
        players: dict[str, PlayerState] = {}
        slots: dict[int, Slot] = {}
        for player in PLAYERS:
            active, bench = arranged[player]
            state = PlayerState()
            if active is not None:
                state.active = slots[active.track] = Slot(cards[active.track])
                self._map(active, (player, None), cards[active.track])
            for index, seen in enumerate(bench):
                state.bench.append(Slot(cards[seen.track]))
                slots[seen.track] = state.bench[-1]
                self._map(seen, (player, index), cards[seen.track])
            players[player] = state
        placed = [n.seen for n in pokemon if n.track in slots]
        for item in named:
            if item.card.is_energy:
                self._energy[item.track] = item.card.name
                holder = self._nearest(item.seen, placed)
                if holder is not None:
                    slots[holder.track].energy.append(item.card)
        prizes = self.edition.prize_cards
        for state in players.values():
            unseen = max(0, self.edition.deck_size - prizes - sum(len(s.cards()) for s in state.in_play()))
            state.prizes = [None] * prizes
            state.hand = [None] * (unseen // 2)
            state.deck = [None] * (unseen - unseen // 2)
        # Game turns count both players' turns from 1: the first player has the odd ones.
        first = self.current if self.turn % 2 else other(self.current)
        position = Position(players, turn=self.turn, current=self.current, first=first)
        self.game = Game(position, self.edition, self.coins)
        for item in named:
            self._last_xy[item.track] = (item.seen.x, item.seen.y)

    def _map(self, seen: SeenCard, target: Target, card: Card) -> None:
        self._target[seen.track] = target
        self._name[seen.track] = card.name
        self._upright[seen.track] = seen.rotation

    def _forget(self, track: int) -> None:
        """Drop a card's link to its engine slot."""
        for table in (self._target, self._name, self._upright):
            table.pop(track, None)

    # -- reading the table -------------------------------------------------------------

    def _reidentify(self, pokemon: list[_Named], visible: set[int]) -> None:
        """Vision may lose a card (a long hand over it) and find it again under a new
        track id: the same name where a mirrored card vanished is that card."""
        for item in pokemon:
            if item.track in self._target:
                continue
            lost = [t for t in self._target if t not in visible and self._name[t] == item.card.name]
            near = [t for t in lost if _distance(self._last_xy.get(t, (9, 9)), item.seen) <= self.layout.near]
            # Far from where it was: a card moved up to the Active Spot, if only one fits.
            lost = near or (lost if len(lost) == 1 else [])
            if lost:
                self._found_again(min(lost, key=lambda t: _distance(self._last_xy[t], item.seen)), item.track)

    def _found_again(self, old: int, new: int) -> None:
        """The card of track ``old`` is seen again as track ``new``: what is known of it
        moves there, and so do the situations already reported about it (a question
        nobody has answered yet is not asked again) and the pending actions naming it."""
        for table in (self._target, self._name, self._upright):
            table[new] = table.pop(old)

        def renamed(tracks: tuple) -> tuple:  # every int in a signature is a track
            return tuple(new if part == old else part for part in tracks)

        self._open = {renamed(signature): renamed(tracks) for signature, tracks in self._open.items()}
        self._found[old] = new

    def _now(self, track: int) -> int:
        """The track a card has now, had vision lost and found it since."""
        return self._now(self._found[track]) if track in self._found else track

    def _follow_moves(self, snapshot: Sequence[SeenCard], visible: set[int]) -> set[int]:
        """Exchange what is known of tracks whose cards changed places; the tracks to
        leave alone until the other half of a swap is read."""
        owner = {t: who for t, (who, _) in self._target.items()}
        shown = {c.track: c.name for c in snapshot if c.track in self._target}
        pairs, waiting = moves(shown, self._name, owner, visible)
        for here, there in pairs:
            for table in (self._target, self._name, self._upright):
                table[here], table[there] = table[there], table[here]
        return waiting

    def _moved_energy(self, item: _Named, visible: set[int]) -> bool:
        """An Energy card that moved with its Pokémon (a retreat, a promotion): one of the
        same name, accounted for, that was in the last snapshot and is gone from this one."""
        moved = [t for t, name in self._energy.items()
                 if name == item.card.name and t in self._visible and t not in visible]
        if moved:
            del self._energy[moved[0]]
            self._energy[item.track] = item.card.name
        return bool(moved)

    def _covered(self, item: _Named, visible: set[int]) -> int | None:
        """The mirrored Pokémon of the same player that an Evolution card now covers:
        its card is out of sight and it was last seen where the new card lies."""
        player = self.layout.side(item.seen)
        under = [t for t, (who, _) in self._target.items() if who == player and t not in visible
                 and _distance(self._last_xy.get(t, (9, 9)), item.seen) <= self.layout.near]
        return min(under, key=lambda t: _distance(self._last_xy[t], item.seen)) if under else None

    def _may_bench(self, item: _Named) -> bool:
        """A new Pokémon is benched when it lies in one of its player's Bench zones, or
        in the Active zone of a player with no Active Pokémon (the engine then makes it
        the Active). Anything else (a second Active, a Pokémon in the discard pile) is no
        play the mirror can name. A card in the Active zone of a player who must promote
        is the Benched Pokémon moving up (or, until vision reads it afresh, the Knocked
        Out one's old name): never a bench."""
        player, row = self.layout.place(item.seen)
        position = self._game().position
        return row == "bench" or (row == "active" and position.players[player].active is None
                                  and player not in position.pending_promotion)

    def _nearest(self, seen: SeenCard, candidates: Iterable[SeenCard]) -> SeenCard | None:
        close = [c for c in candidates if _distance(c, seen) <= self.layout.near]
        return min(close, key=lambda c: _distance(c, seen)) if close else None

    def _nearest_slot(self, seen: SeenCard, pokemon: list[_Named]) -> int | None:
        """The mirrored Pokémon an Energy card lies at. If the nearest Pokémon is not
        mirrored yet (benched in the same glance), wait for it rather than guess."""
        holder = self._nearest(seen, [n.seen for n in pokemon])
        return holder.track if holder is not None and holder.track in self._target else None

    def _active_track(self, player: str) -> int | None:
        return next((t for t, target in self._target.items() if target == (player, None)), None)

    def _moves(self, player: str, arranged: tuple[SeenCard | None, list[SeenCard]],
               visible: set[int]) -> list[_Proposal]:
        """A Benched Pokémon now in the Active Spot: a retreat (or a switch) when the
        old Active lies on the Bench, a promotion when the engine awaits one."""
        seen_active, bench = arranged
        if seen_active is None:
            return []
        target = self._target.get(seen_active.track)
        if target is None or target[1] is None:
            return []
        new, to = seen_active.track, target
        if player in self._game().position.pending_promotion:
            action = Promote(player=player, source=to)
            return [(("promote", new), (new,), lambda: self._judge(action, self._promoted(player, new)))]
        old = self._active_track(player)
        if old is None or old not in {c.track for c in bench}:
            return []
        action = Retreat(player=player, to=to)
        return [(("retreat", old, new), (old, new),
                 lambda: self._judge(action, self._swapped(old, new), pending=True,
                                     choices=("retreat", "switch")))]

    def _turns(self, player: str, pokemon: list[_Named]) -> list[_Proposal]:
        """The Active card turned from how it lay upright: a Special Condition. (Moved
        to the Bench, it is laid upright again: that is the move, not a condition.)"""
        track = self._active_track(player)
        seen = next((n.seen for n in pokemon if n.track == track), None)
        slot = self._game().position.players[player].active
        if track is None or seen is None or slot is None or self.layout.row(seen) != "active":
            return []
        turned = (seen.rotation - self._upright[track]) % 360
        has = slot.conditions & ROTATION
        target = (player, None)
        action: Action | None = None
        choices: tuple[str, ...] = ()
        if turned == 0 and has:
            action = ChangeCondition(target=target, remove=min(has))
        elif turned == 180 and "Confused" not in has:
            action = ChangeCondition(target=target, add="Confused")
        elif turned in (90, 270) and not has & set(SIDEWAYS):
            action = ChangeCondition(target=target, add="Paralyzed" if turned == 90 else "Asleep")
            choices = SIDEWAYS
        if action is None:
            return []
        chosen = action
        return [(("condition", track, f"{turned}°"), (track,),
                 lambda: self._judge(chosen, None, pending=True, choices=choices))]

    # -- building and judging actions --------------------------------------------------

    def _bench_maker(self, item: _Named) -> Callable[[], Inference | None]:
        player = self.layout.side(item.seen)

        def make() -> Inference | None:
            me = self._game().position.players[player]
            target: Target = (player, None if me.active is None else len(me.bench))
            action = Bench(player=player, card=item.card)
            return self._judge(action, lambda: self._map(item.seen, target, item.card))

        return make

    def _evolve_maker(self, item: _Named, under: int) -> Callable[[], Inference | None]:
        def make() -> Inference | None:
            target = self._target.get(under)
            if target is None:
                return None

            def mapped() -> None:
                if under != item.track:
                    self._forget(under)
                self._map(item.seen, target, item.card)

            return self._judge(Evolve(player=target[0], card=item.card, target=target), mapped)

        return make

    def _attach_maker(self, item: _Named, holder: int) -> Callable[[], Inference | None]:
        def make() -> Inference | None:
            target = self._target.get(holder)
            if target is None:
                return None
            action = Attach(player=target[0], card=item.card, target=target)
            return self._judge(action, lambda: self._energy.__setitem__(item.track, item.card.name))

        return make

    def _swapped(self, old: int, new: int) -> Callable[[], None]:
        def swap() -> None:
            a, b = self._now(old), self._now(new)
            self._target[a], self._target[b] = self._target[b], self._target[a]
        return swap

    def _promoted(self, player: str, new: int) -> Callable[[], None]:
        def promote() -> None:
            index = self._target[new][1]
            assert index is not None
            old = self._active_track(player)
            if old is not None:
                self._forget(old)
            for track, (who, at) in list(self._target.items()):
                if who == player and at is not None and at > index:
                    self._target[track] = (who, at - 1)
            self._target[new] = (player, None)
        return promote

    def _judge(self, action: Action, on_accept: Callable[[], None] | None, *,
               pending: bool = False, choices: tuple[str, ...] = ()) -> Inference:
        """Ask the engine. Refused: the reason code, nothing changes. Legal but a
        person must confirm: ``pending``. Otherwise the action is played."""
        game = self._game()
        refusal = game.check(action)
        if (refusal is not None and refusal.reason == "not-your-turn" and self.turns_from_table
                and passes_turn(game.position, self.edition, action)):
            self._passed.append(self.end_turn())
            refusal = game.check(action)
        number = self._next()
        player = action.player or game.position.current
        if refusal is not None:
            return Inference(number, action, player, refusal.reason)
        if pending:
            inference = Inference(number, action, player, "pending", choices, on_accept)
            self.pending[number] = inference
            return inference
        return self._play(number, action, player, on_accept)

    def _play(self, number: int, action: Action, player: str,
              on_accept: Callable[[], None] | None) -> Inference:
        try:
            outcome = self._game().play(action)
        except OutOfCoins:
            # The action needs a coin flip and nobody has given it: a person must.
            inference = Inference(number, action, player, "pending", ("coin",), on_accept)
            self.pending[number] = inference
            return inference
        if not outcome.accepted:
            return Inference(number, action, player, outcome.reason or "refused")
        if on_accept is not None:
            on_accept()
        self._resync()
        return Inference(number, action, player, "accepted")

    def _resync(self) -> None:
        """Forget card → slot links the engine no longer agrees with (a Knock Out in
        Pokémon Checkup, a promotion): better no link than a wrong one."""
        position = self._game().position
        for track, (player, index) in list(self._target.items()):
            slot = position.slot(player, index)
            if slot is None or slot.card.name != self._name.get(track):
                self._forget(track)

    def _next(self) -> int:
        self._count += 1
        return self._count

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("the mirror has not seen the table yet")
        return self.game


def _catalog_resolver() -> Resolve:
    """Cards by printing id first (vision's id is exact when given), then by name.
    Cached: every snapshot names the same cards again, and a miss may query the card
    database."""
    from assistant.catalog import default_catalog

    catalog = default_catalog()

    @cache
    def resolve(name: str, card_id: str | None) -> Card | None:
        card = catalog.get(card_id) if card_id else None
        return card if card is not None else catalog.resolve(name)

    return resolve
