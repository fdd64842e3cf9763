"""Energy tucked under a Pokémon, as the table mirror sees it.

A player attaches an Energy by sliding it under their Pokémon with an edge showing
(vision reports it on the Pokémon's card: :attr:`SeenCard.tucked`). The mirror already
knows an Energy card laid beside a Pokémon as one Attach to it, and an Energy that
moved with its Pokémon as none; :func:`with_tucked` shows it each tucked Energy as such a
card, lying where its Pokémon lies, under a track of its own derived from the
Pokémon's: the Energy keeps its track as long as its Pokémon keeps its own, so it is
attached once, and when its Pokémon moves (a retreat) it moves with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from assistant.table_layout import SeenCard

#: Tucked cards a Pokémon's track has room for (a tucked card's track is negative:
#: vision's tracks never are).
PER_POKEMON = 16


def tucked_track(holder: int, index: int) -> int:
    """The track of the ``index``-th Energy tucked under the card of track ``holder``."""
    return -(holder * PER_POKEMON + index + 1)


def with_tucked(snapshot: Sequence[SeenCard]) -> list[SeenCard]:
    """``snapshot`` with each Energy tucked under a card shown as a card of its own, at
    its Pokémon's place. A card whose name vision has not settled says nothing of what
    lies under it yet."""
    cards = list(snapshot)
    for card in snapshot:
        if card.name is None:
            continue
        cards += [SeenCard(tucked_track(card.track, k), name, None, card.x, card.y)
                  for k, name in enumerate(card.tucked[:PER_POKEMON])]
    return cards
