"""``table-assistant demo``: the pipeline on embedded defaults.

The dashboard, the bundled table video and the serial device are not built yet; until
they are, the demo shows what is: the embedded card set and the legality of its two
decks, then one game between them played by random legal moves through the rules
engine, with the events a judge would see.
"""

from __future__ import annotations

import random
from typing import TextIO

from assistant.catalog import default_catalog
from assistant.decks import catalog_resolver, check_deck_text
from assistant.editions import edition
from assistant.embedded import embedded_deck_texts, embedded_decks
from assistant.engine.coins import SeededCoins
from assistant.engine.selfplay import new_game, play_random_game
from table_assistant.deck_command import print_report

SHOWN_EVENTS = ("knockout", "prize", "win")


def demo(*, host: str, port: int, era: str, out: TextIO, seed: int = 7) -> int:
    catalog = default_catalog()
    print(f"Embedded card set: {len(catalog.embedded)} cards.", file=out)
    resolve = catalog_resolver(catalog)
    for name, text in embedded_deck_texts().items():
        print_report(f"deck {name}", check_deck_text(text, era, resolve), out)

    decks = embedded_decks()
    names = list(decks)
    game = new_game(decks[names[0]], decks[names[1]], edition(era), SeededCoins(seed), random.Random(seed))
    print(f"\nA self-play game under {era}: A plays {names[0]}, B plays {names[1]} "
          f"(random legal moves, seeded coins {seed}).", file=out)

    def show(_game, outcome) -> None:  # noqa: ANN001 - selfplay's callback
        for event in outcome.events:
            if event.get("type") in SHOWN_EVENTS:
                details = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
                print(f"  turn {game.position.turn}: {event['type']}: {details}", file=out)

    stats = play_random_game(game, random.Random(seed), after_step=show)
    print(f"  {stats.actions} actions, winner: {stats.winner or 'none yet'}", file=out)
    print(f"\nThe dashboard (to be served on http://{host}:{port}/) is not built yet.", file=out)
    return 0
