"""How fast ``recognize`` could be with the finder it has: its floor, beside it.

    .venv/bin/python -m bench.vision.floor [--split holdout|tune] [--frames N]

``recognize`` has a speed goal: a 1920x1080 frame of ten cards in 150 ms, median, on this
machine's two cores. This measures what stands in its way. On ``bench.vision.run``'s
frames (ten cards of 200-260 and 260-330 px, deck lists of the frame's cards and 24
others), alternating frame by frame on a machine whose speed drifts, it times:

- ``recognize`` as it is;
- its floor: ``recognize`` reading each card once (``one_title_read``), its likelier end's
  likeliest title line, with Tesseract, matched against the deck lists, and nothing more:
  no other line, no other end, no look past the edge, no text finder, no PP-OCR but the HP
  read a doubtful name gets. With the line readers the project has (PP-OCR's costs more a
  line than Tesseract's) a card is named with no less, so no way of reading is faster;
- finding the cards alone (``find_cards``: what ``recognize`` does before the first read).

Each as ``recognize`` runs, on both cores (the second reader's process takes its share
of the cards). Printed: each one's median wall time per frame, its best of the passes
too, and the cards named right, unsure and wrong by ``recognize`` and by its floor.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

os.environ["OMP_THREAD_LIMIT"] = "1"

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.vision import evalset  # noqa: E402
from bench.vision.conditions import score_frame  # noqa: E402
from vision.blur import Blur  # noqa: E402
from vision.card_reading import CardReading, _End, read_with_blur_undone  # noqa: E402
from vision.finder import find_cards  # noqa: E402
from vision.geometry import rotation_of, turn_180  # noqa: E402
from vision.names import NameMatcher  # noqa: E402
from vision.ocr import LineReader  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402

#: Passes per frame and kind: the machine's speed drifts by a fifth within minutes.
PASSES = 3


def one_title_read(engine: LineReader, matcher: NameMatcher, frame: np.ndarray, quad: np.ndarray,
                   hint: tuple[str, ...], lean: float, blur: Blur | None = None) -> CardReading | None:
    """The least reading that names a card: the likeliest title line of the end the layout
    favours (``lean``), read once, and the checks any name read gets (its HP, its colour).
    None when that line holds no letters. ``vision.card_reading.read_card``'s signature."""
    if blur is not None:
        return read_with_blur_undone(one_title_read, engine, matcher, frame, quad, hint, lean, blur)
    top = _End(engine, frame, quad if lean >= 0 else turn_180(quad))
    top.read(matcher, hint, budget=1)
    if not (top.saw_text or top.named):
        return None
    match = matcher.decide(top.match)
    return CardReading(top.quad, rotation_of(top.quad), match.name, match.card_id, match.confidence, match.text)


@dataclass
class Kind:
    """One way of handling a frame, timed."""

    label: str
    run: Callable[[np.ndarray], list]
    reads: bool = True  # it names cards (finding alone does not)
    ms: list[float] = field(default_factory=list)
    best: list[float] = field(default_factory=list)
    names: Counter = field(default_factory=Counter)  # of its first passes (``conditions.score_frame``)


def main() -> None:
    parser = evalset.benchmark_options()
    parser.add_argument("--frames", type=int, default=6, help="frames per height band")
    parser.set_defaults(bands=list(evalset.BANDS[:2]))
    args = parser.parse_args()
    if not evalset.available():
        print("../shared/vision-eval not found: nothing to measure")
        return
    cv2.setNumThreads(1)
    # By its module's name, not as __main__: the second reader's process imports it so.
    from bench.vision.floor import one_title_read as floor_read

    full = NameMatcher(evalset.all_names())
    real, floor = Recognizer(full), Recognizer(full, by_text=False, read=floor_read)
    for rec in (real, floor):
        rec.warm_up()
    kinds = [Kind("recognize", real.recognize), Kind("its floor: one title read a card", floor.recognize),
             Kind("finding alone", lambda image: find_cards(image, real.finder), reads=False)]
    rng, pool = random.Random(1), evalset.scans()
    frames = 0
    for lo, hi in args.bands:
        per_frame = 10 if hi <= 330 else 7  # as bench.vision.run
        for scene, chosen in evalset.frames(args.split, args.frames, (lo, hi), per_frame=per_frame,
                                            seed=lo + args.seed, mats_of_split=True):
            deck = evalset.with_deck(full, [(c.name, c.card_id) for c in chosen + rng.sample(pool, 24)])
            real.matcher = floor.matcher = deck
            frames += 1
            passes: dict[str, list[float]] = {kind.label: [] for kind in kinds}
            for _ in range(PASSES):
                for kind in kinds:
                    start = time.perf_counter()
                    result = kind.run(scene.image)
                    passes[kind.label].append((time.perf_counter() - start) * 1000)
                    if kind.reads and len(passes[kind.label]) == 1:
                        kind.names += score_frame(result, scene.cards)
            for kind in kinds:
                kind.ms += passes[kind.label]
                kind.best.append(min(passes[kind.label]))
    print(f"{frames} frames ({args.split} split, {', '.join(f'{a}-{b}' for a, b in args.bands)} px, deck lists), "
          f"two cores, {PASSES} passes each, kinds alternating")
    print(f"  {'':34s} {'median ms':>9} {'best of passes':>14} {'vs recognize':>12}   names right / unsure / wrong")
    for kind in kinds:
        median = statistics.median(kind.ms)
        ratio = median / statistics.median(kinds[0].ms)
        cards, right, wrong = kind.names["cards"], kind.names["right"], kind.names["wrong"]
        unsure = cards - right - wrong
        names = f"{right / cards:6.1%} / {unsure / cards:5.1%} / {wrong / cards:4.1%}" if kind.reads else ""
        print(f"  {kind.label:34s} {median:9.0f} {statistics.median(kind.best):14.0f} {ratio:12.2f}   {names}")


if __name__ == "__main__":
    main()
