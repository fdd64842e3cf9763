"""Read a card's title with Tesseract.

The title band is straightened at a fixed scale (bicubic, so a 250 px card's 12 px title
is upsampled to Tesseract's size), the rows with the most dark strokes are found in both
polarities, the run of letter-sized blobs in each gives the title line's box, and each
plausible line is cropped tightly, binarised and read as a single line.
Tesseract runs in-process through tesserocr; pytesseract (the command-line
program) is the fallback when tesserocr cannot load.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import CARD_ASPECT, region_quad

# Tesseract's OpenMP threads fight over the two cores with everything else; one thread
# per call is faster overall and keeps the machine responsive.
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

#: The band (x0, y0, x1, y1, card fractions) holding every layout's title: Pokémon names
#: near the top, Trainer and Energy names a little lower, with room for a sleeve's margin
#: or an outline a few percent off.
TITLE_BAND = (0.0, 0.0, 1.0, 0.18)
#: Card height (px) the band is straightened at: capitals come out ~27 px tall, the size
#: Tesseract reads best, whatever the card's size in the frame.
BAND_CARD_PX = 600
#: Height of a title's capitals, as a fraction of the card's height (SV layouts).
CAP = 0.045
#: Lowest top (card fraction) a title line may have: below it is the artwork.
LINE_TOP_MAX = 0.14

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
    """The straightened title band (BGR) of the card at printed-order ``quad``, upsampled
    (bicubic) so the title's capitals are ~27 px tall."""
    x0, y0, x1, y1 = TITLE_BAND
    region = region_quad(quad, x0, y0, x1, y1)
    w = max(1, int(round((x1 - x0) * BAND_CARD_PX * CARD_ASPECT)))
    h = max(1, int(round((y1 - y0) * BAND_CARD_PX)))
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(region.astype(np.float32), dst)
    return cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REPLICATE)


Line = tuple[int, int, int, int, bool]  # x0, y0, x1, y1, light text on dark


def _ink(band: np.ndarray, light: bool) -> np.ndarray:
    """One channel where the text of one polarity is dark on light: black text is darkest
    in the brightest channel of a coloured bar, white text brightest in the darkest."""
    if band.ndim == 2:
        return 255 - band if light else band
    return 255 - band.min(axis=2) if light else band.max(axis=2)


def _row_peaks(ink: np.ndarray, cap: int, count: int = 5) -> list[int]:
    """Tops of the rows (``cap`` tall) with the most dark strokes in the name's columns."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (cap // 2 | 1, cap // 2 | 1))
    strokes = np.minimum(cv2.morphologyEx(ink, cv2.MORPH_BLACKHAT, kernel), 60)
    w = ink.shape[1]
    profile = strokes[:, int(0.12 * w):int(0.55 * w)].sum(axis=1, dtype=np.float64)
    window = np.convolve(profile, np.ones(cap), "valid")[:int(LINE_TOP_MAX * BAND_CARD_PX)]
    peaks: list[int] = []
    window = window.copy()
    for _ in range(count):
        if window.size == 0 or window.max() <= 0:
            break
        y = int(np.argmax(window))
        peaks.append(y)
        window[max(0, y - int(0.6 * cap)):y + int(0.6 * cap) + 1] = 0
    return peaks


def _strokes(ink: np.ndarray, cap: int) -> np.ndarray:
    """Dark strokes thinner than half a capital (letters), without the long straight
    edges of the name bar and the card's frame that would glue letters together."""
    binary = cv2.adaptiveThreshold(ink, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                   cv2.THRESH_BINARY_INV, int(cap * 1.5) | 1, 10)
    return binary


def _letters(ink: np.ndarray, top: int, cap: int, light: bool) -> tuple[float, Line] | None:
    """The widest run of letter-sized blobs in the row starting near ``top``: its box in
    band pixels and a score (the letters' total width)."""
    h, w = ink.shape
    pad = int(0.4 * cap)
    ya, yb = max(0, top - pad), min(h, top + cap + pad)
    row = ink[ya:yb]
    binary = _strokes(row, cap)
    n, _labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    mid = top - ya
    blobs = sorted((tuple(int(v) for v in s[:5]) for s in stats[1:n]
                    if 0.35 * cap <= s[3] <= 1.5 * cap and s[4] >= 0.1 * s[2] * s[3]
                    and s[0] > 0.02 * w and s[0] + s[2] < 0.98 * w  # not the card's edge
                    and s[1] > 0 and s[1] + s[3] < yb - ya  # nor art crossing the row
                    and s[1] < mid + 0.8 * cap and s[1] + s[3] > mid + 0.3 * cap
                    and (s[2] <= 2.5 * cap or (s[3] >= 0.6 * cap and s[2] <= 6 * cap
                                               and s[4] >= 0.25 * s[2] * s[3]))),
                   key=lambda b: b[0])
    groups: list[list[tuple[int, ...]]] = []
    for b in blobs:
        if groups and b[0] - max(x[0] + x[2] for x in groups[-1]) <= 0.9 * cap:
            groups[-1].append(b)
        else:
            groups.append([b])
    # The name starts in the card's left half; "TRAINER" and the HP sit further right.
    groups = [g for g in groups if len(g) >= 2 and g[0][0] < 0.62 * w]
    if not groups:
        return None
    g = max(groups, key=lambda g: sum(b[2] for b in g))
    x0 = max(0, g[0][0] - cap // 4)
    x1 = min(w, max(b[0] + b[2] for b in g) + cap // 4)
    y0 = min(int(np.median([b[1] for b in g])), min(b[1] for b in g) + cap // 3)
    y1 = max(int(np.percentile([b[1] + b[3] for b in g], 80)),
             int(np.median([b[1] + b[3] for b in g])))
    return float(sum(b[2] for b in g)), (x0, ya + y0, x1, ya + y1, light)


def text_lines(band: np.ndarray, max_lines: int = 3) -> list[Line]:
    """The likeliest title lines in a band, best first: rows of letter-sized blobs on a
    common baseline, dark on light or (illustration rares, dark bars) light on dark."""
    cap = int(round(CAP * BAND_CARD_PX))
    found: list[tuple[float, Line]] = []
    for light in (False, True):
        ink = _ink(band, light)
        for top in _row_peaks(ink, cap):
            hit = _letters(ink, top, cap, light)
            if hit is not None and not any(
                    abs(hit[1][1] - f[1][1]) < cap // 2 and f[1][4] == light for f in found):
                found.append(hit)
    found.sort(key=lambda item: -item[0])
    return [line for _, line in found[:max_lines]]


def _clear_border(binary: np.ndarray) -> np.ndarray:
    """Ink blobs touching the crop's edge removed: they are bits of the frame or art."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    h, w = binary.shape
    drop = [i for i in range(1, n) if stats[i][0] == 0 or stats[i][1] == 0
            or stats[i][0] + stats[i][2] >= w or stats[i][1] + stats[i][3] >= h]
    if drop:
        binary[np.isin(labels, drop)] = 0
    return binary


def prepare_line(band: np.ndarray, line: Line) -> np.ndarray:
    """Crop a line tightly (Tesseract misreads a line with art above or below it),
    binarise with Otsu (dark text on white), drop edge blobs, add a white margin."""
    x0, y0, x1, y1, light = line
    cap = CAP * BAND_CARD_PX
    pad = max(2, int(0.12 * cap))
    ink = _ink(band, light)
    crop = ink[max(0, y0 - pad):y1 + pad + int(0.2 * cap), x0:x1]
    _, binary = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    binary = 255 - _clear_border(binary)
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
