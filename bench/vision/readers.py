"""Tesseract against PP-OCR on the same crops, stage by stage, by card height.

    .venv/bin/python -m bench.vision.readers [--split holdout|tune] [--bands 200-260,...]

Every scan of a split is composited onto the real mat once per height band, as in
``bench.vision.names`` (tilt, sleeves, glare, blur, noise, JPEG), and each card is read
from its true outline by both readers:

- ``title``: the first title line ``vision.ocr`` finds on the upright card, read alone:
  the share whose text spells the name (its base, without a suffix logo);
- ``name``: the whole reading (either way up, all reads, deck lists of the frame's cards
  plus 24 other sv1 cards): named right / not sure / wrong;
- ``hp``: the HP corner of Pokémon: the share whose digits hold the printed HP;
- ``number``: the bottom strip's collector number (``vision.identity``): right / wrong
  (a read that is not a number, or not sure enough, counts as neither);
- ``id``: the printing that number picks among every printing of the card's true name
  (no deck lists: the case where the id is not already known): right / wrong.

Each stage's time is given as PP-OCR's time over Tesseract's (this machine is shared:
ratios, not milliseconds). Tune on the tune split only; report the holdout split.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter

os.environ["OMP_THREAD_LIMIT"] = "1"

import cv2  # noqa: E402

from bench.vision import evalset  # noqa: E402
from bench.vision.names import scenes  # noqa: E402
from vision.hit_points import read_hit_points  # noqa: E402
from vision.identity import parse_number, printing, read_number  # noqa: E402
from vision.names import NameMatcher, base_name, normalise  # noqa: E402
from vision.ocr import LineReader, Tesseract, title_band, title_images  # noqa: E402
from vision.pp_ocr import PPOCR  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402


def _timed(counts: Counter, key: str, call):
    start = time.perf_counter()
    result = call()
    counts[key] += time.perf_counter() - start
    return result


def _stages(engine: LineReader, frame, card, deck_rec: Recognizer, hp: int | None,
            printings: dict[str, list[str]], counts: Counter) -> None:
    """One card's stages with ``engine``, tallied into ``counts``."""
    band = title_band(frame, card.quad)
    first = next(title_images(band), None)
    if first is not None:
        read = _timed(counts, "title_s", lambda: engine.read_line(first))
        counts["title"] += base_name(card.name).replace(" ", "") in normalise(read.text).replace(" ", "")
    counts["title_n"] += 1
    reading = _timed(counts, "name_s", lambda: deck_rec.read(frame, card.quad))
    counts["name_n"] += 1
    named = reading.name if reading is not None else None
    counts["right" if named == card.name else "null" if named is None else "wrong"] += 1
    if hp is not None:
        digits = _timed(counts, "hp_s", lambda: read_hit_points(engine, band))
        counts["hp"] += str(hp) in digits
        counts["hp_n"] += 1
    number = _timed(counts, "number_s", lambda: read_number(engine, frame, card.quad))
    counts["number_n"] += 1
    if number is not None:
        counts["number" if number == parse_number(card.card_id.rsplit("-", 1)[1] + "/") else "number_wrong"] += 1
    card_id = printing(printings.get(card.name, ()), number)
    if card_id is not None:
        counts["id" if card_id == card.card_id else "id_wrong"] += 1


def measure(split: str, bands: list[tuple[int, int]], seed: int = 0) -> None:
    all_cards = evalset.all_names()
    sv1 = [(c.name, c.card_id) for c in evalset.scans()]
    hp = {card_id: h for _n, card_id, h in evalset._database() if h is not None}
    printings: dict[str, list[str]] = {}
    for name, card_id in all_cards:
        printings.setdefault(name, []).append(card_id)
    engines = {"tesseract": Tesseract(), "pp-ocr": PPOCR()}
    rng = random.Random(seed)
    print(f"Tesseract against PP-OCR, true outlines, {split} split ({len(evalset.scans(split))} scans)")
    print(f"  {'height':>9} {'reader':>9} {'cards':>5} {'title':>6} {'named':>6} {'null':>6} {'wrong':>6}"
          f" {'hp':>6} {'number':>6} {'num x':>6} {'id':>6} {'id x':>6}")
    times = {name: Counter() for name in engines}
    for band in bands:
        counts = {name: Counter() for name in engines}
        for scene, chosen in scenes(split, band, seed):
            deck = [(c.name, c.card_id) for c in chosen] + rng.sample(sv1, 24)
            matcher = evalset.with_deck(NameMatcher(all_cards), deck)
            for name, engine in engines.items():
                rec = Recognizer(matcher, engine=engine)
                for card in scene.cards:
                    _stages(engine, scene.image, card, rec, hp.get(card.card_id), printings, counts[name])
        for name in engines:
            c = counts[name]
            times[name].update({k: v for k, v in c.items() if k.endswith("_s")})

            def share(key: str, total: str, c: Counter = c) -> str:
                return f"{c[key] / max(1, c[total]):6.1%}"

            print(f"  {band[0]}-{band[1]:<5} {name:>9} {c['name_n']:>5} {share('title', 'title_n')} "
                  f"{share('right', 'name_n')} {share('null', 'name_n')} {share('wrong', 'name_n')} "
                  f"{share('hp', 'hp_n')} {share('number', 'number_n')} {share('number_wrong', 'number_n')} "
                  f"{share('id', 'number_n')} {share('id_wrong', 'number_n')}")
    ratios = " ".join(f"{stage}: {times['pp-ocr'][stage + '_s'] / max(1e-9, times['tesseract'][stage + '_s']):.2f}x"
                      for stage in ("title", "name", "hp", "number"))
    print(f"  time, PP-OCR over Tesseract (one thread): {ratios}")


def main() -> None:
    args = evalset.benchmark_options().parse_args()
    cv2.setNumThreads(1)
    if not evalset.available():
        print("../shared/vision-eval not found: nothing to measure")
        return
    measure(args.split, args.bands, args.seed)


if __name__ == "__main__":
    main()
