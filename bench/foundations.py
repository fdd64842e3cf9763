"""Foundations figures: card import time and database size, deck-list parsing speed.

    .venv/bin/python -m bench.foundations [--cards ../shared/pokemon-tcg-data] [--decks 1000]

The import runs into a fresh temporary TABLE_ASSISTANT_HOME, twice (the second import
must change nothing). Deck parsing reads and resolves the embedded decks' text against
the embedded catalog, round-robin, and checks each.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from assistant.carddb import CardDatabase
from assistant.catalog import Catalog
from assistant.decks import catalog_resolver, check_deck_text
from assistant.embedded import embedded_cards, embedded_deck_texts

SHARED_CARDS = Path(__file__).resolve().parents[2] / "shared" / "pokemon-tcg-data"


def bench_import(source: Path) -> None:
    with tempfile.TemporaryDirectory() as home:
        path = Path(home) / "cards.sqlite"
        with CardDatabase(path) as database:
            first = database.import_path(source)
            second = database.import_path(source)
            count = database.count()
        size = path.stat().st_size / 2**20
    print(f"cards import: {first.cards} cards, {first.sets} sets in {first.seconds:.2f} s "
          f"(second import {second.seconds:.2f} s, {count} cards after both); database {size:.1f} MiB")


def bench_decks(count: int) -> None:
    texts = list(embedded_deck_texts().values())
    resolve = catalog_resolver(Catalog(embedded_cards()))
    started = time.perf_counter()
    legal = 0
    for index in range(count):
        legal += check_deck_text(texts[index % len(texts)], resolve=resolve).legal
    elapsed = time.perf_counter() - started
    print(f"deck lists: {count} parsed, resolved and checked in {elapsed:.3f} s "
          f"({elapsed / count * 1000:.3f} ms each; {legal} legal)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=Path, default=SHARED_CARDS)
    parser.add_argument("--decks", type=int, default=1000)
    args = parser.parse_args()
    if args.cards.exists():
        bench_import(args.cards)
    else:
        print(f"cards import: skipped, {args.cards} is absent")
    bench_decks(args.decks)


if __name__ == "__main__":
    main()
