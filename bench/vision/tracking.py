"""Names settling over frames: how many frames of a still table the tracker takes to
settle each card's name, and how many settle wrong, with and without the other reader.

    nice .venv/bin/python -m bench.vision.tracking [--split holdout|tune] [--bands 200-260,...]
        [--frames 8] [--scenes N] [--ocr tesseract|pp-ocr]

Each scan of a split is composited onto the real mat once per height band, as in
``bench.vision.names`` (tilt, sleeves, glare, blur, noise, JPEG), and each composite is
filmed as a short video of a still table: every frame with its own sensor noise, a pixel
of shake, a lighting flicker and its own JPEG compression. The tracker (the finder's
outlines, deck lists of the frame's cards plus 24 other sv1 cards) runs over the video
twice: reading with one line reader alone, and with the other reader taking every second
read of an unsettled card (``vision.tracker``). Per band and way:

- ``found``: cards a track followed (its outline the card's: centre and height near);
- ``<=5``: cards whose name settled within 5 frames of the card's first, of all cards
  and of the cards found; ``settled``: by the end of the video, of all cards;
  ``median``: frames to settle, of those that did;
- ``wrong``: cards that were ever shown settled under another name (a judge acts on it);
- ``split``: cards left unsettled because reads named two cards; ``unsure``: the rest
  of the cards found left unsettled (too few sure reads);
- ``reads``: line-reader readings of a card (``Recognizer.read``) per card;
- ``no card``: what the tracker shows at the video's end that is no card (no card's
  outline: see ``NEAR``), as a share of all it shows there.

Tune on the tune split only; report the holdout split. Uses one core.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter

os.environ["OMP_THREAD_LIMIT"] = "1"

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.vision import evalset  # noqa: E402
from bench.vision.names import BANDS, scenes  # noqa: E402
from vision.geometry import card_height  # noqa: E402
from vision.names import NameMatcher  # noqa: E402
from vision.recognize import Recognizer, line_reader  # noqa: E402
from vision.synthetic import PlacedCard, Scene  # noqa: E402
from vision.tracker import Tracker  # noqa: E402

#: A card is the track's when their centres are this close and their heights this
#: alike (fractions of the card's height): an outline round the art box, or round half
#: of two touching cards, is not the card found.
NEAR = 0.15
SAME_HEIGHT = 0.15
WAYS = ("alone", "both")


def filmed(image: np.ndarray, frames: int, seed: int) -> list[np.ndarray]:
    """A still table ``frames`` frames long: noise, shake, flicker and JPEG of its own
    in every frame, nothing moved."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(frames):
        shaken = np.roll(image, tuple(int(v) for v in rng.integers(-1, 2, size=2)), axis=(0, 1))
        lit = shaken.astype(np.float32) * (1.0 + 0.04 * np.sin(k)) + rng.normal(0, 2.0, image.shape)
        ok, data = cv2.imencode(".jpg", np.clip(lit, 0, 255).astype(np.uint8),
                                [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 92))])
        out.append(cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else image)
    return out


def _on(quad: np.ndarray, truth: PlacedCard) -> bool:
    """Whether an outline is the card's (see ``NEAR``)."""
    return (np.linalg.norm(quad.mean(axis=0) - truth.quad.mean(axis=0)) <= NEAR * truth.height_px
            and abs(card_height(quad) - truth.height_px) <= SAME_HEIGHT * truth.height_px)


def follow(tracker: Tracker, scene: Scene, video: list[np.ndarray], tally: Counter,
           to_settle: list[int], errors: list[str]) -> None:
    """Run ``video`` through ``tracker`` and tally each of ``scene``'s cards."""
    first: dict[int, int] = {}  # card -> frame its track was first seen
    settled_at: dict[int, int] = {}
    wrong: set[int] = set()
    followed: set[int] = set()
    shown = []
    for index, frame in enumerate(video):
        shown = [card for card in tracker.update(frame) if card.visible]
        for card in shown:
            for k, truth in enumerate(scene.cards):
                # A wrong name counts on any outline over the card (a judge acts on it).
                over = np.linalg.norm(card.quad.mean(axis=0) - truth.quad.mean(axis=0)) <= truth.height_px / 4
                if over and card.settled and card.name != truth.name and k not in wrong:
                    wrong.add(k)
                    errors.append(f"wrong: {truth.name!r} ({truth.card_id}, {truth.height_px:.0f} px) "
                                  f"settled as {card.name!r}")
                if not _on(card.quad, truth):
                    continue
                followed.add(k)
                first.setdefault(k, index)
                if card.settled and card.name == truth.name:
                    settled_at.setdefault(k, index)
    for k, truth in enumerate(scene.cards):
        if k in settled_at or k in wrong:
            continue
        track = next((t for t in tracker.tracks if _on(t.quad, truth)), None)
        if track is None:
            continue  # not found: the finder's miss
        votes = dict(track.votes)
        tally["split" if len(votes) > 1 else "unsure"] += 1
        errors.append(f"not settled: {truth.name!r} ({truth.card_id}, {truth.height_px:.0f} px), "
                      f"votes {({n: round(w, 2) for n, w in votes.items()})}")
    tally["cards"] += len(scene.cards)
    tally["shown"] += len(shown)
    tally["no card"] += sum(not any(_on(card.quad, truth) for truth in scene.cards) for card in shown)
    tally["found"] += len(followed)
    tally["wrong"] += len(wrong)
    for k, at in settled_at.items():
        if k in wrong:
            continue
        frames = at - first[k] + 1
        to_settle.append(frames)
        tally["settled"] += 1
        tally["<=5"] += frames <= 5


def measure(split: str, bands: list[tuple[int, int]], frames: int, most_scenes: int | None,
            ocr: str, seed: int = 0) -> None:
    all_cards = evalset.all_names()
    sv1 = [(c.name, c.card_id) for c in evalset.scans()]
    engine = line_reader(ocr)
    rng = random.Random(seed)
    print(f"names settling on still video, {split} split ({len(evalset.scans(split))} scans), "
          f"{frames} frames, first reader {engine.backend}")
    print(f"  {'height':>9} {'way':>5} {'cards':>5} {'found':>6} {'<=5':>6} {'settled':>7} "
          f"{'found<=5':>8} {'median':>6} {'wrong':>5} {'split':>5} {'unsure':>6} {'reads':>5} {'no card':>7} "
          f"{'s/frame':>7}")
    for band in bands:
        tallies = {way: Counter() for way in WAYS}
        waits: dict[str, list[int]] = {way: [] for way in WAYS}
        errors: dict[str, list[str]] = {way: [] for way in WAYS}
        seconds = Counter()
        for number, (scene, chosen) in enumerate(scenes(split, band, seed)):
            if most_scenes is not None and number >= most_scenes:
                break
            deck = [(c.name, c.card_id) for c in chosen] + rng.sample(sv1, 24)
            video = filmed(scene.image, frames, seed * 1000 + number)
            for way in WAYS:
                recognizer = Recognizer(evalset.with_deck(NameMatcher(all_cards), deck), engine=engine)
                tracker = Tracker(recognizer, other_reader=way == "both")
                start = time.perf_counter()
                follow(tracker, scene, video, tallies[way], waits[way], errors[way])
                seconds[way] += time.perf_counter() - start
                tallies[way]["reads"] += tracker.ocr_calls
                tallies[way]["frames"] += len(video)
        for way in WAYS:
            t = tallies[way]
            n = max(1, t["cards"])
            median = f"{statistics.median(waits[way]):.0f}" if waits[way] else "-"
            print(f"  {band[0]}-{band[1]:<5} {way:>5} {t['cards']:>5} {t['found'] / n:6.1%} "
                  f"{t['<=5'] / n:6.1%} {t['settled'] / n:7.1%} "
                  f"{t['<=5'] / max(1, t['found']):8.1%} {median:>6} {t['wrong']:>5} "
                  f"{t['split']:>5} {t['unsure']:>6} "
                  f"{t['reads'] / n:5.1f} {t['no card'] / max(1, t['shown']):7.1%} "
                  f"{seconds[way] / max(1, t['frames']):7.2f}")
            for error in errors[way]:
                print(f"    {way}: {error}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", default="holdout", choices=("holdout", "tune"))
    parser.add_argument("--bands", default=",".join(f"{a}-{b}" for a, b in BANDS))
    parser.add_argument("--frames", type=int, default=8)
    parser.add_argument("--scenes", type=int, default=None, help="at most this many composites per band")
    parser.add_argument("--ocr", default="tesseract", choices=("tesseract", "pp-ocr"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if not evalset.available():
        print("../shared/vision-eval not found: nothing to measure")
        return
    bands = [tuple(int(v) for v in b.split("-")) for b in args.bands.split(",")]
    measure(args.split, bands, args.frames, args.scenes, args.ocr, args.seed)


if __name__ == "__main__":
    main()
