"""Phone photos of real cards, before and after finding cards from their text.

    OMP_THREAD_LIMIT=1 nice .venv/bin/python -m bench.vision.photos [--scans N] [--offset K] [--split holdout|tune]
    OMP_THREAD_LIMIT=1 nice .venv/bin/python -m bench.vision.photos --table-frames N

Two sets, read with every card name known and no deck lists (a new user's photo), the
scans also with their split's cards as the deck list:

- the shared real scans (``../shared/vision-eval/card-scans-sv1``, the split's cards),
  each filling a 1344×1792 phone photo (``vision.synthetic_photos``): edges cut off, or
  whole and held by a hand, on a backdrop, then scaled to 1080, 600 and 400 px tall.
  Named right, wrong, or not at all (null, or no card reported); and the id reported
  with the right name: right, wrong, or none;
- the other scanner's demo photos (``other-demos/*.webp``, real photos). Their drawn
  labels are that scanner's predictions, not ground truth: what each reader names is
  printed for a person to judge.

"Before" is the outline finder alone (``Recognizer(by_text=False)``), "after" the same
with the text search (``vision.text_finder``). Prints figures only; nothing is stored.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

import cv2  # noqa: E402

from bench.vision import evalset  # noqa: E402
from vision.names import NameMatcher  # noqa: E402
from vision.recognize import Recognizer, surely_named  # noqa: E402
from vision.synthetic import load_face  # noqa: E402
from vision.synthetic_photos import filling_photo, scaled  # noqa: E402
from vision.text_finder import unexplained  # noqa: E402

HEIGHTS = (1080, 600, 400)
FRAMINGS = {"edges cut off": False, "held in a hand": True}


def _outcome(names: list[str], truth: str) -> str:
    """right, wrong or null for a photo of one card ``truth`` whose readings named ``names``."""
    if truth in names:
        return "right" if len(names) == 1 else "right+extra"
    return "wrong" if names else "null"


def scans(split: str, count: int, readers: dict[str, Recognizer], offset: int = 0) -> None:
    """The split's scans ``offset`` to ``offset + count``, each photographed as its place in
    the split seeds it (so a scan's photos are the same whatever the offset)."""
    cards = list(enumerate(evalset.scans(split)))[offset:offset + count]
    print(f"real scans ({split} split, {len(cards)} cards from #{offset}) filling a 1344x1792 photo")
    tally: dict[tuple[str, str, int], Counter] = {}
    times: dict[str, list[float]] = {name: [] for name in readers}
    misses: list[str] = []
    for k, card in cards:
        face = load_face(card.path, card.name, card.card_id)
        for framing, held in FRAMINGS.items():
            photo = filling_photo(face, seed=k, held=held)
            for height in HEIGHTS:
                image = scaled(photo, height).image
                for name, reader in readers.items():
                    start = time.perf_counter()
                    readings = reader.recognize(image)
                    times[name].append(time.perf_counter() - start)
                    named = [r.name for r in readings if r.name is not None]
                    outcome = _outcome(named, card.name)
                    counts = tally.setdefault((name, framing, height), Counter())
                    counts[outcome] += 1
                    ids = {r.card_id for r in readings if r.name == card.name}
                    id_outcome = "right" if card.card_id in ids else "wrong" if ids - {None} else "none"
                    counts["id " + id_outcome] += 1
                    if name == "after" and not outcome.startswith("right"):
                        misses.append(f"{card.card_id} {card.name!r} {framing} {height}px: {outcome} {named}")
                    elif name == "after" and id_outcome == "wrong":
                        misses.append(f"{card.card_id} {card.name!r} {framing} {height}px: id {sorted(ids - {None})}")
    print(f"  {'reader':<7} {'framing':<15} {'px':>5} {'right':>6} {'+extra':>6} {'wrong':>6} {'null':>6}"
          f" | id {'right':>5} {'wrong':>6} {'none':>5}")
    for (name, framing, height), counts in tally.items():
        print(f"  {name:<7} {framing:<15} {height:>5} {counts['right']:>6} {counts['right+extra']:>6} "
              f"{counts['wrong']:>6} {counts['null']:>6} |    {counts['id right']:>5} {counts['id wrong']:>6}"
              f" {counts['id none']:>5}")
    for name, spent in times.items():
        print(f"  {name}: median {statistics.median(spent) * 1000:.0f} ms a photo, max {max(spent) * 1000:.0f}")
    for line in misses:
        print("  after missed:", line)


def demos(readers: dict[str, Recognizer]) -> None:
    print("\nthe other scanner's demo photos (their labels are its predictions, not truth)")
    for path in sorted((evalset.EVAL / "other-demos").glob("*.webp")):
        image = cv2.imread(str(path))
        if image is None:
            continue
        for name, reader in readers.items():
            start = time.perf_counter()
            readings = reader.recognize(image)
            ms = (time.perf_counter() - start) * 1000
            named = sorted(r.name for r in readings if r.name is not None)
            unnamed = sum(r.name is None for r in readings)
            print(f"  {path.name} {image.shape[1]}x{image.shape[0]} {name}: {len(named)} named {named}, "
                  f"{unnamed} null, {ms:.0f} ms")


def table_frames(split: str, count: int, matcher: NameMatcher) -> None:
    """How often the text search runs on table frames like ``bench.vision.run``'s (the
    split's scans on its mats, 10 or 7 cards a frame, deck lists of the frame's cards and
    24 others), and ``recognize``'s median there with it."""
    rng = random.Random(1)
    pool = evalset.scans()
    outlines = Recognizer(matcher, by_text=False)
    recognizer = Recognizer(matcher)
    recognizer.warm_up()
    searched, spent = 0, []
    frames = 0
    for lo, hi in ((200, 260), (260, 330), (330, 440)):
        per_frame = 10 if hi <= 330 else 7
        for scene, chosen in evalset.frames(split, count, (lo, hi), per_frame=per_frame, seed=lo,
                                            mats_of_split=True):
            deck = [(c.name, c.card_id) for c in chosen + rng.sample(pool, 24)]
            with_deck = evalset.with_deck(matcher, deck)
            outlines.matcher = recognizer.matcher = with_deck
            searched += unexplained(surely_named(outlines.recognize(scene.image)))
            start = time.perf_counter()
            recognizer.recognize(scene.image)
            spent.append((time.perf_counter() - start) * 1000)
            frames += 1
    print(f"table frames ({split} split, {frames} frames of 7-10 cards, deck lists): the text search "
          f"ran on {searched}; recognize median {statistics.median(spent):.0f} ms (this machine's load included)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scans", type=int, default=20, help="cards of the split measured")
    parser.add_argument("--offset", type=int, default=0,
                        help="skip this many of the split's cards (measure on cards not tuned on)")
    parser.add_argument("--split", default="holdout", choices=("holdout", "tune"))
    parser.add_argument("--table-frames", type=int, default=0,
                        help="instead, count the text searches on this many table frames per height band")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if not evalset.available():
        print("../shared/vision-eval not found: nothing to measure")
        return
    matcher = NameMatcher(evalset.all_names())
    printed = evalset.hit_points(evalset.all_names())  # every name's HP, as the catalog gives them
    readers = {"before": Recognizer(matcher, by_text=False),
               "after": Recognizer(matcher, hit_points_of=lambda name: printed.get(name, set()))}
    readers["after"].warm_up()
    if args.table_frames:
        table_frames(args.split, args.table_frames, matcher)
        return
    demos(readers)
    print()
    scans(args.split, args.scans, readers, args.offset)
    # With a deck list (the split's cards, as ``recognize --deck`` gives them), a name
    # printed with and without a suffix logo (Krookodile, Krookodile ex) is told apart.
    deck = [(card.name, card.card_id) for card in evalset.scans(args.split)]
    with_deck = evalset.with_deck(matcher, deck)
    print("\nthe same, with the split's cards as the deck list")
    scans(args.split, args.scans, {"before": Recognizer(with_deck, by_text=False), "after": Recognizer(with_deck)},
          args.offset)


if __name__ == "__main__":
    main()
