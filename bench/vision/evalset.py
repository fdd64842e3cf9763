"""Measurement frames from ``../shared/vision-eval``: the real card scans composited onto
the real playmat frames. Read at run time, never stored in the repository.

The scans are split by a hash of the card id into a *tune* part (looked at while
choosing thresholds) and a *holdout* part (only measured), so reported figures are
honest.
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2

from vision.synthetic import CardFace, Scene, SceneStyle, compose, load_face, mat_from_frame

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
EVAL = SHARED / "vision-eval"
CARDS = SHARED / "pokemon-tcg-data" / "cards" / "en"


def available() -> bool:
    return (EVAL / "card-scans-sv1").is_dir() and (CARDS / "sv1.json").is_file()


def split_of(card_id: str) -> str:
    """``holdout`` for about a third of the ids, ``tune`` for the rest."""
    return "holdout" if zlib.crc32(card_id.encode()) % 3 == 0 else "tune"


@dataclass
class EvalCard:
    card_id: str
    name: str
    path: Path


def scans(split: str | None = None) -> list[EvalCard]:
    """The scans with their names, from the sv1 card data."""
    data = json.loads((CARDS / "sv1.json").read_text())
    names = {c["id"]: c["name"] for c in data}
    out = []
    for path in sorted((EVAL / "card-scans-sv1").glob("*.png")):
        cid = path.stem
        if cid in names and (split is None or split_of(cid) == split):
            out.append(EvalCard(cid, names[cid], path))
    return out


@cache
def _database() -> tuple[tuple[str, str, int | None], ...]:
    """(name, id, HP or None) of every card of the shared database, read once."""
    out = []
    for f in sorted(CARDS.glob("*.json")):
        for c in json.loads(f.read_text()):
            hp = str(c.get("hp", ""))
            out.append((c["name"], c["id"], int(hp) if hp.isdigit() else None))
    return tuple(out)


def all_names() -> list[tuple[str, str]]:
    """(name, id) for every card of the shared database: the no-deck-list candidates."""
    return [(name, card_id) for name, card_id, _hp in _database()]


@cache
def _hp_by_id() -> dict[str, int]:
    return {card_id: hp for _name, card_id, hp in _database() if hp is not None}


def hit_points(deck: Iterable[tuple[str, str | None]]) -> dict[str, set[int]]:
    """The HP each name of ``deck`` ((name, id) pairs) is printed with, as the command
    line hands it to vision."""
    hp = _hp_by_id()
    out: dict[str, set[int]] = {}
    for name, card_id in deck:
        if card_id in hp:
            out.setdefault(name, set()).add(hp[card_id])
    return out


def mats() -> list:
    frames = []
    for name in ("table1.png", "table2.png", "table3.png", "table4.png", "table5.png"):
        img = cv2.imread(str(EVAL / "playmat-frames" / name))
        if img is not None:
            frames.append(mat_from_frame(img))
    return frames


def frames(split: str, count: int, height_range: tuple[float, float], per_frame: int = 10,
           seed: int = 0, style: SceneStyle | None = None) -> Iterator[tuple[Scene, list[EvalCard]]]:
    """``count`` composites of ``split`` scans, ``per_frame`` cards each, with the cards
    of the frame (for building deck lists). As on a real table, the cards of one frame
    share a height (``SceneStyle.same_size``) unless ``style`` says otherwise."""
    pool = scans(split)
    backgrounds = mats()
    rng = random.Random(seed)
    base = style or SceneStyle(same_size=True)
    for k in range(count):
        chosen = rng.sample(pool, min(per_frame, len(pool)))
        faces: list[CardFace] = [load_face(c.path, c.name, c.card_id) for c in chosen]
        st = SceneStyle(**{**base.__dict__, "height_range": height_range})
        scene = compose(backgrounds[k % len(backgrounds)], faces, st, seed=seed * 1000 + k)
        yield scene, chosen
