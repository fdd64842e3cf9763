"""``table-assistant recognize IMAGE... [--deck F]... [--json]`` (SPEC §1, §2).

Wires the card catalog and the deck lists into vision as plain (name, id) data, reads
each image, and prints one JSON object per readable image in input order. Unreadable
images get a clear message on stderr and make the exit code 2.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from vision.names import NameMatcher


@dataclass
class Candidates:
    """What vision may name a card, as plain data: every known printing, the declared deck
    lists' cards (matched first), and which of the decks' cards evolve from which name
    (the table hint: a card laid on a Charmander most likely evolves from Charmander)."""

    cards: list[tuple[str, str]]
    deck: list[tuple[str, str | None]] = field(default_factory=list)
    evolutions: dict[str, set[str]] = field(default_factory=dict)
    #: The HP each deck name is printed with: it settles "Lugia V" against "Lugia VSTAR",
    #: whose titles read alike (the suffix is a logo).
    hit_points: dict[str, set[int]] = field(default_factory=dict)
    #: False when a deck list could not be read (reported on stderr).
    ok: bool = True

    def matcher(self) -> NameMatcher:
        """Vision's name matcher for these candidates (vision is loaded only when a
        command reads images)."""
        from vision.names import NameMatcher

        return NameMatcher(self.cards, self.deck, self.hit_points)

    def hint(self, names_in_play: Iterable[str | None]) -> tuple[str, ...]:
        """The deck cards that evolve from a Pokémon in play, sorted."""
        return tuple(sorted({evo for name in names_in_play if name
                             for evo in self.evolutions.get(name, ())}))


def candidate_names(deck_files: list[str], err: TextIO) -> Candidates:
    """The candidates for ``deck_files``; an unreadable deck list is reported on ``err``."""
    from assistant.catalog import default_catalog

    catalog = default_catalog()
    cards = catalog.all_names()
    found = Candidates(cards)
    if deck_files:
        from assistant.decks import catalog_resolver, read_deck_file

        resolve = catalog_resolver(catalog)  # one catalog for every list, not one each
        for path in deck_files:
            try:
                deck_list = read_deck_file(path, resolve)
            except (OSError, UnicodeDecodeError) as error:
                print(f"cannot read deck list {path}: {error}", file=err)
                found.ok = False
                continue
            for entry in deck_list.entries:
                card = entry.card
                found.deck.append((card.name, card.id) if card else (entry.name, None))
                if card is not None and card.hp is not None:
                    found.hit_points.setdefault(card.name, set()).add(card.hp)
                if card is not None and card.evolves_from:
                    found.evolutions.setdefault(card.evolves_from, set()).add(card.name)
    known = {name for name, _ in cards}
    found.cards = cards + [(n, i or "") for n, i in found.deck if n not in known]
    return found


def _read_image(path: str):
    """The image as BGR, or None (no OpenCV warning spam for a missing file)."""
    import cv2
    import numpy as np

    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError:
        return None
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None


def recognize(images: list[str], deck_files: list[str], as_json: bool, out: TextIO,
              err: TextIO | None = None) -> int:
    """Find and name every card in ``images``; 0, or 2 if any input was unreadable."""
    from vision.recognize import Recognizer

    err = err or sys.stderr
    candidates = candidate_names(deck_files, err)
    recognizer = Recognizer(candidates.matcher())
    status = 0 if candidates.ok else 2
    for path in images:
        frame = _read_image(path)
        if frame is None:
            print(f"recognize: cannot read image {path}", file=err)
            status = 2
            continue
        start = time.perf_counter()
        readings = recognizer.recognize(frame)
        ms = (time.perf_counter() - start) * 1000
        height, width = frame.shape[:2]
        if as_json:
            record = {"image": path, "width": width, "height": height, "ms": round(ms, 1),
                      "cards": [r.to_json() for r in readings]}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        else:
            out.write(f"{path}: {len(readings)} card(s), {ms:.0f} ms\n")
            for r in readings:
                centre = r.quad.mean(axis=0)
                label = r.name if r.name is not None else "(not sure)"
                out.write(f"  {label:<32} {r.card_id or '-':<12} conf {r.confidence:.2f} "
                          f"rot {r.rotation:>3} at ({centre[0]:.0f}, {centre[1]:.0f})\n")
        out.flush()
    return status
