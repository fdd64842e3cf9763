"""The reader measured under the conditions a real table has, each reported on its own.

    nice .venv/bin/python -m bench.vision.conditions --split holdout
        [--bands 200-260,260-330,330-440] [--conditions plain,glare,...]
        [--readers tesseract,pp-ocr] [--no-frames] [--errors]

Every scan of the split is laid once per height band and condition on the split's mats
(``evalset.MATS``: the holdout side is on two real mats and a generated one the tune
side never sees; the cards are held out by identity, ``evalset.split_of``). The frames
of one band are the same cards at the same seeds under every condition, so a row differs
from ``plain`` by its condition alone. Deck lists are the frame's cards and 24 other sv1
cards, padded with similar-name decoys under ``decoys`` and ``table``.

For each band, condition and reader (Tesseract, PP-OCR: ``recognize --ocr``) it prints:

- from the cards' *true* outlines (finding errors do not count): named right, not sure
  (no name), wrong name, way up right;
- from whole frames (``Recognizer.recognize``): cards found (an outline with IoU >= 0.6),
  named right, wrong, way up right among those found, and what it reported that is not a
  card (no card under it with IoU >= 0.6), as a share of all it reported.

Tune nothing on the holdout split. Prints figures only.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache

os.environ["OMP_THREAD_LIMIT"] = "1"

import cv2  # noqa: E402
from rapidfuzz import fuzz, process  # noqa: E402

from bench.vision import evalset  # noqa: E402
from vision.geometry import iou, portrait  # noqa: E402
from vision.names import NameMatcher  # noqa: E402
from vision.recognize import CardReading, Recognizer, line_reader  # noqa: E402
from vision.synthetic import PlacedCard, Scene, SceneStyle, compose, load_face  # noqa: E402

#: An outline found for a card when it overlaps the card's true outline this much.
FOUND_IOU = 0.6
#: What every condition starts from: a camera within 5° of overhead, cards of one frame
#: at one height, some touching, a little sensor noise, lossless.
BASE = SceneStyle(same_size=True, max_tilt_deg=5.0, touching=0.2, sleeves=0.0, glare=0.0,
                  occlusion=0.0, blur=(0.0, 0.6), noise=(0.0, 3.0))


@dataclass(frozen=True)
class Condition:
    """One thing a real table does to the picture (``style``: ``SceneStyle`` fields over
    ``BASE``), or to the deck lists (``decoys``)."""

    name: str
    what: str
    style: dict[str, object] = field(default_factory=dict)
    decoys: bool = False

    def scene_style(self, band: tuple[float, float]) -> SceneStyle:
        return SceneStyle(**{**BASE.__dict__, **self.style, "height_range": band})


CONDITIONS = (
    Condition("plain", "nothing added: the floor the others are read against"),
    Condition("sleeves", "every card in a glossy sleeve, a dark or a clear rim",
              {"sleeves": 1.0, "glossy_sleeves": True}),
    Condition("glare", "a highlight clipped to white on every card, on its title 2 in 3",
              {"specular": 1.0}),
    Condition("motion-blur", "a streak of 3-9 px in a random direction", {"motion_blur": (3.0, 9.0)}),
    Condition("focus-blur", "out of focus: a disc of radius 1-3 px", {"defocus": (1.0, 3.0)}),
    Condition("hands", "a hand over a corner or an edge of every card", {"hands": 1.0}),
    Condition("tilt", "the camera 10-15 degrees off overhead",
              {"min_tilt_deg": 10.0, "max_tilt_deg": 15.0}),
    Condition("colour-cast", "warm or cool light, red and blue 8-20% apart",
              {"colour_cast": (0.08, 0.2)}),
    Condition("jpeg", "a webcam stream's JPEG, quality 70-92", {"jpeg_quality": (70, 92)}),
    Condition("zone-outlines", "every card on a printed zone outline, half with a label",
              {"zone_outlines": 1.0}),
    Condition("decoys", "plain frames; deck lists padded with similar names", decoys=True),
    Condition("table", "all of these at a table's rates: a third sleeved, glare on 30%, "
              "hands on 10%, tilt 0-15, some blur, casts, JPEG 70-92, half on outlines, decoys",
              {"sleeves": 0.33, "glossy_sleeves": True, "specular": 0.3, "hands": 0.1,
               "max_tilt_deg": 15.0, "motion_blur": (0.0, 5.0), "defocus": (0.0, 1.5),
               "colour_cast": (0.0, 0.15), "jpeg_quality": (70, 92), "zone_outlines": 0.5},
              decoys=True),
)
BY_NAME = {c.name: c for c in CONDITIONS}


@cache
def _printings() -> dict[str, tuple[str, ...]]:
    """Every name of the shared card database with the ids it is printed under."""
    out: dict[str, list[str]] = {}
    for name, card_id, _hp in evalset._database():
        out.setdefault(name, []).append(card_id)
    return {name: tuple(ids) for name, ids in out.items()}


def decoys(cards: Iterable[tuple[str, str]], similar: int = 3, cutoff: float = 60.0
           ) -> list[tuple[str, str]]:
    """Deck-list padding that a reader can confuse with ``cards`` ((name, id) pairs), read
    from the shared card database at run time: for each card, the ``similar`` names
    spelled most like it (Pawmi: Pawmo, Pawmot; Smoliv: Dolliv), one printing each, and
    another printing of the card's own name (a second "Professor's Research")."""
    printings = _printings()
    names = list(printings)
    out: dict[tuple[str, str], None] = {}
    for name, card_id in cards:
        for other, _score, _i in process.extract(name, names, scorer=fuzz.ratio,
                                                 limit=similar + 1, score_cutoff=cutoff):
            if other != name:
                out[(other, printings[other][0])] = None
        for other_id in printings.get(name, ()):
            if other_id != card_id:
                out[(name, other_id)] = None
                break
    return list(out)


def deck_list(chosen: Sequence[evalset.EvalCard], sv1: Sequence[tuple[str, str]],
              rng: random.Random, with_decoys: bool) -> list[tuple[str, str]]:
    """A frame's deck lists: its cards, 24 other sv1 cards, and decoys when asked."""
    own = [(c.name, c.card_id) for c in chosen]
    deck = own + rng.sample(list(sv1), 24)
    return deck + decoys(own) if with_decoys else deck


def scenes(split: str, band: tuple[int, int], condition: Condition, seed: int = 0,
           limit: int | None = None) -> Iterator[tuple[Scene, list[evalset.EvalCard]]]:
    """Frames covering every scan of ``split`` once (or the first ``limit``) at ``band``
    heights under ``condition``: the same cards and seeds whatever the condition."""
    pool = evalset.scans(split)
    random.Random(seed * 7919 + band[0]).shuffle(pool)
    pool = pool[:limit]
    per_frame = 8 if band[1] <= 330 else 6  # all fit on the mat
    mats = evalset.mats(split)
    style = condition.scene_style(band)
    for k in range(0, len(pool), per_frame):
        chosen = pool[k:k + per_frame]
        faces = [load_face(c.path, c.name, c.card_id) for c in chosen]
        yield compose(mats[(k // per_frame) % len(mats)], faces, style,
                      seed=seed * 100000 + band[0] * 100 + k), chosen


def score_outline(reading: CardReading | None, card: PlacedCard) -> Counter:
    """One card read from its true outline: ``cards``, ``right``/``null``/``wrong``, ``rot``."""
    named = reading.name if reading is not None else None
    verdict = "right" if named == card.name else "null" if named is None else "wrong"
    return Counter({"cards": 1, verdict: 1, "rot": int(reading is not None and reading.rotation == card.rotation)})


def score_frame(readings: Sequence[CardReading], cards: Sequence[PlacedCard]) -> Counter:
    """A whole frame's readings against the truth: ``cards``, ``found`` (an outline with
    IoU >= ``FOUND_IOU``), ``right``/``wrong`` among them, ``rot`` (way up right among
    those found), ``reported`` and ``non_cards`` (readings with no card under them)."""
    out = Counter({"cards": len(cards), "reported": len(readings)})
    for card in cards:
        best = max(readings, key=lambda r, c=card: iou(r.quad, c.quad), default=None)
        if best is None or iou(best.quad, card.quad) < FOUND_IOU:
            continue
        out["found"] += 1
        out["rot"] += best.rotation == card.rotation
        if best.name is not None:
            out["right" if best.name == card.name else "wrong"] += 1
    out["non_cards"] = sum(max((iou(r.quad, c.quad) for c in cards), default=0.0) < FOUND_IOU
                           for r in readings)
    return out


@dataclass
class Row:
    """One band, condition and reader: its tallies and what it misread."""

    outlines: Counter = field(default_factory=Counter)
    frames: Counter = field(default_factory=Counter)
    misread: Counter = field(default_factory=Counter)
    unsure: Counter = field(default_factory=Counter)
    seconds: float = 0.0


def measure_scene(recognizer: Recognizer, scene: Scene, row: Row, whole_frames: bool) -> None:
    """Read ``scene``'s cards from their true outlines, and the whole frame, into ``row``."""
    start = time.perf_counter()
    for card in scene.cards:
        reading = recognizer.read(scene.image, portrait(card.quad))
        row.outlines += score_outline(reading, card)
        named = reading.name if reading is not None else None
        if named is None:
            row.unsure[card.name] += 1
        elif named != card.name:
            row.misread[f"{card.name} -> {named}"] += 1
    if whole_frames:
        row.frames += score_frame(recognizer.recognize(scene.image), scene.cards)
    row.seconds += time.perf_counter() - start


def _share(c: Counter, key: str, total: str) -> str:
    return f"{c[key] / max(1, c[total]):6.1%}"


def print_row(band: tuple[int, int], condition: str, reader: str, row: Row, whole_frames: bool) -> None:
    o, f = row.outlines, row.frames
    line = (f"  {band[0]}-{band[1]:<4} {condition:>13} {reader:>9} {o['cards']:>5} {_share(o, 'right', 'cards')} "
            f"{_share(o, 'null', 'cards')} {_share(o, 'wrong', 'cards')} {_share(o, 'rot', 'cards')}")
    if whole_frames:
        line += (f" | {_share(f, 'found', 'cards')} {_share(f, 'right', 'cards')} {_share(f, 'wrong', 'cards')}"
                 f" {_share(f, 'rot', 'found')} {_share(f, 'non_cards', 'reported')}"
                 f" {f['non_cards']:>3}/{f['reported']:<3}")
    print(line, flush=True)


def measure(split: str, bands: Sequence[tuple[int, int]], conditions: Sequence[Condition],
            readers: Sequence[str], whole_frames: bool = True, seed: int = 0,
            limit: int | None = None, show_errors: bool = False) -> dict[tuple, Row]:
    all_cards = evalset.all_names()
    sv1 = [(c.name, c.card_id) for c in evalset.scans()]
    recognizers = {name: Recognizer(NameMatcher(all_cards), engine=line_reader(name)) for name in readers}
    if whole_frames:
        for rec in recognizers.values():
            rec.warm_up()
    print(f"conditions, {split} split: {len(evalset.scans(split))} scans held out by card id, "
          f"mats {', '.join(evalset.MATS.get(split, ()))}"
          f"{' + a generated mat' if split == 'holdout' else ''}")
    print(f"  {'height':>8} {'condition':>13} {'reader':>9} {'cards':>5}  named unsure  wrong rot ok"
          + (" | found  named  wrong rot ok  not a card" if whole_frames else ""))
    rows: dict[tuple, Row] = {}
    for band in bands:
        for condition in conditions:
            deck_rng = random.Random(seed * 31 + band[0])
            band_rows = {name: rows.setdefault((band, condition.name, name), Row()) for name in readers}
            for scene, chosen in scenes(split, band, condition, seed, limit):
                deck = deck_list(chosen, sv1, deck_rng, condition.decoys)
                matcher = recognizers[readers[0]].matcher.with_deck(deck, evalset.hit_points(deck))
                for name, rec in recognizers.items():
                    rec.matcher = matcher
                    measure_scene(rec, scene, band_rows[name], whole_frames)
            for name in readers:
                print_row(band, condition.name, name, band_rows[name], whole_frames)
    if len(readers) > 1:
        spent = {name: sum(r.seconds for key, r in rows.items() if key[2] == name) for name in readers}
        print("  time over " + readers[0] + ": " + ", ".join(
            f"{name} {spent[name] / max(1e-9, spent[readers[0]]):.2f}x" for name in readers[1:]))
    _print_misreads(rows, conditions, readers, show_errors)
    return rows


def _print_misreads(rows: dict[tuple, Row], conditions: Sequence[Condition], readers: Sequence[str],
                    show_all: bool) -> None:
    """Per condition and reader (all bands): the wrong names, and the cards most often left
    unsure."""
    print("  misread (true outlines, all bands): wrong names; cards most often not named")
    for condition in conditions:
        for name in readers:
            misread, unsure = Counter(), Counter()
            for (_band, cond, reader), row in rows.items():
                if cond == condition.name and reader == name:
                    misread += row.misread
                    unsure += row.unsure
            wrong = misread.most_common(None if show_all else 4)
            print(f"    {condition.name:>13} {name:>9}: wrong {', '.join(f'{k} x{v}' for k, v in wrong) or 'none'}; "
                  f"unsure {', '.join(f'{k} x{v}' for k, v in unsure.most_common(None if show_all else 4)) or 'none'}")


def main() -> None:
    parser = evalset.benchmark_options()
    parser.add_argument("--conditions", default=",".join(BY_NAME),
                        help=f"some of {', '.join(BY_NAME)}")
    parser.add_argument("--readers", default="tesseract,pp-ocr")
    parser.add_argument("--no-frames", action="store_true", help="true outlines only")
    parser.add_argument("--limit", type=int, help="cards per band and condition (default: every scan)")
    parser.add_argument("--errors", action="store_true", help="list every wrong name")
    args = parser.parse_args()
    unknown = [c for c in args.conditions.split(",") if c not in BY_NAME]
    if unknown:
        parser.error(f"no condition {', '.join(unknown)}: one of {', '.join(BY_NAME)}")
    cv2.setNumThreads(1)
    if not evalset.available():
        print("../shared/vision-eval not found: nothing to measure")
        return
    measure(args.split, args.bands, [BY_NAME[c] for c in args.conditions.split(",")],
            args.readers.split(","), not args.no_frames, args.seed, args.limit, args.errors)


if __name__ == "__main__":
    main()
