"""Finder-only figures: how many cards the finder outlines, how well, and what it reports
that is not a card.

    .venv/bin/python -m bench.vision.finder [--frames N] [--split holdout|tune] [--no-decoys]
        [--conditions plain,hands,glare,tilt [--bands 200-260,330-440]]

Composites of the shared real scans on the real playmat frames (``bench.vision.evalset``),
plus generated busy mats with our own proxy cards. The tune split's scans are laid on
mats table1-3, the holdout split's on table4-5, so neither the cards nor the mats of the
reported figures were looked at while tuning. Among the cards every frame has two
face-down cards (``vision.decoys.card_back``), and under them three things that are not
cards (``vision.decoys.DECOY_KINDS``: zone outlines, labels, dice, damage counters, a
coin, a deck box, an empty sleeve; the cards may lie on them, as in a printed zone).

For every card height band: recall (a found quad with IoU > 0.5 against the card, judged
a face by ``vision.card_judge``), recall at IoU > 0.8, mean IoU of the matches, the share
of found cards whose corners are all within 2% of the card's height of the truth (the
title crop depends on them); what is reported as a card face and is not one, with the
judge and without it (every quad a card, as before the judge); backs judged face-down
(and backs judged a face); the finder's and the judge's CPU time per composite. Prints
figures only.

With ``--conditions``, it measures instead the finder and the judge alone on the frames
``bench.vision.conditions`` reads (the same cards, mats and seeds, no reading): per band
and condition, the cards with a quad judged a face of IoU >= 0.6, and the quads judged
faces that lie on no card so (what ``recognize`` reports as a card unless its reading
drops it). Seconds per condition where ``bench.vision.conditions`` takes minutes.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

os.environ["OMP_THREAD_LIMIT"] = "1"

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.vision import evalset  # noqa: E402
from vision.card_judge import Kind, judge_all  # noqa: E402
from vision.decoys import BACK, DECOY_KINDS, card_back, decoy  # noqa: E402
from vision.finder import find_cards  # noqa: E402
from vision.geometry import iou, portrait  # noqa: E402
from vision.memory import keep_freed_memory  # noqa: E402
from vision.synthetic import CardFace, Scene, SceneStyle, compose, generated_mat, load_face, render_proxy  # noqa: E402

BANDS = ((140, 200), (200, 260), (260, 330), (330, 440))
#: The real playmat frames (``evalset.mats``' order: table1..5) each split is laid on.
MATS = {"tune": (0, 1, 2), "holdout": (3, 4)}


def score(scene: Scene, quads: list[np.ndarray], cards: list | None = None) -> tuple[list[float], int]:
    """Best IoU for every card of ``cards`` (the scene's cards unless told; one quad
    serves one card) and the count of quads that match none of them."""
    cards = scene.cards if cards is None else cards
    pairs = sorted(((iou(q, c.quad), qi, ci) for qi, q in enumerate(quads)
                    for ci, c in enumerate(cards)), reverse=True)
    best = [0.0] * len(cards)
    used_q: set[int] = set()
    used_c: set[int] = set()
    for v, qi, ci in pairs:
        if v <= 0.5 or qi in used_q or ci in used_c:
            continue
        best[ci] = v
        used_q.add(qi)
        used_c.add(ci)
    return best, len(quads) - len(used_q)


def corner_error(truth: np.ndarray, quad: np.ndarray, height: float) -> float:
    """Largest corner distance between two quads (best corner pairing), over the card's
    height."""
    a, b = portrait(truth), portrait(quad)
    return min(float(np.linalg.norm(np.roll(b, k, axis=0) - a, axis=1).max())
               for k in range(4)) / height


def props_on(background: np.ndarray, band: tuple[float, float], seed: int, decoys: int) -> np.ndarray:
    """``background`` with ``decoys`` things that are not cards on it (``vision.decoys``),
    laid flat and unsleeved: the cards are laid over them afterwards, as a card lies in
    a printed zone or on a coin."""
    if not decoys:
        return background
    rng = random.Random(seed)
    things = [decoy(rng.choice(DECOY_KINDS), seed * 10 + k) for k in range(decoys)]
    flat = SceneStyle(height_range=band, same_size=True, max_tilt_deg=0, jitter_deg=10, touching=0,
                      sleeves=0, glare=0, blur=(0, 0), noise=(0, 0))
    return compose(background, things, flat, seed=seed).image


def with_backs(faces: list[CardFace], seed: int, backs: int) -> list[CardFace]:
    """``faces`` with ``backs`` face-down cards shuffled among them."""
    out = faces + [card_back(seed * 10 + k) for k in range(backs)]
    random.Random(seed).shuffle(out)
    return out


def real_frames(split: str, count: int, band: tuple[float, float], per_frame: int, seed: int,
                backs: int, decoys: int) -> Iterator[Scene]:
    """Composites of ``split`` scans on that split's mats (``MATS``)."""
    pool = evalset.scans(split)
    every = evalset.mats()
    backgrounds = [every[i] for i in MATS[split] if i < len(every)] or every
    rng = random.Random(seed)
    for k in range(count):
        chosen = rng.sample(pool, min(per_frame, len(pool)))
        faces = [load_face(c.path, c.name, c.card_id) for c in chosen]
        s = seed * 1000 + k
        table = props_on(backgrounds[k % len(backgrounds)], band, s, decoys)
        yield compose(table, with_backs(faces, s, backs), SceneStyle(same_size=True, height_range=band), seed=s)


def generated_frames(count: int, band: tuple[float, float], seed: int, backs: int, decoys: int
                     ) -> Iterator[Scene]:
    """Our proxy cards on generated busy mats."""
    for k in range(count):
        s = seed + k
        faces = [render_proxy(f"Card {i}", str(i), seed=s * 100 + i) for i in range(10)]
        table = props_on(generated_mat((1920, 1080), s), band, s, decoys)
        yield compose(table, with_backs(faces, s, backs), SceneStyle(height_range=band), seed=s)


@dataclass
class Tally:
    """What one band's frames gave."""

    ious: list[float] = field(default_factory=list)
    errors: list[float] = field(default_factory=list)
    find_ms: list[float] = field(default_factory=list)
    judge_ms: list[float] = field(default_factory=list)
    frames: int = 0
    quads: int = 0
    reported: int = 0
    reported_not_cards: int = 0
    quads_not_cards: int = 0
    lost_by_judge: int = 0
    backs: int = 0
    backs_face_down: int = 0
    backs_as_faces: int = 0

    def add(self, scene: Scene, judged: bool = True) -> None:
        faces = [c for c in scene.cards if c.card_id != BACK]
        backs = [c for c in scene.cards if c.card_id == BACK]
        # CPU time: another process on the machine then inflates it less than wall time.
        t = time.process_time()
        quads = find_cards(scene.image)
        t2 = time.process_time()
        kinds = judge_all(scene.image, quads) if judged else [Kind.FACE] * len(quads)
        self.find_ms.append((t2 - t) * 1000)
        self.judge_ms.append((time.process_time() - t2) * 1000)
        self.frames += 1
        self.quads += len(quads)
        as_faces = [q for q, k in zip(quads, kinds, strict=True) if k is Kind.FACE]
        self.reported += len(as_faces)
        every, self_false = score(scene, quads, faces)
        self.quads_not_cards += self_false
        best, extra = score(scene, as_faces, faces)
        self.reported_not_cards += extra
        self.lost_by_judge += sum(a > 0.5 >= b for a, b in zip(every, best, strict=True))
        self.ious.extend(best)
        for card, v in zip(faces, best, strict=True):
            if v > 0.5:
                quad = max(as_faces, key=lambda q, c=card: iou(q, c.quad))
                self.errors.append(corner_error(card.quad, quad, card.height_px))
        self.backs += len(backs)
        for back in backs:
            kind = max(zip(quads, kinds, strict=True), key=lambda qk, c=back: iou(qk[0], c.quad),
                       default=(None, None))
            if kind[0] is not None and iou(kind[0], back.quad) > 0.5:
                self.backs_face_down += kind[1] is Kind.BACK
                self.backs_as_faces += kind[1] is Kind.FACE

    def line(self, label: str) -> str:
        hits = [v for v in self.ious if v > 0.5]
        n = max(1, len(self.ious))
        close = sum(e <= 0.02 for e in self.errors) / max(1, len(self.errors))
        return (f"  {label:>12}: {len(self.ious):4d} cards  recall@0.5 {len(hits) / n:6.1%}  "
                f"recall@0.8 {sum(v > 0.8 for v in self.ious) / n:6.1%}  mean IoU "
                f"{statistics.mean(hits) if hits else 0:.3f}  corners<2% {close:5.1%}  "
                f"| not cards among reported {self.reported_not_cards}/{self.reported} "
                f"= {self.reported_not_cards / max(1, self.reported):5.1%} (unjudged "
                f"{self.quads_not_cards}/{self.quads} = {self.quads_not_cards / max(1, self.quads):5.1%}), "
                f"cards lost by the judge {self.lost_by_judge}  "
                f"| backs face-down {self.backs_face_down}/{self.backs}, as faces {self.backs_as_faces}  "
                f"| find {statistics.median(self.find_ms or [0]):.0f} ms, "
                f"judge {statistics.median(self.judge_ms or [0]):.1f} ms")


def by_condition(split: str, bands: list[tuple[int, int]], names: list[str]) -> None:
    """``--conditions``: the finder and the judge on ``bench.vision.conditions``' frames."""
    from bench.vision.conditions import BY_NAME, FOUND_IOU, scenes

    for band in bands:
        for name in names:
            cards = found = reported = not_cards = 0
            for scene, _chosen in scenes(split, band, BY_NAME[name]):
                quads = find_cards(scene.image)
                faces = [q for q, k in zip(quads, judge_all(scene.image, quads), strict=True) if k is Kind.FACE]
                cards += len(scene.cards)
                found += sum(max((iou(q, c.quad) for q in faces), default=0.0) >= FOUND_IOU for c in scene.cards)
                reported += len(faces)
                not_cards += sum(max(iou(q, c.quad) for c in scene.cards) < FOUND_IOU for q in faces)
            print(f"  {band[0]}-{band[1]} px {name:>13}: cards found {found}/{cards} = {found / max(1, cards):6.1%}  "
                  f"not cards among reported {not_cards}/{reported} = {not_cards / max(1, reported):5.1%}",
                  flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=6, help="composites per height band")
    parser.add_argument("--split", default="holdout", choices=("holdout", "tune"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-decoys", action="store_true",
                        help="cards only, no backs or other things (the figures before the judge)")
    parser.add_argument("--conditions", help="the finder and judge alone on bench.vision.conditions' "
                        "frames under these conditions (comma-separated)")
    parser.add_argument("--bands", default="200-260,260-330,330-440", help="with --conditions")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    keep_freed_memory()  # as a Recognizer does
    if args.conditions:
        from bench.vision.conditions import BY_NAME

        names = args.conditions.split(",")
        if unknown := [n for n in names if n not in BY_NAME]:
            parser.error(f"no condition {', '.join(unknown)}: some of {', '.join(BY_NAME)}")
        try:
            bands = [(int(lo), int(hi)) for lo, hi in (b.split("-") for b in args.bands.split(","))]
        except ValueError:
            parser.error(f"--bands {args.bands!r}: heights as LOW-HIGH, comma-separated (200-260,330-440)")
        by_condition(args.split, bands, names)
        return
    backs, decoys = (0, 0) if args.no_decoys else (2, 3)
    if evalset.available():
        print(f"finder on real scans ({args.split} split) composited on the real playmat "
              f"(mats {', '.join(f'table{i + 1}' for i in MATS[args.split])})")
        for lo, hi in BANDS:
            per = 10 if hi <= 330 else 7
            tally = Tally()
            for scene in real_frames(args.split, args.frames, (lo, hi), per, lo + args.seed, backs, decoys):
                tally.add(scene)
            print(tally.line(f"{lo}-{hi} px"))
    else:
        print("../shared/vision-eval not found: real composites skipped")
    print("finder on generated busy mats with proxy cards")
    for lo, hi in BANDS:
        tally = Tally()
        for scene in generated_frames(args.frames, (lo, hi), 100 + lo + args.seed, backs, decoys):
            tally.add(scene)
        print(tally.line(f"{lo}-{hi} px"))
    frame = generated_frames(1, (200, 440), 5, 0, 0).__next__().image
    for size in ((1920, 1080), (1280, 720)):
        img = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        find_cards(img)
        t = time.process_time()
        for _ in range(10):
            find_cards(img)
        print(f"find_cards {size[0]}x{size[1]}: {(time.process_time() - t) * 100:.1f} ms/frame "
              "(CPU)")


if __name__ == "__main__":
    main()
