"""The reader measured under the conditions a real table has, each reported on its own.

    nice .venv/bin/python -m bench.vision.conditions --split holdout
        [--bands 200-260,260-330,330-440] [--conditions plain,glare,...]
        [--readers tesseract,pp-ocr] [--no-frames] [--errors] [--frame-errors [DIR]]

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

Last, each reader's totals over every band and condition (``totals``): what a change moved
in all, where single cells move by a card or two.

With ``--frame-errors`` it lists every card a whole frame did not name right, with where
it was lost (``frame_loss``) and its best IoU, tallies the causes per row, and saves a
crop of each (the card with what was found drawn on it) under DIR (``/tmp`` unless told;
never the project: the crops hold card scans).

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
from pathlib import Path

os.environ["OMP_THREAD_LIMIT"] = "1"

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from rapidfuzz import fuzz, process  # noqa: E402

from bench.vision import evalset  # noqa: E402
from vision.blur import estimate as estimate_blur  # noqa: E402
from vision.card_judge import Kind, judge_all  # noqa: E402
from vision.card_reading import CardReading  # noqa: E402
from vision.finder import find_cards  # noqa: E402
from vision.geometry import iou, overlap, portrait  # noqa: E402
from vision.names import NameMatcher  # noqa: E402
from vision.recognize import Recognizer, line_reader  # noqa: E402
from vision.synthetic import PlacedCard, Scene, SceneStyle, compose, load_face  # noqa: E402

#: An outline found for a card (``evalset.FOUND_IOU``, as ``bench.vision.run`` counts it).
FOUND_IOU = evalset.FOUND_IOU
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


#: Where a card a whole frame did not name right was lost (``frame_loss``), in the order
#: of the pipeline.
LOSSES = ("not found", "poor outline", "merged", "judged no card", "judged a back", "dropped",
          "poor quad", "read none", "unreadable", "wrong name")
#: A found card's quad is good from this IoU (below it a title may be cut off).
GOOD_IOU = 0.8


def frame_loss(card: PlacedCard, cards: Sequence[PlacedCard], readings: Sequence[CardReading],
               outline_right: bool, quads: Sequence[np.ndarray], kinds: Sequence[Kind]
               ) -> tuple[str, float] | None:
    """Where ``card`` (one of the frame's ``cards``) was lost when the whole frame was read
    (``readings``), and the best IoU of what stood for it; None when it was named right.
    ``outline_right``: whether its true outline named it; ``quads`` and ``kinds``: the
    finder's outlines and the judge's verdicts on them. One of ``LOSSES``:

    - found (a reading with IoU >= ``FOUND_IOU``): ``wrong name``; else ``unreadable``
      when the true outline did not name it either, ``poor quad`` under ``GOOD_IOU``,
      ``read none`` from a good quad;
    - not found: the finder's best outline for it was judged no card or a back, or was
      a face that no reading kept (``dropped``: no text on either end, or given way to a
      card found by its text); else an outline covering it and a neighbour (``merged``),
      one of IoU >= 0.3 (``poor outline``), or nothing (``not found``)."""
    best = max(readings, key=lambda r: iou(r.quad, card.quad), default=None)
    found_iou = iou(best.quad, card.quad) if best is not None else 0.0
    if best is not None and found_iou >= FOUND_IOU:
        if best.name == card.name:
            return None
        if best.name is not None:
            return "wrong name", found_iou
        if not outline_right:
            return "unreadable", found_iou
        return ("poor quad" if found_iou < GOOD_IOU else "read none"), found_iou
    ious = [iou(q, card.quad) for q in quads]
    k = int(np.argmax(ious)) if ious else -1
    if k >= 0 and ious[k] >= FOUND_IOU:
        verdict = {Kind.NOT_A_CARD: "judged no card", Kind.BACK: "judged a back"}.get(kinds[k], "dropped")
        return verdict, ious[k]
    best_iou = max(ious + [found_iou])
    for q in quads:
        covered = [c for c in cards if overlap(c.quad, q) >= 0.5 and iou(c.quad, q) < FOUND_IOU]
        if card in covered and len(covered) >= 2:
            return "merged", best_iou
    return ("poor outline" if best_iou >= 0.3 else "not found"), best_iou


@dataclass
class Row:
    """One band, condition and reader: its tallies and what it misread."""

    outlines: Counter = field(default_factory=Counter)
    frames: Counter = field(default_factory=Counter)
    misread: Counter = field(default_factory=Counter)
    unsure: Counter = field(default_factory=Counter)
    losses: Counter = field(default_factory=Counter)
    seconds: float = 0.0


@dataclass(frozen=True)
class FrameErrors:
    """``--frame-errors``: list each card a whole frame lost, and save its crop in ``folder``."""

    folder: Path
    label: str


def measure_scene(recognizer: Recognizer, scene: Scene, row: Row, whole_frames: bool,
                  errors: FrameErrors | None = None) -> None:
    """Read ``scene``'s cards from their true outlines (the frame's blur told from them, as
    ``recognize`` tells it from the outlines it finds), and the whole frame, into ``row``."""
    start = time.perf_counter()
    outline_right = []
    blur = estimate_blur(scene.image, [card.quad for card in scene.cards])
    for card in scene.cards:
        reading = recognizer.read(scene.image, portrait(card.quad), blur=blur)
        row.outlines += score_outline(reading, card)
        named = reading.name if reading is not None else None
        outline_right.append(named == card.name)
        if named is None:
            row.unsure[card.name] += 1
        elif named != card.name:
            row.misread[f"{card.name} -> {named}"] += 1
    if whole_frames:
        readings = recognizer.recognize(scene.image)
        row.seconds += time.perf_counter() - start
        if errors is not None:
            _list_losses(scene, readings, outline_right, row, f"{errors.label} #{row.frames['frames']}", errors.folder)
        row.frames += score_frame(readings, scene.cards) + Counter(frames=1)
        return
    row.seconds += time.perf_counter() - start


def _list_losses(scene: Scene, readings: Sequence[CardReading], outline_right: Sequence[bool],
                 row: Row, label: str, folder: Path) -> None:
    """Print where each card ``scene``'s whole frame lost went (``frame_loss``), and save
    its crop: the card (green), the finder's outlines near it (blue) and the readings near
    it (red); and each reading on no card."""
    quads = find_cards(scene.image)
    kinds = judge_all(scene.image, quads)
    for k, (card, right) in enumerate(zip(scene.cards, outline_right, strict=True)):
        lost = frame_loss(card, scene.cards, readings, right, quads, kinds)
        if lost is None:
            continue
        reason, best_iou = lost
        row.losses[reason] += 1
        near = [r for r in readings if iou(r.quad, card.quad) > 0.1]
        read_as = ", ".join(str(r.name) for r in near) or "-"
        print(f"    lost {label} {card.name!r}: {reason}, IoU {best_iou:.2f}, "
              f"read as {read_as}", flush=True)
        image = scene.image.copy()
        for quad, colour in ([(card.quad, (0, 255, 0))] + [(q, (255, 0, 0)) for q in quads if iou(q, card.quad) > 0.1]
                             + [(r.quad, (0, 0, 255)) for r in near]):
            cv2.polylines(image, [np.int32(quad)], True, colour, 2)
        x0, y0 = np.maximum(0, card.quad.min(axis=0) - card.height_px * 0.3).astype(int)
        x1, y1 = (card.quad.max(axis=0) + card.height_px * 0.3).astype(int)
        name = f"{label.replace(' #', '-')}-{k}-{reason.replace(' ', '_')}.png"
        cv2.imwrite(str(folder / name), image[y0:y1, x0:x1])
    for k, reading in enumerate(readings):
        if max((iou(reading.quad, c.quad) for c in scene.cards), default=0.0) >= FOUND_IOU:
            continue
        row.losses["not a card"] += 1
        print(f"    not a card {label}: read as {reading.name}{' (face down)' if reading.face_down else ''}",
              flush=True)
        x0, y0 = np.maximum(0, reading.quad.min(axis=0) - 40).astype(int)
        x1, y1 = (reading.quad.max(axis=0) + 40).astype(int)
        image = cv2.polylines(scene.image.copy(), [np.int32(reading.quad)], True, (0, 0, 255), 2)
        cv2.imwrite(str(folder / f"{label.replace(' #', '-')}-not-a-card-{k}.png"), image[y0:y1, x0:x1])


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
    if row.losses:
        print("      lost in whole frames: " + ", ".join(
            f"{reason} {row.losses[reason]}" for reason in (*LOSSES, "not a card") if row.losses[reason]),
            flush=True)


def measure(split: str, bands: Sequence[tuple[int, int]], conditions: Sequence[Condition],
            readers: Sequence[str], whole_frames: bool = True, seed: int = 0,
            limit: int | None = None, show_errors: bool = False,
            frame_errors: Path | None = None) -> dict[tuple, Row]:
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
                matcher = evalset.with_deck(recognizers[readers[0]].matcher, deck)
                for name, rec in recognizers.items():
                    rec.matcher = matcher
                    errors = None if frame_errors is None else FrameErrors(
                        frame_errors, f"{band[0]}-{band[1]}-{condition.name}-{name}")
                    measure_scene(rec, scene, band_rows[name], whole_frames, errors)
            for name in readers:
                print_row(band, condition.name, name, band_rows[name], whole_frames)
    if len(readers) > 1:
        spent = {name: sum(r.seconds for key, r in rows.items() if key[2] == name) for name in readers}
        print("  time over " + readers[0] + ": " + ", ".join(
            f"{name} {spent[name] / max(1e-9, spent[readers[0]]):.2f}x" for name in readers[1:]))
    _print_misreads(rows, conditions, readers, show_errors)
    _print_totals(rows, readers, whole_frames)
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


def totals(rows: dict[tuple, Row], reader: str) -> tuple[Counter, Counter]:
    """``reader``'s tallies summed over every band and condition of ``rows``: from true
    outlines, and from whole frames (what a change moved in all, where a cell moves by a
    card or two)."""
    outlines, frames = Counter(), Counter()
    for (_band, _condition, name), row in rows.items():
        if name == reader:
            outlines += row.outlines
            frames += row.frames
    return outlines, frames


def _print_totals(rows: dict[tuple, Row], readers: Sequence[str], whole_frames: bool) -> None:
    print("  in all (every band and condition): true outlines named / wrong"
          + ("; whole frames found / named / wrong / reported that are no card" if whole_frames else ""))
    for name in readers:
        o, f = totals(rows, name)
        line = f"    {name:>9}: {o['right']} / {o['wrong']} of {o['cards']}"
        if whole_frames:
            line += f"; {f['found']} / {f['right']} / {f['wrong']} / {f['non_cards']} of {f['reported']}"
        print(line)


def main() -> None:
    parser = evalset.benchmark_options()
    parser.add_argument("--conditions", default=",".join(BY_NAME),
                        help=f"some of {', '.join(BY_NAME)}")
    parser.add_argument("--readers", default="tesseract,pp-ocr")
    parser.add_argument("--no-frames", action="store_true", help="true outlines only")
    parser.add_argument("--limit", type=int, help="cards per band and condition (default: every scan)")
    parser.add_argument("--errors", action="store_true", help="list every wrong name")
    parser.add_argument("--frame-errors", nargs="?", const="/tmp/frame-errors", metavar="DIR",
                        help="list each card a whole frame lost, with its cause, and save its crop "
                             "under DIR (default /tmp/frame-errors; never in the project)")
    args = parser.parse_args()
    unknown = [c for c in args.conditions.split(",") if c not in BY_NAME]
    if unknown:
        parser.error(f"no condition {', '.join(unknown)}: one of {', '.join(BY_NAME)}")
    cv2.setNumThreads(1)
    if not evalset.available():
        print("../shared/vision-eval not found: nothing to measure")
        return
    folder = None
    if args.frame_errors is not None:
        folder = Path(args.frame_errors).resolve()
        if folder.is_relative_to(Path(__file__).resolve().parents[2]):
            parser.error(f"{folder}: crops of card scans are never saved in the project")
        folder.mkdir(parents=True, exist_ok=True)
    measure(args.split, args.bands, [BY_NAME[c] for c in args.conditions.split(",")],
            args.readers.split(","), not args.no_frames, args.seed, args.limit, args.errors, folder)


if __name__ == "__main__":
    main()
