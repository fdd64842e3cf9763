"""Printings of one Trainer told apart by the subtitle at the right end of the title line:
Professor's Research (Professor Sada) and (Professor Turo) read alike by their titles."""

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from vision import pp_ocr, ties
from vision.names import NameMatcher, subtitle
from vision.ocr import LineRead, title_band
from vision.recognize import Recognizer
from vision.synthetic import FONT_DIRS, render_proxy
from vision.ties import SUBTITLE_CORNER, by_subtitle, read_subtitle

needs_pp_ocr = pytest.mark.skipif(not pp_ocr.available(), reason="PP-OCR (rapidocr) is not installed")

SADA = "Professor's Research (Professor Sada)"
TURO = "Professor's Research (Professor Turo)"
PROFESSORS = [(SADA, "sv1-189"), (TURO, "sv1-190"), ("Professor's Research (Professor Oak)", "swsh1-178"),
              ("Professor's Research (Professor Magnolia)", "swsh4-60"), ("Skwovet", "sv1-151")]


def test_a_subtitle_is_the_bracketed_end_of_a_name():
    assert subtitle(SADA) == "Professor Sada"
    assert subtitle("Pokégear 3.0") == subtitle("Rotom V") == ""


def test_the_subtitle_read_settles_a_title_that_reads_as_several_printings():
    m = NameMatcher(PROFESSORS, deck=PROFESSORS)
    tie = m.match(["Professor's Research"])
    assert m.decide(tie).name is None and m.subtitle_may_tell(tie)
    assert not m.hit_points_may_tell(tie)  # Trainers print no HP
    assert m.decide(m.by_subtitle(tie, "Professor Sada")).name == SADA
    assert m.decide(m.by_subtitle(tie, "Prolessor Turo")).name == TURO  # read small, a letter off
    assert m.decide(m.by_subtitle(tie, "nProfessorSada")).name == SADA
    settled = m.by_subtitle(tie, "Professor Sada")
    assert settled.card_id == "sv1-189" and not settled.rivals


def test_a_subtitle_read_that_fits_no_printing_better_leaves_the_card_unsure():
    m = NameMatcher(PROFESSORS, deck=PROFESSORS)
    tie = m.match(["Professor's Research"])
    for read in ("", "Professor", "1", "Trainer"):
        assert m.decide(m.by_subtitle(tie, read)).name is None, read


def test_only_names_that_differ_by_their_subtitle_alone_are_settled_by_it():
    rotom = [("Rotom", "sv1-69"), ("Rotom V", "swsh11-58")]
    m = NameMatcher(rotom, deck=rotom, hit_points={"Rotom": {60}, "Rotom V": {190}})
    assert not m.subtitle_may_tell(m.match(["Rotom"]))
    # A name without a subtitle among the rivals: its printing cannot be read there.
    mixed = [(SADA, "sv1-189"), ("Professor's Research", "swsh1-178")]
    m = NameMatcher(mixed, deck=mixed)
    tie = m.match(["Professor's Research"])
    assert tie.rivals and not m.subtitle_may_tell(tie)
    assert m.by_subtitle(tie, "Professor Sada") == tie


def _research(subtitle_text: str) -> np.ndarray:
    """A Supporter proxy titled "Professor's Research" as a real one is printed: the title
    from the left edge to about two thirds across, ``subtitle_text`` in small print at
    the right end of the title line, in italics."""
    face = render_proxy("Skwovet", kind="trainer", seed=2).image[:, :, :3].copy()
    h, w = face.shape[:2]
    panel = face[int(0.125 * h), int(0.5 * w)].tolist()
    image = Image.fromarray(face)
    draw = ImageDraw.Draw(image)
    draw.rectangle((int(0.04 * w), int(0.07 * h), int(0.96 * w), int(0.125 * h)), fill=tuple(panel))
    draw.text((int(0.05 * w), int(0.115 * h)), "Professor's Research", fill=(25, 25, 25), anchor="ls",
              font=ImageFont.load_default(int(0.036 * h)))
    draw.text((int(0.94 * w), int(0.113 * h)), subtitle_text, fill=(60, 60, 60), anchor="rs",
              font=ImageFont.truetype(str(FONT_DIRS[0] / "DejaVuSans-Oblique.ttf"), int(0.02 * h)))
    return np.asarray(image).copy()


def _quad(face: np.ndarray, margin: int = 0) -> np.ndarray:
    h, w = face.shape[:2]
    return np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]) + np.float32(margin)


@needs_pp_ocr
def test_the_subtitle_corner_holds_the_small_print():
    face = _research("Professor Sada")
    band = title_band(face, _quad(face))
    assert "Sada" in read_subtitle(pp_ocr.PPOCR(), band).text
    assert SUBTITLE_CORNER[0] > 0.5  # right of the title, which it must not take in


@needs_pp_ocr
@pytest.mark.parametrize(("printed", "name"), [("Professor Sada", SADA), ("Professor Turo", TURO)])
def test_a_professors_research_is_named_by_its_subtitle(printed, name):
    face = cv2.copyMakeBorder(_research(printed), 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(60, 90, 60))
    matcher = NameMatcher(PROFESSORS, deck=PROFESSORS)
    reading = Recognizer(matcher, engine=pp_ocr.PPOCR(), by_text=False).read(face, _quad(_research(printed), 40))
    assert reading is not None and reading.name == name
    assert reading.card_id == dict(PROFESSORS)[name]


@needs_pp_ocr
@pytest.mark.parametrize(("printed", "name"), [("Professor Sada", SADA), ("Professor Turo", TURO)])
def test_a_subtitle_an_outline_a_few_pixels_off_moves_out_of_its_corner_is_found_in_the_title_row(printed, name):
    face = _research(printed)
    framed = cv2.copyMakeBorder(face, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(60, 90, 60))
    # The outline's top edge 3% of the card's height inside the card, as the finder's are at times.
    band = title_band(framed, _quad(face, 40) + np.float32([0, 0.03 * face.shape[0]]))
    matcher = NameMatcher(PROFESSORS, deck=PROFESSORS)
    tie = matcher.match(["Professor's Research"])
    engine = pp_ocr.PPOCR()
    assert matcher.decide(matcher.by_subtitle(tie, read_subtitle(engine, band))).name is None  # not in the corner
    settled = by_subtitle(matcher, tie, engine, band)
    assert matcher.decide(settled).name == name and settled.card_id == dict(PROFESSORS)[name]


class _Reads:
    """A line reader that reads the given texts, one a call."""

    def __init__(self, *texts: str) -> None:
        self.texts = list(texts)

    def read_line(self, image: np.ndarray, either_way: bool = True) -> LineRead:
        return LineRead(self.texts.pop(0), 1.0)


def test_lines_of_the_title_row_that_name_two_printings_leave_the_card_unsure(monkeypatch):
    matcher = NameMatcher(PROFESSORS, deck=PROFESSORS)
    tie = matcher.match(["Professor's Research"])
    band = np.zeros((120, 430, 3), np.uint8)
    monkeypatch.setattr(ties, "subtitle_lines", lambda band: [band[:20], band[20:40], band[40:60]])
    # The corner unread; the row's lines: the banner, then both printings' subtitles.
    assert matcher.decide(by_subtitle(matcher, tie, _Reads("", "TRAINER", "Professor Sada", "Professor Turo"),
                                      band)).name is None
    # The corner unread; one line names a printing, the others none.
    settled = by_subtitle(matcher, tie, _Reads("", "TRAINER", "Professor Turo", "earch"), band)
    assert matcher.decide(settled).name == TURO
    # The corner read settles it: the row is not searched.
    assert matcher.decide(by_subtitle(matcher, tie, _Reads("Professor Sada"), band)).name == SADA
