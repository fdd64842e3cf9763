"""Measurement frames from ``../shared/vision-eval``: the real card scans composited onto
the real playmat frames. Read at run time, never stored in the repository.

The scans are split by a hash of the card id into a *tune* part (looked at while
choosing thresholds) and a *holdout* part (only measured), so reported figures are
honest.
"""

from __future__ import annotations

import argparse
import json
import random
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypeVar

import cv2

from vision.names import NameMatcher
from vision.synthetic import CardFace, Scene, SceneStyle, compose, generated_mat, load_face, mat_from_frame

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
EVAL = SHARED / "vision-eval"
CARDS = SHARED / "pokemon-tcg-data" / "cards" / "en"
T = TypeVar("T")


#: The card heights in pixels that figures are given by: a 1080p webcam over a playmat.
BANDS = ((200, 260), (260, 330), (330, 440))
#: An outline found for a card when it overlaps the card's true outline this much.
FOUND_IOU = 0.6


def benchmark_options() -> argparse.ArgumentParser:
    """The options every benchmark over the scans takes: ``--split`` (report on
    holdout, tune on tune), ``--bands`` (``200-260,...``) and ``--seed``."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", default="holdout", choices=("holdout", "tune"))
    parser.add_argument("--bands", default=",".join(f"{a}-{b}" for a, b in BANDS), type=_bands)
    parser.add_argument("--seed", type=int, default=0)
    return parser


def _bands(text: str) -> list[tuple[int, int]]:
    try:
        bands = [tuple(int(v) for v in band.split("-")) for band in text.split(",")]
    except ValueError:
        bands = []
    if not bands or any(len(b) != 2 or b[0] >= b[1] for b in bands):
        raise argparse.ArgumentTypeError(f"{text!r}: heights as LOW-HIGH, comma-separated (200-260,260-330)")
    return bands  # type: ignore[return-value]


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
    return tuple((name, card_id, hp) for name, card_id, hp, _types, _attacks in _cards())


@cache
def _cards() -> tuple[tuple[str, str, int | None, tuple[str, ...], tuple[str, ...]], ...]:
    """(name, id, HP or None, Pokémon types, attack and Ability names) of every card of
    the shared database."""
    out = []
    for f in sorted(CARDS.glob("*.json")):
        for c in json.loads(f.read_text()):
            hp = str(c.get("hp", ""))
            attacks = tuple(a["name"] for key in ("attacks", "abilities") for a in c.get(key) or ())
            out.append((c["name"], c["id"], int(hp) if hp.isdigit() else None, tuple(c.get("types") or ()), attacks))
    return tuple(out)


def all_names() -> list[tuple[str, str]]:
    """(name, id) for every card of the shared database: the no-deck-list candidates."""
    return [(name, card_id) for name, card_id, _hp in _database()]


@cache
def _hp_by_id() -> dict[str, tuple[int]]:
    return {card_id: (hp,) for _name, card_id, hp in _database() if hp is not None}


@cache
def _types_by_id() -> dict[str, tuple[str, ...]]:
    return {card_id: kinds for _name, card_id, _hp, kinds, _attacks in _cards()}


@cache
def _attacks_by_id() -> dict[str, tuple[str, ...]]:
    return {card_id: attacks for _name, card_id, _hp, _kinds, attacks in _cards()}


def _by_name(deck: Iterable[tuple[str, str | None]], facts: Mapping[str, Iterable[T]]) -> dict[str, set[T]]:
    """The ``facts`` of each printing of ``deck`` ((name, id) pairs), gathered by name."""
    out: dict[str, set[T]] = {}
    for name, card_id in deck:
        if card_id in facts:
            out.setdefault(name, set()).update(facts[card_id])
    return out


def types(deck: Iterable[tuple[str, str | None]]) -> dict[str, set[str]]:
    """The Pokémon types each name of ``deck`` ((name, id) pairs) is printed with (none for
    a Trainer or an Energy), as the command line hands them to vision."""
    return _by_name(deck, _types_by_id())


def hit_points(deck: Iterable[tuple[str, str | None]]) -> dict[str, set[int]]:
    """The HP each name of ``deck`` ((name, id) pairs) is printed with, as the command
    line hands it to vision."""
    return _by_name(deck, _hp_by_id())


def attacks(deck: Iterable[tuple[str, str | None]]) -> dict[str, set[str]]:
    """The names of the attacks and Abilities each name of ``deck`` ((name, id) pairs) is
    printed with, as the command line hands them to vision."""
    return _by_name(deck, _attacks_by_id())


def with_deck(matcher: NameMatcher, deck: Sequence[tuple[str, str | None]]) -> NameMatcher:
    """``matcher`` for the deck lists ``deck`` ((name, id) pairs), with what the command
    line hands vision of each name: its HP, its Pokémon types and its attacks' names."""
    return matcher.with_deck(deck, hit_points(deck), types(deck), attacks(deck))


#: The real mats each split is rendered on: conditions are tuned on the first three and
#: reported on the other two plus a generated mat (``HOLDOUT_MAT_SEED``) the tune side
#: never sees, so a figure also says how the reader does on a mat it was not tuned on.
MATS = {"tune": ("table1.png", "table2.png", "table3.png"), "holdout": ("table4.png", "table5.png")}
HOLDOUT_MAT_SEED = 4051


def mats(split: str | None = None) -> list:
    """The mats of ``split`` (1920x1080 BGR), or all five real ones when None."""
    names = MATS.get(split or "", MATS["tune"] + MATS["holdout"])
    frames = []
    for name in names:
        img = cv2.imread(str(EVAL / "playmat-frames" / name))
        if img is not None:
            frames.append(mat_from_frame(img))
    if split == "holdout":
        frames.append(generated_mat((1920, 1080), HOLDOUT_MAT_SEED))
    return frames


def frames(split: str, count: int, height_range: tuple[float, float], per_frame: int = 10,
           seed: int = 0, style: SceneStyle | None = None, mats_of_split: bool = False
           ) -> Iterator[tuple[Scene, list[EvalCard]]]:
    """``count`` composites of ``split`` scans, ``per_frame`` cards each, with the cards
    of the frame (for building deck lists). As on a real table, the cards of one frame
    share a height (``SceneStyle.same_size``) unless ``style`` says otherwise.
    ``mats_of_split``: on the split's own mats (``MATS``), as the benchmarks are; the
    finder's regression tests keep the five real mats they were written on."""
    pool = scans(split)
    backgrounds = mats(split if mats_of_split else None)
    rng = random.Random(seed)
    base = style or SceneStyle(same_size=True)
    for k in range(count):
        chosen = rng.sample(pool, min(per_frame, len(pool)))
        faces: list[CardFace] = [load_face(c.path, c.name, c.card_id) for c in chosen]
        st = SceneStyle(**{**base.__dict__, "height_range": height_range})
        scene = compose(backgrounds[k % len(backgrounds)], faces, st, seed=seed * 1000 + k)
        yield scene, chosen
