"""Where ``recognize``'s time goes: CPU per stage on ``bench.vision.run``'s frames.

    .venv/bin/python -m bench.vision.speed [--split tune|holdout] [--frames N] [--bands 330-440]

The frames are ``bench.vision.run``'s: real scans of the split composited onto its mats,
ten cards of 200-260 and of 260-330 px (seven above), deck lists of the frame's cards and
24 others (``--seed`` other than 0: other frames). Each frame is recognized on one thread
(no second reader: every stage runs here, where it can be timed) and each stage's CPU
time is summed per frame:

- ``find_cards``: the outline finder (its side thread, the segment detector, included);
  and of it, the CPU of the calling thread alone;
- ``judge_all``: faces, backs and what is no card;
- ``layout lean``: which end is likelier the top, per card;
- ``the frame's blur``: told from the cards found (``vision.blur.estimate``);
- ``read_card``: naming a card either way up, of which undoing a blurred frame's blur
  around the card (``vision.blur.undone_around``), the title bands' straightening,
  Tesseract's and PP-OCR's line reads, the name matching, the HP reads and the collector
  numbers (``vision.identity``: only of cards from ``MIN_CARD_PX`` tall whose name the
  deck lists hold in several printings) and the attack names of cards nothing else names
  (``vision.attack_names``);
- ``TextFinder.explain``: cards found from their titles (only unexplained frames).

Then what two cores make of the reading: each card's reading CPU, and the time the
caller and the second reader would take sharing the cards in ``recognize``'s order
against half their sum, and against the costliest first (about the best an order can do
were each card's cost known before it is read); and the cards no read names, which pay
every read there is. Prints figures only. CPU times are this process's, so a busy
machine inflates them less than wall time, but it does: compare runs side by side.
"""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator

os.environ["OMP_THREAD_LIMIT"] = "1"

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision.card_reading as card_reading  # noqa: E402
import vision.recognize as recognize  # noqa: E402
from bench.vision import evalset  # noqa: E402
from vision.names import NameMatcher  # noqa: E402
from vision.ocr import Tesseract  # noqa: E402
from vision.pp_ocr import PPOCR  # noqa: E402
from vision.text_finder import TextFinder  # noqa: E402

#: (owner, attribute, label): what is timed. Labels with "  of which" are parts of the
#: stage above them.
STAGES: tuple[tuple[object, str, str], ...] = (
    (recognize, "find_cards", "find_cards"),
    (recognize, "judge_all", "judge_all"),
    (recognize, "layout_lean", "layout lean"),
    (recognize, "estimate_blur", "the frame's blur"),
    (recognize, "read_card", "read_card"),
    (card_reading, "undone_around", "  of which blur undone"),
    (card_reading, "title_band", "  of which title bands"),
    (Tesseract, "read_line", "  of which Tesseract reads"),
    (PPOCR, "read_line", "  of which PP-OCR reads"),
    (NameMatcher, "add", "  of which name matching"),
    (card_reading, "settled", "  of which tie reads (HP, subtitle)"),
    (card_reading, "read_number", "  of which collector numbers"),
    (card_reading, "read_attacks", "  of which attack names"),
    (TextFinder, "explain", "TextFinder.explain"),
)


class Clock:
    """CPU seconds (the process's, and the calling thread's alone) and calls per label,
    summed while ``timing``."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.thread_seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def timed(self, function: Callable, label: str) -> Callable:
        def timed_call(*args, **kwargs):
            start, thread_start = time.process_time(), time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[label] += time.process_time() - start
                self.thread_seconds[label] += time.thread_time() - thread_start
                self.calls[label] += 1
        return timed_call

    @contextlib.contextmanager
    def timing(self) -> Iterator[None]:
        saved = [(owner, name, getattr(owner, name)) for owner, name, _label in STAGES]
        try:
            for (owner, name, label), (_o, _n, function) in zip(STAGES, saved, strict=True):
                setattr(owner, name, self.timed(function, label))
            yield
        finally:
            for owner, name, function in saved:
                setattr(owner, name, function)


def two_cores(costs: list[float]) -> float:
    """How long ``costs`` (in the order they are taken) keep two readers busy, each taking
    the next card when it is free."""
    free = [0.0, 0.0]
    for cost in costs:
        free[free.index(min(free))] += cost
    return max(free)


def main() -> None:
    parser = evalset.benchmark_options()
    parser.add_argument("--frames", type=int, default=6, help="frames per height band")
    # The acceptance's frames (ten cards, 1080p) by default; tune on the tune split.
    parser.set_defaults(split="tune", bands=list(evalset.BANDS[:2]))
    args = parser.parse_args()
    if not evalset.available():
        print("../shared/vision-eval not found: nothing to measure")
        return
    cv2.setNumThreads(1)
    recognize.SECOND_READER = False
    full = NameMatcher(evalset.all_names())
    rec = recognize.Recognizer(full)
    rng, pool = random.Random(1), evalset.scans()
    work = []
    for lo, hi in args.bands:
        per_frame = 10 if hi <= 330 else 7  # as bench.vision.run
        for scene, chosen in evalset.frames(args.split, args.frames, (lo, hi), per_frame=per_frame, seed=lo + args.seed,
                                            mats_of_split=True):
            deck = [(c.name, c.card_id) for c in chosen + rng.sample(pool, 24)]
            work.append((scene.image, evalset.with_deck(full, deck)))
    rec.matcher = work[0][1]
    rec.recognize(work[0][0])  # first calls build tables and load models
    clock, cards, totals, schedules = Clock(), [], [], []
    costs: list[tuple[float, float]] = []  # (CPU, the layout's lean) per card of a frame
    unnamed: list[float] = []  # the reading CPU of each card no read named
    read_card = recognize.read_card

    def costed(*args, **kwargs):
        start = time.process_time()
        reading = None
        try:
            reading = read_card(*args, **kwargs)
            return reading
        finally:
            costs.append((time.process_time() - start, args[5]))
            if reading is None or reading.name is None:
                unnamed.append(costs[-1][0])

    recognize.read_card = costed
    try:
        for image, matcher in work:
            rec.matcher = matcher
            costs.clear()
            with clock.timing():
                start = time.process_time()
                rec.recognize(image)
                totals.append(time.process_time() - start)
            cards.extend(cost for cost, _lean in costs)
            ordered = [cost for cost, _lean in sorted(costs, key=lambda c: abs(c[1]))]
            schedules.append((two_cores(ordered), sum(ordered) / 2, two_cores(sorted(ordered, reverse=True))))
    finally:
        recognize.read_card = read_card
    n = len(work)
    bands = ", ".join(f"{lo}-{hi}" for lo, hi in args.bands)
    print(f"{n} frames ({args.split} split, {bands} px, deck lists), one thread: "
          f"CPU median {statistics.median(totals) * 1000:.0f} ms/frame, mean {np.mean(totals) * 1000:.0f}")
    print(f"  {'stage':28s} {'ms/frame':>9s} {'share':>6s} {'calls/frame':>12s} {'ms/call':>8s}")
    total = sum(totals)
    for _owner, _name, label in STAGES:
        if clock.calls[label]:
            seconds, calls = clock.seconds[label], clock.calls[label]
            print(f"  {label:28s} {seconds / n * 1000:9.1f} {seconds / total:6.0%} {calls / n:12.1f} "
                  f"{seconds / calls * 1000:8.2f}")
            if label == "find_cards":
                own = clock.thread_seconds[label]
                print(f"  {'  of which the calling thread':28s} {own / n * 1000:9.1f} {own / total:6.0%}")
    costly = sorted(cards, reverse=True)[:len(cards) // 4]
    print(f"reading one card: median {statistics.median(cards) * 1000:.1f} ms, p90 "
          f"{np.percentile(cards, 90) * 1000:.1f}; the costliest quarter of cards takes "
          f"{sum(costly) / sum(cards):.0%} of the reading")
    print(f"cards no read names: {len(unnamed)} of {len(cards)}, {sum(unnamed) / sum(cards):.0%} of the reading's CPU")
    ours, half, best = (statistics.median(figures) * 1000 for figures in zip(*schedules, strict=True))
    print(f"reading on two cores (recognize's order): median {ours:.0f} ms/frame, against {half:.0f} for half "
          f"the sum and {best:.0f} for the costliest first")


if __name__ == "__main__":
    main()
