"""How the table mirror follows the table between plays: cards that changed places, and
turns that passed.

Vision's track ids follow *places*, not cards: a card slid onto the spot another card
just left keeps that spot's track, and is read afresh. So when two Pokémon swap places
(a retreat), each place's track now shows the other card's name; when a Benched Pokémon
moves up into an empty Active Spot, the Active Spot's track shows its name while its own
track vanishes. :func:`moves` pairs such tracks so the mirror can exchange what it knows
about them, rather than mistake a moved card for an Evolution laid on the other.

Nobody can see a turn end, but the table shows whose turn it is: a player who lays a
card is taking their turn. :func:`passes_turn` says whether a play refused only because
it is the other player's turn would be legal once the turn passed.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

from assistant.editions import Edition
from assistant.engine.actions import Action, EndTurn
from assistant.engine.coins import OutOfCoins, ScriptedCoins
from assistant.engine.game import Game
from assistant.engine.model import Position


def moves(shown: Mapping[int, str | None], known: Mapping[int, str], owner: Mapping[int, str],
          visible: set[int]) -> tuple[list[tuple[int, int]], set[int]]:
    """Tracks whose cards moved: pairs ``(here, there)`` where the card the mirror knew
    at ``there`` now lies at ``here`` (exchange what is known of the two), and the tracks
    to leave alone until the other half of a swap has been read.

    ``shown``: each visible track's name now (None: not read yet); ``known``: the name
    the mirror last knew at each track it follows, ``owner``: whose card that is."""
    pairs: list[tuple[int, int]] = []
    waiting: set[int] = set()
    used: set[int] = set()
    for here, name in shown.items():
        old = known.get(here)
        if name is None or old is None or name == old or here in used:
            continue
        others = [t for t, n in known.items() if n == name and t != here and t not in used
                  and owner.get(t) == owner.get(here)]
        # Best the other half of a swap (it now shows this track's old card), then a
        # card that left its place; a place still being read is waited for.
        swapped = [t for t in others if shown.get(t) == old]
        gone = [t for t in others if t not in visible]
        unread = [t for t in others if t in visible and shown.get(t) is None]
        there = (swapped or gone or [None])[0]
        if there is not None:
            pairs.append((here, there))
            used.update((here, there))
        elif unread:
            waiting.add(here)
    return pairs, waiting


def passes_turn(position: Position, edition: Edition, action: Action) -> bool:
    """Whether ``action``, refused because it is not its player's turn, is legal once the
    turn passes (Pokémon Checkup needing no coin a person has not given)."""
    game = Game(copy.deepcopy(position), edition, ScriptedCoins())
    try:
        if not game.play(EndTurn()).accepted:
            return False
    except OutOfCoins:
        return False
    return game.check(action) is None
