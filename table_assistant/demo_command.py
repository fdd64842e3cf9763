"""``table-assistant demo``: the pipeline on embedded defaults.

The dashboard and the bundled table video are not built yet; until they are, the demo
shows what is: the embedded card set and the legality of its two decks.
"""

from __future__ import annotations

from typing import TextIO

from assistant.catalog import default_catalog
from assistant.decks import catalog_resolver, check_deck, parse_deck_list
from assistant.embedded import embedded_deck_texts
from table_assistant.deck_command import print_report


def demo(*, host: str, port: int, out: TextIO) -> int:
    catalog = default_catalog()
    print(f"Embedded card set: {len(catalog.embedded)} cards.", file=out)
    resolve = catalog_resolver(catalog)
    for name, text in embedded_deck_texts().items():
        report = check_deck(parse_deck_list(text, resolve))
        print_report(f"deck {name}", report, out)
    print(
        "The dashboard (and serving it on "
        f"http://{host}:{port}/) is not built yet.",
        file=out,
    )
    return 0
