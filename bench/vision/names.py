"""Name reading alone: every scan of a split, composited onto the split's mats
(``evalset.MATS``) at a camera's sizes, read from its *true* outline (so finding errors do
not count here). Figures by table condition: ``bench.vision.conditions``.

    .venv/bin/python -m bench.vision.names [--split tune|holdout] [--bands 200-260,...]

Each scan is placed once per height band, turned by 0/90/180/270 (plus jitter), with the
camera's tilt, sleeves, glare, blur, noise and JPEG compression. The reader is given the
card's outline with its way up unknown (0 or 180 away from the truth) and must decide it.
Three candidate sets are measured:

- ``none``: every name of the shared card database (~20,000 printings);
- ``deck``: a realistic pair of deck lists: the frame's own cards plus 24 other sv1 cards
  (~34 names), with the whole database behind it;
- ``sv1``: all 194 sv1 names as the "deck" (the previous engineer's figure).

Also times ``Recognizer.read`` (both ends, one thread) per card. ``--calibrate`` lets
every name through and prints, per confidence threshold, what right and wrong would be:
the figures ``vision.names.ACCEPT`` is chosen from (on the tune split only).

Prints figures only. Uses one core.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import Counter

os.environ["OMP_THREAD_LIMIT"] = "1"

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision.names  # noqa: E402
from bench.vision import evalset  # noqa: E402
from vision.geometry import portrait  # noqa: E402
from vision.names import NameMatcher  # noqa: E402
from vision.ocr import Tesseract, read_title  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402
from vision.synthetic import SceneStyle, compose, jpeg, load_face  # noqa: E402

BANDS = evalset.BANDS
MODES = ("none", "deck", "sv1")


def _jpeg(image: np.ndarray, rng: random.Random) -> np.ndarray:
    return jpeg(image, rng.randint(70, 92))


def scenes(split: str, band: tuple[int, int], seed: int = 0, per_frame: int = 8):
    """(frame, placed cards) covering every scan of ``split`` once at ``band`` heights."""
    pool = evalset.scans(split)
    rng = random.Random(seed * 7919 + band[0])
    rng.shuffle(pool)
    mats = evalset.mats(split)
    style = SceneStyle(height_range=band, touching=0.2, occlusion=0.0, same_size=True)
    for k in range(0, len(pool), per_frame):
        chosen = pool[k:k + per_frame]
        faces = [load_face(c.path, c.name, c.card_id) for c in chosen]
        scene = compose(mats[(k // per_frame) % len(mats)], faces, style,
                        seed=seed * 100000 + band[0] * 100 + k)
        scene.image = _jpeg(scene.image, rng)
        yield scene, chosen


THRESHOLDS = (0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)


def measure(split: str, bands: list[tuple[int, int]], seed: int = 0,
            show_errors: bool = False, calibrate: bool = False) -> None:
    accept = vision.names.ACCEPT
    if calibrate:
        vision.names.ACCEPT = 0.0  # decide() lets every name through; tabulated below
    all_cards = evalset.all_names()
    sv1 = [(c.name, c.card_id) for c in evalset.scans()]
    engine = Tesseract()
    full = Recognizer(NameMatcher(all_cards), engine=engine)
    sv1_rec = Recognizer(NameMatcher(all_cards, sv1), engine=engine)
    rng = random.Random(seed)
    print(f"name reading from true outlines, {split} split "
          f"({len(evalset.scans(split))} scans), OCR backend {engine.backend}")
    print(f"  {'height':>9} {'cands':>5} {'cards':>5} {'right':>7} {'null':>7} {'wrong':>7}"
          f" {'rot ok':>7}")
    ocr_ms: list[float] = []
    read_ms: list[float] = []
    for band in bands:
        stats = {m: Counter() for m in MODES}
        confs: dict[str, list[tuple[float, bool]]] = {m: [] for m in MODES}
        errors: list[str] = []
        for scene, chosen in scenes(split, band, seed):
            extra = rng.sample(sv1, 24)
            deck = [(c.name, c.card_id) for c in chosen] + extra
            deck_rec = Recognizer(evalset.with_deck(NameMatcher(all_cards), deck),
                                  engine=engine)
            for card in scene.cards:
                quad = portrait(card.quad)
                if len(ocr_ms) < 200:
                    t = time.perf_counter()
                    read_title(engine, scene.image, quad)
                    ocr_ms.append((time.perf_counter() - t) * 1000)
                for mode, rec in (("none", full), ("deck", deck_rec), ("sv1", sv1_rec)):
                    s = stats[mode]
                    s["n"] += 1
                    t = time.perf_counter()
                    r = rec.read(scene.image, quad)
                    if mode == "deck":
                        read_ms.append((time.perf_counter() - t) * 1000)
                    if r is not None and r.name is not None:
                        confs[mode].append((r.confidence, r.name == card.name))
                        if r.confidence < accept:
                            r.name = None
                    if r is None:
                        s["null"] += 1
                        s["rot"] += 0
                        continue
                    s["rot"] += r.rotation == card.rotation
                    if r.name is None:
                        s["null"] += 1
                    elif r.name == card.name:
                        s["right"] += 1
                    else:
                        s["wrong"] += 1
                        errors.append(f"{mode}: {card.name!r} read {r.text!r} -> {r.name!r} "
                                      f"({r.confidence:.2f})")
        for mode in MODES:
            s = stats[mode]
            n = max(1, s["n"])
            print(f"  {band[0]}-{band[1]:<5} {mode:>5} {s['n']:>5} {s['right'] / n:7.1%} "
                  f"{s['null'] / n:7.1%} {s['wrong'] / n:7.1%} {s['rot'] / n:7.1%}")
        if calibrate:
            for mode in MODES:
                n = max(1, stats[mode]["n"])
                cells = " ".join(f"{t:.2f}:{sum(ok for c, ok in confs[mode] if c >= t) / n:.1%}/"
                                 f"{sum(not ok for c, ok in confs[mode] if c >= t) / n:.1%}"
                                 for t in THRESHOLDS)
                print(f"    {mode:>5} threshold:right/wrong {cells}")
        if show_errors:
            for e in errors:
                print("    wrong", e)
    print(f"  title OCR (read_title, one way up): median {statistics.median(ocr_ms):.1f} ms, "
          f"p90 {np.percentile(ocr_ms, 90):.1f} ms")
    print(f"  Recognizer.read (deck mode, both ends, one thread): median "
          f"{statistics.median(read_ms):.1f} ms, p90 {np.percentile(read_ms, 90):.1f} ms per card")


def main() -> None:
    parser = evalset.benchmark_options()
    parser.add_argument("--errors", action="store_true", help="list the wrong names")
    parser.add_argument("--calibrate", action="store_true",
                        help="right/wrong at each confidence threshold (tune split)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if not evalset.available():
        print("../shared/vision-eval not found: nothing to measure")
        return
    measure(args.split, args.bands, args.seed, args.errors, args.calibrate)


if __name__ == "__main__":
    main()
