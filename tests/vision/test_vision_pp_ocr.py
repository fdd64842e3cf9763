"""PP-OCR's recognizer as a second line reader (``recognize --ocr pp-ocr``)."""

from __future__ import annotations

import io
import json
import socket
from importlib import resources

import cv2
import numpy as np
import pytest
from vision_scenes import NAMES, scene

from table_assistant.cli import build_parser
from table_assistant.recognize_command import recognize
from vision import pp_ocr
from vision.names import NameMatcher
from vision.recognize import line_reader

pytestmark = pytest.mark.skipif(not pp_ocr.available(), reason="rapidocr/onnxruntime not installed")


def _line(text: str) -> np.ndarray:
    image = np.full((60, 30 + 26 * len(text)), 255, np.uint8)
    cv2.putText(image, text, (12, 44), cv2.FONT_HERSHEY_DUPLEX, 1.2, 0, 2, cv2.LINE_AA)
    return image


def test_the_model_ships_in_the_package_and_loads_offline(monkeypatch):
    assert (resources.files("rapidocr") / "models" / pp_ocr.MODEL).is_file()

    def no_network(*args, **kwargs):
        raise AssertionError("PP-OCR tried to reach the network")

    monkeypatch.setattr(socket, "socket", no_network)
    pp_ocr._model.cache_clear()
    assert pp_ocr.PPOCR().read_line(_line("Pikachu")).text == "Pikachu"


def test_it_reads_light_letters_on_dark_as_they_are():
    assert line_reader("pp-ocr").read_line(255 - _line("Dondozo")).text == "Dondozo"


def test_ctc_decoding_collapses_runs_and_keeps_runners_up():
    characters = ["", "a", "o", "z", " "]
    steps = np.array([
        [0.0, 0.9, 0.1, 0.0, 0.0],  # a
        [0.0, 0.9, 0.1, 0.0, 0.0],  # a again: the same letter, one glyph
        [1.0, 0.0, 0.0, 0.0, 0.0],  # blank: a double letter may follow
        [0.0, 0.6, 0.0, 0.4, 0.0],  # a, with z close behind
    ])
    read = pp_ocr.decode(steps, characters)
    assert read.text == "aa" and len(read.glyphs) == 2
    first, second = read.glyphs
    assert first.choices["a"] == 1.0 and second.choices["a"] == 1.0
    assert 1.0 < second.choices["z"] < first.choices["o"]  # a closer runner-up costs less


def test_a_deck_name_is_matched_on_its_glyphs():
    read = pp_ocr.PPOCR().read_line(_line("Dondozo"))
    assert len(read.glyphs) == len("Dondozo") and all(g.letter for g in read.glyphs)
    deck = [("Dondozo", "pal-61"), ("Tatsugiri", "pal-60")]
    assert NameMatcher(NAMES + deck, deck).match([read]).name == "Dondozo"


def test_recognize_names_a_table_with_pp_ocr(tmp_path):
    from assistant.catalog import default_catalog

    sc = scene(default_catalog().all_names()[:6], 11)  # Tesseract names 4 of its 6 cards
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), sc.image)
    out = io.StringIO()
    assert recognize([str(path)], [], True, out, io.StringIO(), ocr="pp-ocr") == 0
    named = [card["name"] for card in json.loads(out.getvalue())["cards"] if card["name"]]
    assert len(named) >= 4 and set(named) <= {c.name for c in sc.cards}


def test_the_command_line_takes_ocr_and_refuses_an_unknown_reader(capsys):
    assert build_parser().parse_args(["recognize", "a.jpg", "--ocr", "pp-ocr"]).ocr == "pp-ocr"
    assert build_parser().parse_args(["recognize", "a.jpg"]).ocr == "tesseract"
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["recognize", "a.jpg", "--ocr", "easyocr"])
    assert exit_.value.code == 2 and "--ocr" in capsys.readouterr().err
