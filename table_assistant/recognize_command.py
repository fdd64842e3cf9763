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

from assistant.quoting import quote

if TYPE_CHECKING:
    from assistant.catalog import Catalog
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
    #: The Pokémon types each deck name is printed with (none for a Trainer or an Energy):
    #: a name whose type the card's colour contradicts is not taken (``vision.type_colour``).
    types: dict[str, set[str]] = field(default_factory=dict)
    #: The names of each deck name's attacks and Abilities: they name a card whose title
    #: is hidden (``vision.attack_names``).
    attacks: dict[str, set[str]] = field(default_factory=dict)
    #: False when a deck list could not be read (reported on stderr).
    ok: bool = True
    #: The card catalog the names came from, asked for one name's HP at a time.
    catalog: Catalog | None = field(default=None, repr=False, compare=False)

    def matcher(self) -> NameMatcher:
        """Vision's name matcher for these candidates (vision is loaded only when a
        command reads images)."""
        from vision.names import NameMatcher

        return NameMatcher(self.cards, self.deck, self.hit_points, self.types, self.attacks)

    def printed_hit_points(self, name: str) -> set[int]:
        """Every HP ``name`` is printed with: when a photo's title reads as a name and its
        twin with a suffix logo (Krookodile, Krookodile ex), the HP beside it tells them
        apart (``vision.text_finder``)."""
        if self.catalog is None:
            return set()
        return {card.hp for card in self.catalog.by_name(name) if card.hp is not None}

    def hint(self, names_in_play: Iterable[str | None]) -> tuple[str, ...]:
        """The deck cards that evolve from a Pokémon in play, sorted."""
        return tuple(sorted({evo for name in names_in_play if name
                             for evo in self.evolutions.get(name, ())}))


def candidate_names(deck_files: list[str], err: TextIO) -> Candidates:
    """The candidates for ``deck_files``; a deck list that cannot be read, or a file
    with no card line in it (not a deck list: a wrong file named), is reported on
    ``err`` and makes the candidates not ``ok``."""
    from assistant.catalog import default_catalog

    catalog = default_catalog()
    cards = catalog.all_names()
    found = Candidates(cards, catalog=catalog)
    if deck_files:
        from assistant.decks import NotADeckList, catalog_resolver, read_deck_file
        from table_assistant.deck_command import read_error

        resolve = catalog_resolver(catalog)  # one catalog for every list, not one each
        for path in deck_files:
            try:
                deck_list = read_deck_file(path, resolve)
            except OSError as error:
                print(f"cannot read deck list {quote(path)}: {read_error(error)}", file=err)
                found.ok = False
                continue
            except NotADeckList as error:  # a photo, a zip, text in another encoding
                print(f"{quote(path)} is not a deck list: {error}", file=err)
                found.ok = False
                continue
            if not deck_list.entries:
                print(f"{quote(path)} is not a deck list: no card lines ('<count> <name> [SET NUMBER]') "
                      "found in it", file=err)
                found.ok = False
                continue
            for entry in deck_list.entries:
                card = entry.card
                found.deck.append((card.name, card.id) if card else (entry.name, None))
                if card is not None and card.hp is not None:
                    found.hit_points.setdefault(card.name, set()).add(card.hp)
                if card is not None:
                    found.types.setdefault(card.name, set()).update(card.types)
                    found.attacks.setdefault(card.name, set()).update(
                        [attack.name for attack in card.attacks] + [ability.name for ability in card.abilities])
                if card is not None and card.evolves_from:
                    found.evolutions.setdefault(card.evolves_from, set()).add(card.name)
    known = {name for name, _ in cards}
    found.cards = cards + [(n, i or "") for n, i in found.deck if n not in known]
    return found


def recognize(images: list[str], deck_files: list[str], as_json: bool, out: TextIO,
              err: TextIO | None = None, ocr: str = "tesseract") -> int:
    """Find and name every card in ``images`` (files, or folders of them); 0, or 2 if
    any input was unreadable (see ``vision.image_files``: each gets one line on ``err``
    saying why, and the others are still read). A deck list that cannot be read is
    refused before any image is (the names would be read against the wrong cards).
    ``ocr`` names the line reader (``vision.ocr.LINE_READERS``)."""
    err = err or sys.stderr
    candidates = candidate_names(deck_files, err)
    if not candidates.ok:
        return 2
    from vision.image_files import ImageError, image_paths, read_image
    from vision.recognize import Recognizer, line_reader

    try:
        engine = line_reader(ocr)
    except ImportError as error:
        print(f"recognize: --ocr {ocr} cannot load: {error} (pip install rapidocr onnxruntime)", file=err)
        return 2
    recognizer = Recognizer(candidates.matcher(), engine=engine, hit_points_of=candidates.printed_hit_points)
    status = 0
    for path, refused in image_paths(images):  # a folder stands for its images
        try:
            if refused is not None:
                raise refused
            frame = read_image(path)
        except ImageError as error:
            print(f"recognize: cannot read image {quote(path)}: {error}", file=err)
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
                label = "(face down)" if r.face_down else r.name if r.name is not None else "(not sure)"
                out.write(f"  {label:<32} {r.card_id or '-':<12} conf {r.confidence:.2f} "
                          f"rot {r.rotation:>3} at ({centre[0]:.0f}, {centre[1]:.0f})\n")
        out.flush()
    return status
