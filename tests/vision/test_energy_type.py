"""A basic Energy's type from its colour (vision/energy_type.py): newer cards print the
type as an icon ("Basic <icon> Energy"), so the title ties between the deck's basic
Energy and the card's colour must settle it, or say nothing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.energy_type import (
    ENERGY_COLOURS,
    card_colour,
    colour_may_tell,
    energy_names,
    energy_type,
    lab,
    settled_by_colour,
    type_of_colour,
)
from vision.geometry import portrait
from vision.names import NameMatch, NameMatcher
from vision.recognize import Recognizer
from vision.synthetic import CardFace, SceneStyle, compose, generated_mat, render_proxy

LIGHTNING, FIGHTING = "Basic Lightning Energy", "Basic Fighting Energy"
DECK = [(LIGHTNING, "sve-4"), (FIGHTING, "sve-6"), ("Pikachu", "sv4pt5-131"), ("Nest Ball", "sv1-181"),
        ("Riolu", "sv2-113"), ("Arven", "sv1-166")]
#: Cards ~300 px tall, a camera a little off overhead, no glare: the colour is the test.
TABLE = SceneStyle(height_range=(280, 320), same_size=True, max_tilt_deg=5, touching=0.0, sleeves=0.0,
                   glare=0.0, blur=(0.0, 0.6), noise=(0.0, 3.0))


def _basic_energy(colour: tuple[int, int, int], seed: int = 0) -> CardFace:
    """Our own proxy of a newer basic Energy (never a scan): the title "Basic Energy"
    (the type an icon that is left out), and below it a field of the type's ``colour``
    (BGR) with a paler disc, a black symbol on it and white sparkles, as printed."""
    image = render_proxy("Basic Energy", kind="energy", seed=seed).image.copy()
    h, w = image.shape[:2]
    m = int(0.035 * w)
    field = np.float32(colour)
    rows = np.linspace(0.85, 1.1, int(0.88 * h) - int(0.135 * h), dtype=np.float32)[:, None, None]
    image[int(0.135 * h):int(0.88 * h), m:w - m, :3] = np.clip(field * rows, 0, 255).astype(np.uint8)
    centre, radius = (w // 2, int(0.5 * h)), int(0.24 * w)
    cv2.circle(image, centre, radius, tuple(int(v) for v in 0.7 * field + 0.3 * 255) + (255,), -1, cv2.LINE_AA)
    bolt = np.int32([[0.55, 0.38], [0.42, 0.52], [0.5, 0.52], [0.44, 0.63], [0.58, 0.48], [0.5, 0.48]]
                    * np.float32([w, h]))
    cv2.fillPoly(image, [bolt], (15, 15, 15, 255), cv2.LINE_AA)
    rng = np.random.default_rng(seed)
    for x, y in rng.uniform((0.1, 0.17), (0.9, 0.85), (14, 2)) * (w, h):
        size = int(rng.integers(6, 18))
        cv2.line(image, (int(x) - size, int(y)), (int(x) + size, int(y)), (255, 255, 255, 255), 3)
        cv2.line(image, (int(x), int(y) - size), (int(x), int(y) + size), (255, 255, 255, 255), 3)
    return CardFace(image, "Basic Energy")


def _cast(image: np.ndarray, warm: bool, strength: float) -> np.ndarray:
    """``image`` under a warm (red up, blue down) or cool light, as the benchmark's
    colour-cast condition makes it."""
    gains = [1 - strength / 2, 1.0, 1 + strength / 2]
    return np.clip(image * np.float32(gains if warm else gains[::-1]), 0, 255).astype(np.uint8)


def _between(a: str, b: str) -> tuple[int, int, int]:
    """The BGR colour halfway between types ``a`` and ``b``'s."""
    return tuple(int(round((x + y) / 2)) for x, y in zip(ENERGY_COLOURS[a], ENERGY_COLOURS[b], strict=True))


def _tie(*names: str, closeness: float = 0.9) -> NameMatch:
    """A title read "Basic Energy": as close to each of ``names``, so named by none."""
    return NameMatch(names[0], None, 0.0, "Basic Energy", 90.0, closeness, names[1:])


def test_the_names_of_basic_energy_give_their_type():
    assert energy_type(LIGHTNING) == energy_type("Lightning Energy") == "Lightning"
    assert energy_type("Basic Fairy Energy") == "Fairy"  # the ninth type, printed until 2020
    assert energy_type("Speed Lightning Energy") is None and energy_type("Energy Switch") is None
    assert energy_names(["Energy Switch", FIGHTING, "Riolu", LIGHTNING]) == {"Fighting": FIGHTING,
                                                                           "Lightning": LIGHTNING}


@pytest.mark.parametrize("kind", list(ENERGY_COLOURS))
def test_each_types_colour_is_named_as_that_type_among_all_nine(kind):
    assert type_of_colour(lab(ENERGY_COLOURS[kind]), ENERGY_COLOURS) == kind


@pytest.mark.parametrize(("a", "b"), [("Lightning", "Fighting"), ("Fire", "Fighting"), ("Darkness", "Metal"),
                                      ("Psychic", "Fairy")])
def test_a_colour_between_two_of_the_decks_types_is_not_named(a, b):
    # A judge acts on the name: halfway between two types is not sure, not a coin toss.
    assert type_of_colour(lab(_between(a, b)), (a, b)) is None


def test_only_the_decks_types_are_weighed():
    fighting = lab(ENERGY_COLOURS["Fighting"])
    assert type_of_colour(fighting, ("Fighting", "Water")) == "Fighting"
    # Lightning is Fighting's nearest neighbour, but not near enough to be taken for it.
    assert type_of_colour(fighting, ("Lightning", "Water")) is None
    assert type_of_colour(lab(ENERGY_COLOURS["Fire"]), ("Fighting", "Grass")) is None


def test_only_a_tie_between_basic_energy_of_different_types_is_for_the_colour():
    assert colour_may_tell(_tie(LIGHTNING, FIGHTING)) == {"Lightning": LIGHTNING, "Fighting": FIGHTING}
    assert colour_may_tell(_tie("Oinkologne", "Oinkologne ex")) == {}
    assert colour_may_tell(_tie(LIGHTNING, "Lightning Energy")) == {}  # one type, two names
    assert colour_may_tell(_tie(LIGHTNING, FIGHTING, closeness=0.3)) == {}  # not read as "Basic Energy"
    named = NameMatch(LIGHTNING, "sve-4", 0.9, "Basic Lightning Energy", 95.0, 0.9)
    assert colour_may_tell(named) == {}


def _laid(colours: list[tuple[int, int, int]], seed: int):
    faces = [_basic_energy(colour, seed * 10 + k) for k, colour in enumerate(colours)]
    return compose(generated_mat((1920, 1080), seed), faces, TABLE, seed=seed)


def _read_types(cast: tuple[bool, float] | None) -> dict[tuple[str, str], str | None]:
    """Each type's proxy laid on a table (under ``cast``), its colour decided between its
    own type and each other type in turn, as a deck of two types would: by pair."""
    kinds = list(ENERGY_COLOURS)
    scene = _laid([ENERGY_COLOURS[kind] for kind in kinds], seed=3)
    image = scene.image if cast is None else _cast(scene.image, *cast)
    colours = {kind: card_colour(image, portrait(card.quad)) for kind, card in zip(kinds, scene.cards, strict=True)}
    return {(kind, other): type_of_colour(colours[kind], (kind, other)) for kind in kinds for other in kinds
            if other != kind}


def test_a_basic_energys_type_is_told_by_its_colour():
    assert all(named == kind for (kind, _other), named in _read_types(None).items())


@pytest.mark.parametrize("warm", [True, False])
def test_a_colour_cast_never_flips_a_type(warm):
    # Red and blue 20% apart, the benchmark's strongest cast: a type may go unsure beside
    # its neighbour (Psychic and Fairy), never become it.
    read = _read_types((warm, 0.2))
    assert all(named in (kind, None) for (kind, _other), named in read.items())
    assert read["Lightning", "Fighting"] == "Lightning" and read["Fighting", "Lightning"] == "Fighting"
    assert sum(named is None for named in read.values()) <= 4  # of 72 pairs


def test_the_recognizer_names_a_basic_energy_from_its_colour():
    matcher = NameMatcher(DECK, DECK)
    recognizer = Recognizer(matcher)
    scene = _laid([ENERGY_COLOURS["Lightning"], ENERGY_COLOURS["Fighting"], _between("Lightning", "Fighting")],
                  seed=5)
    names = [recognizer.read(scene.image, portrait(card.quad)) for card in scene.cards]
    assert [r.name if r else None for r in names] == [LIGHTNING, FIGHTING, None]
    assert [r.card_id for r in names[:2]] == ["sve-4", "sve-6"]  # one printing each in the deck lists
    assert all(r.rotation == card.rotation for r, card in zip(names, scene.cards, strict=True))


def test_the_colour_settles_nothing_but_a_basic_energy_tie():
    scene = _laid([ENERGY_COLOURS["Lightning"]], seed=7)
    quad = portrait(scene.cards[0].quad)
    matcher = NameMatcher(DECK, DECK)
    settled = settled_by_colour(_tie(FIGHTING, LIGHTNING), matcher, scene.image, quad)
    assert (settled.name, settled.card_id, settled.confidence, settled.rivals) == (LIGHTNING, "sve-4", 0.9, ())
    for match in (_tie("Oinkologne", "Oinkologne ex"), _tie(FIGHTING, LIGHTNING, closeness=0.3)):
        assert settled_by_colour(match, matcher, scene.image, quad) == match
