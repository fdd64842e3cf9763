"""The two real basic Energy scans (../shared, read at run time, never copied: Lightning
sv1-257 and Fighting sv1-258, both of the tune split) laid on a real mat: titled "Basic
<icon> Energy", they are told apart by their colour. Skips when ../shared is absent."""

from __future__ import annotations

import cv2
import pytest
from shared_data import SCANS

from vision.energy_type import card_colour, type_of_colour
from vision.geometry import portrait
from vision.names import NameMatcher
from vision.recognize import Recognizer
from vision.synthetic import CardFace, SceneStyle, compose, load_face

pytestmark = pytest.mark.skipif(not (SCANS / "sv1-257.png").is_file() or not (SCANS / "sv1-258.png").is_file(),
                                reason="../shared/vision-eval not present")

LIGHTNING, FIGHTING = "Basic Lightning Energy", "Basic Fighting Energy"
DECK = [(LIGHTNING, "sv1-257"), (FIGHTING, "sv1-258"), ("Pikachu", "sv4pt5-131"), ("Nest Ball", "sv1-181"),
        ("Riolu", "sv2-113"), ("Arven", "sv1-166")]


def _scans() -> tuple[CardFace, CardFace, CardFace]:
    """Lightning, Fighting, and the two blended half and half: a card of the same print
    whose colour lies between the two types."""
    lightning = load_face(SCANS / "sv1-257.png", LIGHTNING, "sv1-257")
    fighting = load_face(SCANS / "sv1-258.png", FIGHTING, "sv1-258")
    between = cv2.addWeighted(lightning.image, 0.5, fighting.image, 0.5, 0)
    return lightning, fighting, CardFace(between, "Basic Energy")


@pytest.mark.parametrize(("height", "cast", "seed"), [((210, 250), (0.0, 0.0), 1), ((270, 320), (0.15, 0.2), 2),
                                                      ((340, 430), (0.15, 0.2), 3)])
def test_real_basic_energy_is_named_by_its_colour_or_not_at_all(height, cast, seed):
    from bench.vision import evalset

    style = SceneStyle(height_range=height, same_size=True, max_tilt_deg=5.0, touching=0.2, sleeves=0.0,
                       glare=0.0, blur=(0.0, 0.6), noise=(0.0, 3.0), colour_cast=cast)
    scene = compose(evalset.mats("tune")[seed % 3], _scans(), style, seed=seed)
    recognizer = Recognizer(NameMatcher(DECK, DECK))
    quads = [portrait(card.quad) for card in scene.cards]
    assert [type_of_colour(card_colour(scene.image, q), ("Lightning", "Fighting")) for q in quads] == \
        ["Lightning", "Fighting", None]
    readings = [recognizer.read(scene.image, q) for q in quads]
    assert [r.name if r else None for r in readings] == [LIGHTNING, FIGHTING, None]
    assert [r.card_id for r in readings[:2]] == ["sv1-257", "sv1-258"]
    assert all(r.rotation == card.rotation for r, card in zip(readings, scene.cards, strict=True))
