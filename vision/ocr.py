"""Read a card's title with Tesseract.

The title band is straightened at a fixed scale, the text lines in it are found from
dark connected components, and each plausible line is cropped, binarised and read as a
single line. Tesseract runs in-process through tesserocr; pytesseract (the command-line
program) is the fallback when tesserocr cannot load.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import warp_region

# Tesseract's OpenMP threads fight over the two cores with everything else; one thread
# per call is faster overall and keeps the machine responsive.
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

#: The band (x0, y0, x1, y1, card fractions) holding every layout's title: Pokémon names
#: near the top, Trainer and Energy names a little lower.
TITLE_BAND = (0.03, 0.015, 0.97, 0.145)
#: Card height (px) the band is straightened at: text comes out ~30 px tall.
BAND_CARD_PX = 760
LINE_HEIGHT = 40

_TESSDATA = ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
             "/usr/share/tessdata")


@dataclass(frozen=True)
class LineRead:
    text: str
    confidence: float  # Tesseract's mean word confidence, 0..1


class Tesseract:
    """One Tesseract engine reading single lines of text."""

    def __init__(self) -> None:
        self._api = None
        self.backend = "pytesseract"
        try:
            import tesserocr

            path = next((p for p in _TESSDATA if Path(p, "eng.traineddata").exists()), None)
            kwargs = {"path": path + "/"} if path else {}
            self._api = tesserocr.PyTessBaseAPI(lang="eng", psm=tesserocr.PSM.SINGLE_LINE,
                                                oem=tesserocr.OEM.LSTM_ONLY, **kwargs)
            self.backend = "tesserocr"
        except Exception:  # noqa: BLE001 - any load failure means: use the fallback
            self._api = None

    def read_line(self, image: np.ndarray) -> LineRead:
        """Text of a binarised single-line image (dark text on white)."""
        if self._api is not None:
            from PIL import Image

            self._api.SetImage(Image.fromarray(image))
            text = self._api.GetUTF8Text()
            conf = self._api.MeanTextConf() / 100.0
            return LineRead(text.strip(), max(0.0, conf))
        import pytesseract

        data = pytesseract.image_to_data(image, lang="eng", config="--psm 7 --oem 1",
                                         output_type=pytesseract.Output.DICT)
        words = [w for w in data["text"] if w.strip()]
        confs = [float(c) for c, w in zip(data["conf"], data["text"], strict=False)
                 if w.strip() and float(c) >= 0]
        return LineRead(" ".join(words), (sum(confs) / len(confs) / 100.0) if confs else 0.0)


def title_band(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The straightened title band (BGR) of the card at printed-order ``quad``."""
    return warp_region(frame, quad, TITLE_BAND, BAND_CARD_PX)


Line = tuple[int, int, int, int, bool]  # x0, y0, x1, y1, light text on dark


def _letter_rows(gray: np.ndarray, light: bool) -> list[tuple[float, Line]]:
    """Rows of letter-shaped blobs of one polarity, with a score."""
    binary = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                   cv2.THRESH_BINARY if light else cv2.THRESH_BINARY_INV,
                                   31, -12 if light else 12)
    n, _labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    lo, hi = 0.018 * BAND_CARD_PX, 0.06 * BAND_CARD_PX
    blobs = [tuple(int(v) for v in stats[i][:5]) for i in range(1, n)
             if lo <= stats[i][3] <= hi and 0.12 * stats[i][3] <= stats[i][2] <= 2.5 * stats[i][3]
             and stats[i][4] >= 0.15 * stats[i][2] * stats[i][3]]
    blobs.sort(key=lambda b: b[1] + b[3])
    rows: list[list[tuple[int, ...]]] = []
    for b in blobs:
        base = b[1] + b[3]
        for row in rows:
            rb = np.median([x[1] + x[3] for x in row])
            rh = np.median([x[3] for x in row])
            if abs(base - rb) < 0.25 * rh and 0.6 * rh <= b[3] <= 1.6 * rh:
                row.append(b)
                break
        else:
            rows.append([b])
    out = []
    for row in rows:
        if len(row) < 3:
            continue
        row.sort(key=lambda b: b[0])
        # Split the row where a gap is wider than three letter heights: the name and the
        # HP figure are one baseline apart but far apart.
        rh = float(np.median([b[3] for b in row]))
        groups, current = [], [row[0]]
        for b in row[1:]:
            prev = current[-1]
            if b[0] - (prev[0] + prev[2]) > 3.0 * rh:
                groups.append(current)
                current = [b]
            else:
                current.append(b)
        groups.append(current)
        for g in groups:
            if len(g) < 3:
                continue
            x0 = min(b[0] for b in g)
            y0 = min(b[1] for b in g)
            x1 = max(b[0] + b[2] for b in g)
            y1 = max(b[1] + b[3] for b in g)
            out.append((len(g) * rh, (x0, y0, x1, y1, light)))
    return out


def text_lines(band: np.ndarray, max_lines: int = 3) -> list[Line]:
    """The likeliest title lines in a band, best first: rows of letter-sized blobs on a
    common baseline, dark on light or (Darkness-type cards, full arts) light on dark."""
    dark = band.max(axis=2) if band.ndim == 3 else band
    light = band.min(axis=2) if band.ndim == 3 else band
    rows = _letter_rows(dark, False) + _letter_rows(light, True)
    rows.sort(key=lambda item: -item[0])
    return [line for _, line in rows[:max_lines]]


def prepare_line(band: np.ndarray, line: Line) -> np.ndarray:
    """Crop a line, scale it to Tesseract's favourite size, binarise (dark on white)."""
    x0, y0, x1, y1, light = line
    pad = max(4, (y1 - y0) // 3)
    h, w = band.shape[:2]
    crop = band[max(0, y0 - pad):min(h, y1 + pad), max(0, x0 - pad):min(w, x1 + pad)]
    gray = (255 - crop.min(axis=2) if light else crop.max(axis=2)) if crop.ndim == 3 else 255 - crop if light else crop
    scale = LINE_HEIGHT / max(1, (y1 - y0))
    gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    _, binary = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return cv2.copyMakeBorder(binary, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=255)


_NOISE = re.compile(r"\b(?:HP|Hp|hp)\b|\S*\d\S*")


def clean(text: str) -> str:
    """OCR text without the HP figure and stray digits, spaces normalised."""
    return " ".join(_NOISE.sub(" ", text).split())


def read_title(engine: Tesseract, frame: np.ndarray, quad: np.ndarray,
               max_lines: int = 3) -> list[LineRead]:
    """OCR of the likeliest title lines of the card at ``quad``."""
    band = title_band(frame, quad)
    reads = []
    for line in text_lines(band, max_lines):
        read = engine.read_line(prepare_line(band, line))
        text = clean(read.text)
        if len(text) >= 2:
            reads.append(LineRead(text, read.confidence))
    return reads
