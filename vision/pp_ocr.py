"""A learned line reader beside Tesseract: PP-OCR's text recognizer through onnxruntime.

The model (PP-OCRv6 "small" recognition, ~21 MB) ships inside the ``rapidocr`` wheel and
is loaded from there: nothing is downloaded at run time. Only the recognizer is used:
the lines it reads are the ones ``vision.ocr`` has already found and cropped for
Tesseract, so the two readers are measured on the same crops (``bench/vision/readers.py``).

The network reads a line image 48 px tall and emits, for every few columns, a
probability for each of ~18,700 characters and a *blank*; a run of one character
between blanks is one letter (CTC decoding). Card text is Latin, so only Latin
characters are allowed (the rest of the alphabet is Chinese and Japanese, which a
blurred Latin letter can look like). For each letter the runners-up it weighed become
a :class:`~vision.ocr.Glyph`'s choices on Tesseract's cost scale, so a deck list's name
can win over a near miss exactly as with Tesseract (see ``vision.names``).
"""

from __future__ import annotations

import math
from functools import cache
from importlib import resources

import cv2
import numpy as np

from vision.ocr import Glyph, LineRead, LineReader

#: The recognizer's input height, and the least width a line is padded to. PP-OCR pads
#: every line to 320 px; the network takes any width, and unpadded title lines (~100-250
#: px at this height) read the same text about 4x faster (tune split, 16 lines).
LINE_HEIGHT, MIN_WIDTH = 48, 48
#: Characters a card's text uses: printable ASCII and the accented letters of names
#: (Flabébé, Pokémon). Everything else the model knows is never chosen.
LATIN = "".join(chr(c) for c in range(33, 127)) + "éÉèàâêôûçñüöäÀ’"
#: A runner-up this many times less likely than the first choice costs this much more
#: (per factor of e): Tesseract's runners-up cost 20-60 against ~1 (``Glyph``), which a
#: ratio of 10 to 1,000 gives here.
COST_PER_NEPER = 8.0
#: Runners-up kept per letter, and the least probability one needs to be kept.
RUNNERS_UP, LEAST_SHARE = 5, 1e-4
MODEL = "PP-OCRv6_rec_small.onnx"


def wheel_session(model: str) -> object:
    """An onnxruntime session of ``model``, a file the rapidocr wheel ships, on one thread
    (the frame's cards are already read on both cores). ImportError when it is not
    installed."""
    import onnxruntime as ort

    path = resources.files("rapidocr") / "models" / model
    if not path.is_file():
        raise ImportError(f"PP-OCR's model {model} is not in the installed rapidocr package")
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


@cache
def _model() -> tuple[object, np.ndarray, list[str]]:
    """The recognizer's session, the model's output columns that are allowed (blank,
    Latin, space), and their characters ("" for blank)."""
    session = wheel_session(MODEL)
    alphabet = ["", *session.get_modelmeta().custom_metadata_map["character"].splitlines(), " "]
    allowed = [i for i, ch in enumerate(alphabet) if i == 0 or ch == " " or (len(ch) == 1 and ch in LATIN)]
    return session, np.array(allowed), [alphabet[i] for i in allowed]


@cache
def available() -> bool:
    """Whether the model and its runtime are installed."""
    try:
        _model()
    except (ImportError, KeyError):
        return False
    return True


def learned_or(fallback: LineReader) -> LineReader:
    """PP-OCR's reader where it is installed, else ``fallback``: for the small print that
    it reads far better than Tesseract whichever reads the titles (``bench/vision/readers.py``,
    holdout split: the HP figure 93-97% against 58-85%; the collector number, which
    Tesseract reads on no card). The model is loaded once per process and its session
    may be shared by threads."""
    return PPOCR() if available() else fallback


def _input(image: np.ndarray) -> np.ndarray:
    """A line image as the network's input: BGR, 48 px tall, scaled to -1..1, padded with
    0 (mid grey, as PP-OCR pads) to at least ``MIN_WIDTH``."""
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    height, width = image.shape[:2]
    scaled_width = max(1, math.ceil(LINE_HEIGHT * width / max(1, height)))
    resized = cv2.resize(image, (scaled_width, LINE_HEIGHT)).astype(np.float32)
    out = np.zeros((1, 3, LINE_HEIGHT, max(MIN_WIDTH, scaled_width)), np.float32)
    out[0, :, :, :scaled_width] = resized.transpose(2, 0, 1) / 127.5 - 1.0
    return out


def decode(probabilities: np.ndarray, characters: list[str]) -> LineRead:
    """CTC decoding of ``probabilities`` (steps × allowed characters, blank first): the
    text, the mean probability of its letters as the confidence, and each letter's
    glyph with its runners-up."""
    probabilities = probabilities / probabilities.sum(axis=1, keepdims=True)
    best = probabilities.argmax(axis=1)
    text, sure, glyphs = [], [], []
    previous = 0
    for step, index in enumerate(best):
        if index != 0 and index != previous:
            share = probabilities[step]
            text.append(characters[index])
            sure.append(float(share[index]))
            if characters[index] != " ":
                glyphs.append(_glyph(share, characters, int(index)))
        previous = index
    confidence = float(np.mean(sure)) if sure else 0.0
    return LineRead("".join(text).strip(), confidence, tuple(glyphs))


def _glyph(share: np.ndarray, characters: list[str], first: int) -> Glyph:
    """One letter's choices: its first character costs 1, each runner-up more by how much
    less likely it was."""
    choices: dict[str, float] = {}
    for index in np.argsort(share)[::-1][:RUNNERS_UP + 1]:
        ch = characters[int(index)].lower()
        if not ch.isalnum() or share[index] < LEAST_SHARE:
            continue
        cost = 1.0 + COST_PER_NEPER * math.log(share[first] / share[index])
        choices[ch] = min(cost, choices.get(ch, math.inf))
    return Glyph(choices, characters[first].isalpha())


class PPOCR:
    """PP-OCR's recognizer reading single lines, as :class:`vision.ocr.Tesseract` does
    (the same ``read_line``). One per thread, like Tesseract."""

    backend = "pp-ocr"

    def __init__(self) -> None:
        self._session, self._allowed, self._characters = _model()

    def read_line(self, image: np.ndarray, either_way: bool = True) -> LineRead:
        """Text of a single-line image. ``either_way`` is Tesseract's: the network reads
        light letters on dark as they are, so it needs no second try."""
        if image.size == 0:
            return LineRead("", 0.0)
        (out,) = self._session.run(None, {"x": _input(image)})
        return decode(out[0][:, self._allowed], self._characters)
