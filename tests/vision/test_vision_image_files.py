"""Bad input to ``recognize``: each file gets one clear line saying why, exit code 2, no
traceback, and the huge image is refused from its header, before any decoding."""

from __future__ import annotations

import io
import json
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.image_files
from table_assistant.recognize_command import recognize
from vision.image_files import MAX_PIXELS, ImageError, image_paths, read_image


def _png_header_only(path: Path, width: int, height: int) -> None:
    """A PNG whose header claims ``width`` × ``height`` but whose data is one short
    chunk: what a forged or cut-off huge image looks like, without making 432 MB."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                     + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b""))


def _photo(path: Path, width: int = 400, height: int = 300) -> Path:
    rng = np.random.default_rng(0)
    image = cv2.GaussianBlur(rng.integers(0, 255, (height, width, 3), np.uint8), (9, 9), 3)
    cv2.imwrite(str(path), image)
    return path


def _bad_input(kind: str, tmp_path: Path) -> Path:
    if kind == "not an image":
        path = tmp_path / "notes.jpg"
        path.write_text("this is a shopping list, not a photo\n")
    elif kind == "truncated JPEG":
        whole = _photo(tmp_path / "whole.jpg", 640, 480).read_bytes()
        path = tmp_path / "cut.jpg"
        path.write_bytes(whole[: len(whole) // 2])
    elif kind == "1x1":
        path = tmp_path / "dot.png"
        cv2.imwrite(str(path), np.zeros((1, 1, 3), np.uint8))
    elif kind == "12000x12000":
        path = tmp_path / "huge.png"
        _png_header_only(path, 12000, 12000)
    else:
        path = tmp_path / "empty"
        path.mkdir()
    return path


CASES = {"not an image": "not an image", "truncated JPEG": "truncated JPEG", "1x1": "too small",
         "12000x12000": "too large", "empty folder": "no images"}


@pytest.mark.parametrize("kind", CASES)
def test_bad_input_gets_one_clear_line_and_exit_2(kind, tmp_path):
    path = _bad_input(kind, tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert recognize([str(path)], [], True, out, err) == 2
    lines = err.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert str(path) in lines[0] and CASES[kind] in lines[0]
    assert "Traceback" not in err.getvalue() and out.getvalue() == ""


def test_a_bad_input_loses_nothing_else(tmp_path):
    """The readable images around a bad one are still read, in order."""
    good = _photo(tmp_path / "table.png")
    bad = _bad_input("truncated JPEG", tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert recognize([str(good), str(bad), str(good)], [], True, out, err) == 2
    assert [json.loads(line)["image"] for line in out.getvalue().splitlines()] == [str(good)] * 2
    assert "truncated" in err.getvalue()


def test_a_huge_image_is_refused_before_it_is_decoded(tmp_path, monkeypatch):
    path = tmp_path / "huge.png"
    _png_header_only(path, 12000, 12000)
    decoded = []
    monkeypatch.setattr(vision.image_files.cv2, "imdecode", lambda *a: decoded.append(a))
    with pytest.raises(ImageError, match="12000×12000"):
        read_image(str(path))
    assert decoded == []
    assert 12000 * 12000 > MAX_PIXELS >= 8000 * 6000  # a 48 MP phone photo still passes


def test_a_folder_stands_for_its_images_in_name_order(tmp_path):
    for name in ("b.jpg", "a.PNG", "notes.txt"):
        (tmp_path / name).write_bytes(b"")
    assert image_paths([str(tmp_path)]) == [(str(tmp_path / "a.PNG"), None), (str(tmp_path / "b.jpg"), None)]


def test_a_sound_image_reads_as_bgr(tmp_path):
    path = _photo(tmp_path / "ok.png", 120, 90)
    assert read_image(str(path)).shape == (90, 120, 3)


def test_a_name_too_long_for_the_system_is_an_error_not_a_traceback(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    assert recognize([str(tmp_path / ("n" * 5000 + ".jpg"))], [], True, out, err) == 2
    assert "too long" in err.getvalue() and len(err.getvalue().splitlines()) == 1
