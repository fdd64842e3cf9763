"""The HP figure read from the Pokémon of a split, by card height and reader.

    nice .venv/bin/python -m bench.vision.hit_points --split tune
        [--bands 200-260,...] [--readers pp-ocr,tesseract] [--condition plain] [--errors]

The frames are ``bench.vision.conditions``'s (every scan of the split once per height
band, on the split's mats), and each Pokémon's title band is straightened from its true
outline, upright. ``read_hit_points`` is then scored against the printed HP:

- ``exact``: the digits read are the HP figure and nothing else;
- ``holds``: they hold it (a stray digit beside it still lets ``NameMatcher`` settle a
  tie whose names have HP figures that are not part of one another);
- ``empty``: nothing read; ``other``: digits without the figure.

It prints figures only (and with ``--errors`` each miss); time is per read, this
machine being shared: compare runs interleaved. Tune on the tune split only.
"""

from __future__ import annotations

import os
import time
from collections import Counter

os.environ["OMP_THREAD_LIMIT"] = "1"

import cv2  # noqa: E402

from bench.vision import evalset  # noqa: E402
from bench.vision.conditions import BY_NAME, scenes  # noqa: E402
from vision.hit_points import read_hit_points  # noqa: E402
from vision.ocr import title_band  # noqa: E402
from vision.recognize import line_reader  # noqa: E402


def measure(split: str, bands: list[tuple[int, int]], readers: list[str], condition: str,
            seed: int = 0, show_errors: bool = False) -> None:
    hp_of = {card_id: hp for _name, card_id, hp in evalset._database() if hp is not None}
    engines = {name: line_reader(name) for name in readers}
    print(f"HP figures read, true outlines, {split} split, {condition}")
    print(f"  {'height':>8} {'reader':>9} {'cards':>5}  exact  holds  empty  other   ms/read")
    for band in bands:
        counts = {name: Counter() for name in readers}
        misses: list[str] = []
        for scene, _chosen in scenes(split, band, BY_NAME[condition], seed):
            for card in scene.cards:
                hp = hp_of.get(card.card_id)
                if hp is None:
                    continue
                band_image = title_band(scene.image, card.quad)
                for name, engine in engines.items():
                    start = time.perf_counter()
                    digits = read_hit_points(engine, band_image)
                    c = counts[name]
                    c["seconds"] += time.perf_counter() - start
                    c["cards"] += 1
                    c["exact"] += digits == str(hp)
                    c["holds"] += str(hp) in digits
                    c["empty"] += not digits
                    c["other"] += bool(digits) and str(hp) not in digits
                    if str(hp) not in digits:
                        misses.append(f"{name}: {card.name} {card.card_id} {hp} read {digits!r}")
        for name in readers:
            c = counts[name]

            def share(key: str, c: Counter = c) -> str:
                return f"{c[key] / max(1, c['cards']):6.1%}"

            print(f"  {band[0]}-{band[1]:<4} {name:>9} {c['cards']:>5} {share('exact')} {share('holds')} "
                  f"{share('empty')} {share('other')} {1000 * c['seconds'] / max(1, c['cards']):8.1f}",
                  flush=True)
        if show_errors:
            for miss in misses:
                print(f"    {miss}")


def main() -> None:
    parser = evalset.benchmark_options()
    parser.add_argument("--readers", default="pp-ocr,tesseract")
    parser.add_argument("--condition", default="plain", choices=sorted(BY_NAME))
    parser.add_argument("--errors", action="store_true", help="list every miss")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if not evalset.available():
        print("../shared/vision-eval not found: nothing to measure")
        return
    measure(args.split, args.bands, args.readers.split(","), args.condition, args.seed, args.errors)


if __name__ == "__main__":
    main()
