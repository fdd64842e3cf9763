"""Finding a card from its text (``vision.text_finder``): phone photos where one card fills
the frame or is held in a hand, a binder page, a small card on a table frame. Every image
is rendered here from our own proxy cards."""

from __future__ import annotations

import io
import socket
from dataclasses import replace
from importlib import resources

import cv2
import numpy as np
import pytest
from vision_scenes import CLEAN, NAMES, TRAINERS, kind

from vision import text_detect, text_finder
from vision.geometry import CARD_ASPECT, card_height, rotation_of
from vision.names import NameMatcher
from vision.ocr import Glyph, LineRead
from vision.recognize import Recognizer
from vision.synthetic import compose, generated_mat, render_proxy
from vision.synthetic_photos import binder_page, filling_photo, scaled
from vision.text_finder import card_frame, hit_points_mark, is_header, merged, unexplained

pytestmark = pytest.mark.skipif(not text_finder.available(), reason="rapidocr/onnxruntime not installed")

#: Nine names no two of which read alike (Miraidon / Miraidon ex would: the suffix is a logo).
BINDER = ["Charmander", "Pikachu", "Ralts", "Kirlia", "Gardevoir ex", "Flittle", "Espathra",
          "Skwovet", "Greedent"]


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer(NameMatcher(NAMES))


def _named(readings) -> list[str]:
    return [r.name for r in readings if r.name is not None]


def test_the_detector_ships_in_the_package_and_finds_lines_offline(monkeypatch):
    assert (resources.files("rapidocr") / "models" / text_detect.MODEL).is_file()

    def no_network(*args, **kwargs):
        raise AssertionError("PP-OCR's detector tried to reach the network")

    monkeypatch.setattr(socket, "socket", no_network)
    text_detect._session.cache_clear()
    image = np.full((200, 500, 3), 235, np.uint8)
    cv2.putText(image, "Pikachu", (60, 120), cv2.FONT_HERSHEY_DUPLEX, 2.0, (20, 20, 20), 3, cv2.LINE_AA)
    (line,) = text_detect.detect(image)
    centre = line.corners.mean(axis=0)
    assert 150 < centre[0] < 260 and 80 < centre[1] < 120
    assert line.length > 3 * line.thickness  # read along the line, left to right
    assert line.corners[1][0] > line.corners[0][0]


def test_the_hp_mark_is_a_figure_at_the_end_of_a_strip():
    assert hit_points_mark("HP 70") == "70"
    assert hit_points_mark("Gardevoir ex HP 310") == "310"
    assert hit_points_mark("Hr40") == "40"  # a misread "HP" is still the mark
    assert hit_points_mark("-130") == "130"
    assert hit_points_mark("Charmander") is None
    assert hit_points_mark("30 damage to each Benched Pokemon") is None
    assert hit_points_mark("Copycat swsh7-222") is None  # a label's card id, not an HP
    assert hit_points_mark("HP 900") == "90"  # the type symbol's edge read as a "0"
    assert hit_points_mark("06") is None  # "90" upside down: no card prints 6 HP


def test_a_title_glued_to_its_hp_in_one_box_keeps_its_name():
    assert text_finder.title_text("Koraidonex230") == "Koraidonex"
    assert text_finder.title_text("Gardevoir ex HP 310") == "Gardevoir ex"
    assert text_finder.title_text("Pikachu") == "Pikachu"
    assert text_finder.title_text("Pokégear 3.0") == "Pokégear"  # no HP mark: digits dropped


class _TwoWays:
    """A line reader that reads a line as "06" (surely) the way the detector's box gives
    it, and "90" the other way up: the detector gave the short HP box turned round."""

    backend = "script"

    def __init__(self) -> None:
        self.calls = 0

    def read_line(self, image: np.ndarray, either_way: bool = True):
        from vision.ocr import LineRead

        self.calls += 1
        return LineRead("06", 0.998) if self.calls == 1 else LineRead("90", 0.987)


def test_a_figure_that_is_an_hp_mark_only_upside_down_is_read_the_other_way_too():
    """Medicham's "HP 90" corner in a phone photo (tune split): the box came turned round,
    and "06" read surely kept the card from being found by its title and HP."""
    image = np.full((120, 300, 3), 235, np.uint8)
    turned_round = np.float32([[200, 80], [100, 80], [100, 30], [200, 30]])
    reader = _TwoWays()
    line = text_finder.TextFinder(NameMatcher(NAMES), reader)._read(
        image, text_detect.TextBox(turned_round, 0.9))
    assert reader.calls == 2 and line.read.text == "90"
    assert line.corners[0].tolist() == [100, 30]  # read this way up


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_the_card_frame_follows_from_its_title_strip(turn):
    """A 400 × 560 px card at (100, 50): its title box and its strip's end give back the
    card, whichever way it is turned."""
    w, h = 400.0, 400.0 / CARD_ASPECT
    title = np.float32([[0.182 * w, 0.035 * h], [0.5 * w, 0.035 * h], [0.5 * w, 0.083 * h],
                        [0.182 * w, 0.083 * h]])
    end = np.float32([0.889 * w, 0.059 * h])
    card = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    a = np.radians(turn)
    rot = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])

    def place(p):
        return p @ rot.T + np.float32([100, 50])

    frame = card_frame(place(title), place(end))
    assert frame is not None
    assert np.abs(frame - place(card)).max() < 1.0
    assert rotation_of(frame) == turn
    # A strip as thick as a fifth of the card is no title's.
    assert card_frame(place(title * np.float32([1, 3])), place(end)) is None


def _trainer_top(w: float) -> tuple[np.ndarray, np.ndarray]:
    """The name box and the "TRAINER" header box of a Trainer ``w`` px wide at (0, 0),
    laid out as on a Scarlet & Violet card."""
    h = w / CARD_ASPECT
    name = np.float32([[0.052 * w, 0.072 * h], [0.3 * w, 0.072 * h], [0.3 * w, 0.128 * h],
                       [0.052 * w, 0.128 * h]])
    header = np.float32([[0.63 * w, 0.026 * h], [0.951 * w, 0.026 * h], [0.951 * w, 0.064 * h],
                         [0.63 * w, 0.064 * h]])
    return name, header


def _line(corners: np.ndarray, text: str, confidence: float = 0.99) -> text_finder._Line:
    return text_finder._Line(corners, LineRead(text, confidence, Glyph.of_text(text)))


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_a_trainers_frame_follows_from_its_name_and_the_header_over_it(turn):
    w = 400.0
    name, header = _trainer_top(w)
    card = np.float32([[0, 0], [w, 0], [w, w / CARD_ASPECT], [0, w / CARD_ASPECT]])
    a = np.radians(turn)
    rot = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])

    def place(p):
        return p @ rot.T + np.float32([700, 650])

    frame = text_finder._header_frame(_line(place(name), "Jacq"), [_line(place(header), "TRAINER")])
    assert frame is not None
    assert np.abs(frame - place(card)).max() < 1.0
    assert rotation_of(frame) == turn
    # A header beside the name, or under it, or ending short of the card's edge, is no
    # Trainer's header.
    assert text_finder._header_frame(_line(place(name), "Jacq"), [_line(place(header + [0, 45]), "TRAINER")]) is None
    assert text_finder._header_frame(_line(place(name), "Jacq"), [_line(place(header + [0, 70]), "TRAINER")]) is None
    shorter = header.copy()
    shorter[[0, 3], 0] = 0.35 * w  # a header begun right after the name
    assert text_finder._header_frame(_line(place(name), "Jacq"), [_line(place(shorter), "TRAINER")]) is None


def test_a_short_names_leaning_box_is_laid_along_the_header():
    """The detector's box around a short name may lean a few degrees ("Katy": the K's
    strokes, the y's tail); the card's lines run as its longer header does."""
    w = 400.0
    name, header = _trainer_top(w)
    name[1:3, 0] = 0.16 * w  # four letters
    centre = name.mean(axis=0)
    a = np.radians(4)
    lean = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    frame = text_finder._header_frame(_line((name - centre) @ lean.T + centre, "Katy"), [_line(header, "TRAINER")])
    card = np.float32([[0, 0], [w, 0], [w, w / CARD_ASPECT], [0, w / CARD_ASPECT]])
    assert frame is not None and np.abs(frame - card).max() < 0.02 * w / CARD_ASPECT


def test_a_subtitle_beside_a_trainers_title_says_which_printing_it_is():
    cards = [("Professor's Research", "swsh1-178"), ("Professor's Research (Professor Sada)", "sv1-189"),
             ("Professor's Research (Professor Turo)", "sv1-190"), ("Professor's Research (Professor Oak)", "x-1")]
    finder = text_finder.TextFinder(NameMatcher(cards), None, lambda name: set())
    name, header = _trainer_top(400.0)
    name[1:3, 0] = 0.66 * 400
    beside = np.float32([[0.71, 0.088], [0.94, 0.088], [0.94, 0.12], [0.71, 0.12]]) * [400, 400 / CARD_ASPECT]
    title = _line(name, "Professor's Research")

    def named(*subtitles: str) -> str | None:
        lines = [title, _line(header, "TRAINER"), *(_line(beside, text) for text in subtitles)]
        card = finder._titled(title, lines, [], lines[1:2], ())
        return card and card.match.name

    assert named("Professor Sada") == "Professor's Research (Professor Sada)"
    assert named("Profesor Turo") == "Professor's Research (Professor Turo)"
    assert named() is None  # the title alone reads as all four
    assert named("Professor") is None  # as near to every subtitle


def test_the_header_words_are_read_loosely():
    assert is_header("TRAINER") and is_header("TRAlNER") and is_header("ENERGY") and is_header("Trainer.")
    assert not is_header("Energy Switch") and not is_header("Rare Candy") and not is_header("Supporter")


def test_under_a_trainers_header_only_a_name_that_prints_no_hp_is_a_title():
    cards = [("Jacq", "sv1-175"), ("Pikachu", "sv4pt5-131"), ("Rare Candy", "sv1-191"), ("Iono", "pal-185"),
             ("Iono", "pal-254"), ("Mew", "sv3pt5-151"), ("Ekans", "sv3pt5-23"), ("Ekans", "xy-1")]
    printed = {"Pikachu": {60}, "Mew": {60}}
    finder = text_finder.TextFinder(NameMatcher(cards), None, lambda name: printed.get(name, set()))
    name, header = _trainer_top(400.0)

    def titled(text: str, confidence: float = 0.99) -> str | None:
        card = finder._titled(_line(name, text, confidence), [], [], [_line(header, "TRAINER")], ())
        return card and card.match.name

    assert titled("Rare Candy") == "Rare Candy"
    assert titled("Pikachu") is None  # a Pokémon's name: a line of the card's text
    # Four letters fit some name by chance, but read surely as one Trainer's name under its
    # header they name it; read unsure, or spelling a Pokémon's, they do not.
    assert titled("Jacq") == "Jacq"
    assert titled("Iono") == "Iono"  # two printings: the name without an id
    assert titled("Jacq", 0.6) is None
    assert titled("Mew") is None
    assert titled("Jacq") and finder._titled(_line(name, "Jacq"), [], [], [], ()) is None  # no header: no title


def test_a_guess_from_a_part_of_a_photos_card_gives_way_to_the_card_its_title_finds(monkeypatch):
    """A photo's card cut off at its edges, outlined as a part and read as junk that names
    a Pokémon: named only just, that guess explains nothing, and the card found by its
    title takes its place; named surely, it explains its frame, unless it is a close-up
    (an outline 0.4 of the picture tall or more), which is searched by its titles anyway."""
    from vision.card_reading import CardReading
    from vision.names import ACCEPT

    recognizer = Recognizer(NameMatcher([*NAMES, ("Jacq", "sv1-175")]), hit_points_of=lambda n: set())
    photo = scaled(filling_photo(render_proxy("Jacq", seed=6, kind="trainer"), seed=3), 600)
    card = photo.cards[0].quad
    part = card.mean(axis=0) + (card - card.mean(axis=0)) * 0.3  # 0.3 of the photo tall
    guess = [CardReading(part, 0, "Pikachu", "sv4pt5-131", ACCEPT + 0.05)]
    monkeypatch.setattr(Recognizer, "_outlined", lambda self, frame, hint: guess)
    assert _named(recognizer.recognize(photo.image)) == ["Jacq"]
    guess[0] = replace(guess[0], confidence=0.9)  # sure: the frame is explained, and not searched
    assert _named(recognizer.recognize(photo.image)) == ["Pikachu"]
    guess[0] = replace(guess[0], quad=card)  # a close-up
    assert _named(recognizer.recognize(photo.image)) == ["Jacq"]
    guess[0] = replace(guess[0], name="Jacq", card_id="sv1-175")  # the title agrees: the outline stays
    (reading,) = recognizer.recognize(photo.image)
    assert reading.name == "Jacq" and np.array_equal(reading.quad, card)


@pytest.mark.parametrize("height", [1080, 400])
@pytest.mark.parametrize("held", [False, True], ids=["edges cut off", "held in a hand"])
@pytest.mark.parametrize("name", ["Rare Candy", "Jacq"])
def test_a_trainer_filling_a_phone_photo_is_named_from_its_name_and_header(held, height, name):
    cards = [*NAMES, ("Jacq", "sv1-175")]
    recognizer = Recognizer(NameMatcher(cards), hit_points_of=lambda n: set() if n in (*TRAINERS, "Jacq") else {60})
    face = render_proxy(name, seed=6, kind="trainer")
    photo = scaled(filling_photo(face, seed=3, held=held), height)
    readings = recognizer.recognize(photo.image)
    assert _named(readings) == [name]
    found = next(r for r in readings if r.name)
    truth = photo.cards[0].quad
    assert np.linalg.norm(found.quad.mean(axis=0) - truth.mean(axis=0)) < 0.08 * card_height(truth)
    assert abs(card_height(found.quad) / card_height(truth) - 1) < 0.1
    assert found.rotation == 0


def test_a_frame_is_unexplained_when_few_of_its_outlines_are_named():
    assert unexplained([])
    assert unexplained([None, None])
    assert unexplained(["Pikachu", None, None])
    assert not unexplained(["Pikachu", "Ralts", None])
    assert not unexplained(["Pikachu"] * 9 + [None])


def test_an_outline_on_a_card_found_by_text_gives_way_to_it():
    card = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    picture = np.float32([[10, 15], [90, 15], [90, 65], [10, 65]])
    elsewhere = card + 500
    named_card = card + 1000
    found = [text_finder.TextCard(card, None), text_finder.TextCard(named_card, None)]
    kept, new = merged([named_card], [picture, elsewhere], found)
    assert kept == [1] and [c.quad.tolist() for c in new] == [card.tolist()]


def test_without_deck_lists_the_hp_beside_a_title_parts_a_name_from_its_suffixed_twin():
    cards = [("Krookodile", "sv1-117"), ("Krookodile ex", "xx-1"), ("Krookodile-EX", "bw5-1"),
             ("Pikachu", "sv4pt5-131")]
    matcher = NameMatcher(cards)
    assert matcher.decide(matcher.match(["Krookodile"])).name is None  # the title alone cannot
    printed = {"Krookodile": {140, 170}, "Krookodile ex": {310}, "Krookodile-EX": {180}, "Pikachu": {60}}
    finder = text_finder.TextFinder(matcher, reader=None, hit_points_of=lambda name: printed[name])
    assert finder._by_hit_points("Krookodile", "170").name == "Krookodile"
    assert finder._by_hit_points("Krookodile", "310").name == "Krookodile ex"
    assert finder._by_hit_points("Krookodile", "180").name == "Krookodile-EX"
    assert finder._by_hit_points("Krookodile", "120") is None  # neither is printed so
    assert finder._by_hit_points("Krookodlle", "60") is None  # Pikachu's HP, another name
    assert text_finder.TextFinder(matcher, reader=None)._by_hit_points("Krookodile", "170") is None


def test_a_title_found_beside_an_hp_mark_is_checked_by_it_as_an_outlined_one_is():
    # A blurred line beside an HP mark that names a Trainer only just: the mark says the
    # card is a Pokémon (a Trainer prints none), and a Pokémon named only just must be
    # printed with the figure beside its title.
    cards = [("Penny", "sv1-183"), ("Riolu", "sv1-113"), ("Skwovet", "sv1-151")]
    matcher = NameMatcher(cards, deck=cards, hit_points={"Riolu": {70}, "Skwovet": {60}})
    finder = text_finder.TextFinder(matcher, reader=None)
    strip = np.float32([[0, 0], [100, 0], [100, 12], [0, 12]])

    def named(text: str, at: int, runner_up: str, digits: str) -> str | None:
        glyphs = list(Glyph.of_text(text))
        glyphs[at] = Glyph({text[at].lower(): 1.0, runner_up: 20.0}, True)  # blurred: only just
        return finder._name(text_finder._Line(strip, LineRead(text, 0.5, tuple(glyphs))), digits, ()).name

    assert named("Pcnmy", 1, "e", "70") is None
    assert named("Rnolv", 4, "u", "60") is None
    assert named("Rnolv", 4, "u", "70") == "Riolu"


def test_the_recognize_command_gives_vision_the_hp_a_name_is_printed_with():
    from assistant.catalog import default_catalog
    from table_assistant.recognize_command import Candidates, candidate_names

    card = next(c for c in default_catalog().embedded if c.hp is not None)
    assert card.hp in candidate_names([], io.StringIO()).printed_hit_points(card.name)
    assert Candidates([]).printed_hit_points(card.name) == set()  # no catalog: nothing known


@pytest.mark.parametrize("height", [1080, 600, 400])
@pytest.mark.parametrize("held", [False, True], ids=["edges cut off", "held in a hand"])
def test_a_card_filling_a_phone_photo_is_named(recognizer, held, height):
    face = render_proxy("Gardevoir ex" if held else "Charmander", seed=4, hp=130)
    photo = scaled(filling_photo(face, seed=2, held=held), height)
    readings = recognizer.recognize(photo.image)
    assert _named(readings) == [face.name]
    found = next(r for r in readings if r.name)
    truth = photo.cards[0].quad
    assert np.linalg.norm(found.quad.mean(axis=0) - truth.mean(axis=0)) < 0.08 * card_height(truth)
    assert abs(card_height(found.quad) / card_height(truth) - 1) < 0.1
    assert found.rotation == 0


def test_a_binder_page_gives_its_nine_cards_and_nothing_else(recognizer):
    faces = [render_proxy(name, seed=k, hp=60 + 10 * k) for k, name in enumerate(BINDER)]
    page = scaled(binder_page(faces, seed=5), 1080)
    readings = recognizer.recognize(page.image)
    assert sorted(r.name or "(not named)" for r in readings) == sorted(BINDER)
    for card in page.cards:
        reading = next(r for r in readings if r.name == card.name)
        assert np.linalg.norm(reading.quad.mean(axis=0) - card.quad.mean(axis=0)) < 0.1 * card.height_px


def test_a_small_card_on_a_table_frame_is_read_again_upscaled(monkeypatch):
    """A 150 px card, upside down and a little blurred, on a 1920×1080 table: the outline
    finder finds it but its title reads nothing; its surroundings upscaled name it."""
    import vision.card_reading

    # Without the learned reader's whole-row look at the outline's title (which names it).
    monkeypatch.setattr(vision.card_reading, "LEARNED_SIMILARITY", float("inf"))
    deck = NameMatcher(NAMES, NAMES)
    name, card_id = "Kirlia", "sv1-85"
    style = replace(CLEAN, height_range=(150, 150), blur=(0.5, 0.8), noise=(1, 3), sleeves=0.5,
                    glare=0.3, max_tilt_deg=12, jitter_deg=20)
    scene = compose(generated_mat((1920, 1080), 19), [render_proxy(name, card_id, kind(name), seed=19)],
                    style, seed=19)
    assert _named(Recognizer(deck, by_text=False).recognize(scene.image)) == []
    readings = Recognizer(deck).recognize(scene.image)
    assert _named(readings) == [name]
    assert readings[0].rotation == scene.cards[0].rotation
