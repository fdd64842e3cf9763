"""Read a card's title with Tesseract.

The top fifth of the card (its *band*) is straightened at a fixed scale (bicubic, so a
250 px card's 12 px title is upsampled to the ~27 px capitals Tesseract reads best).
Titles sit at known places of the layout: a Pokémon's name in the top row between the
stage tag and the HP, a Trainer's a little lower under its "Item"/"Supporter" tag. Each
of those *windows* is searched for its row of letter-sized dark strokes; the row is
cropped tightly, everything that is not one of its letters is painted white (Tesseract
misreads a line with a bit of art or the stage tag's swoosh at its end), and it is read
as a raw line (no layout analysis: the crop already is the line). A fixed crop of the
Pokémon row backs the search up when blur glues the letters to the frame. The reads
come lazily, likeliest first, so a caller that is satisfied early (a clear deck match)
pays for one or two OCR calls only.

Tesseract reads a line inverted too when it is unsure of it, unless told the line is
dark on light; only lines that look light on dark (a white title on a dark bar) get that
second chance. Tesseract runs in-process through tesserocr; pytesseract (the
command-line program) is the fallback when tesserocr cannot load.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from vision.blur import padded_for_dft
from vision.geometry import warp_region

# Tesseract's OpenMP threads fight over the two cores with everything else; one thread
# per call is faster overall and keeps the machine responsive.
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

#: The band (x0, y0, x1, y1, card fractions) holding every layout's title, with room for
#: a sleeve's margin or an outline a few percent off.
TITLE_BAND = (0.0, 0.0, 1.0, 0.2)
#: Card height (px) the band is straightened at: capitals come out ~27 px tall.
BAND_CARD_PX = 600
#: Height of a title's capitals, as a fraction of the card's height (SV layouts).
CAP = 0.045
#: A row of strokes is weighed by its letters' width, in full for a letter at least this
#: share of ``CAP`` high (a title's lower-case letters are ~0.65 of it, its capitals and
#: ascenders ~0.9), in proportion below: the small print under a Pokémon's title ("Evolves
#: from ...", ~0.45 of a capital), which blur or a 600 px band glues into one long blob,
#: otherwise outweighed the title, which was then read late or not at all (a holdout
#: Hypno at 330-440 px, where this was found). Whole frames, Tesseract: tune seed 2, ten
#: conditions, 8 more cards named, as many wrong; holdout, every condition, 2,264 ->
#: 2,269 named, one wrong more (5 -> 6; PP-OCR 2,326 -> 2,331, 4 wrong). 0.7 was set from
#: the letters' heights, not tuned.
TITLE_LETTER = 0.7

#: Where to search for a title line (card fractions x0, y0, x1, y1): the Pokémon row
#: (right of the stage tag, left of the HP) and the Trainer row (under "Supporter").
WINDOWS = {"pokemon": (0.08, 0.0, 0.70, 0.14), "trainer": (0.02, 0.07, 0.82, 0.20)}
#: The Trainer row is read first only when it holds this many times the letters of the
#: Pokémon row. On a Pokémon card the Trainer window's row is the top of the art, often
#: with more dark strokes than the title itself (tune split, the finder's outlines: the
#: first read missed a title the other row held on 24 of 203 cards when the row with
#: more letters went first, 10 with this rule; holdout 30 -> 6 of 202).
TRAINER_LETTERS = 3.0
#: A fixed crop of the Pokémon row, read when the search's crops do not name the card
#: (the fourth read: it named 39 of the 85 cards it was read for, tune and holdout
#: splits, true outlines). A second one from 0.14 (room for a Basic's short tag) named no
#: card this one missed and cost 8 ms more on an unreadable end; from 0.17 or 0.22 alone,
#: 1-2 cards fewer. The Trainer row has none: its crop named 2 of the 65 cards it was
#: read for and cost a wide read (~8 ms) on every unreadable end; without it (and with
#: one read fewer per end) the finder's outlines named the same cards on both splits
#: with 10% fewer OCR calls.
FIXED_POKEMON = (0.20, 0.03, 0.62, 0.09)

#: A title row lies on a dark bar, its title printed white, when the 40th percentile of
#: its fixed crop's brightness (``FIXED_POKEMON``, the brightest channel) is under this
#: share of its 97th (the white letters): relative, as a frame's lighting lifts and flattens
#: both. Tune split scans: the Darkness Pokémon's bars (Bisharp, Maschiff, Kingambit,
#: Mabosstiff, Bombirdier, Toxicroak ex) 0.23-0.31, every other card 0.49 (Spidops ex,
#: Dondozo) and up; Mabosstiff in a 330-440 px frame 0.31, 0.41 from an outline 3% low.
DARK_BAR = 0.45
#: On a dark bar the light-text search offers this many rows, first of all. An outline a
#: few percent too high brings the pale strip between the border and the bar into the
#: Pokémon window, and a blurred "Evolves from" line glues into one long light blob: either
#: holds more letter width than the white title (tune split, 200-260 px, the finder's
#: outlines: Maschiff and Toxicroak ex, read by their true outlines, read as nothing). With
#: two rows, ``bench.vision.conditions --readers tesseract``, whole frames: tune seed 2
#: (motion blur, zone outlines) the same 520 named; holdout, every condition, 2,254 ->
#: 2,258 of 2,625, no name wrong or lost. (Also taking a row where ``find_lines`` finds
#: none, its fullest capital-high band lying between two rows, named 5 fewer on tune seed
#: 2, and one wrong more on the holdout: more rows read crowd the ones that name out of
#: the budget.)
LIGHT_ROWS = 2

#: Blur undone before a third read (Wiener deconvolution of a Gaussian blur of this
#: sigma, in band pixels: a 230 px card's band is upsampled 2.6×, so about 1.2 frame
#: pixels there) and the noise-to-signal ratio that keeps it from amplifying noise.
DEBLUR_SIGMA, DEBLUR_NOISE = 3.0, 0.01

#: A line image whose text box is more than this share dark may be light letters on dark
#: (``may_be_light``). Tesseract reads only those either way up: on both splits (the
#: finder's outlines, 12 frames per height band) the same ends were named as reading
#: every line either way, with 15% less OCR time; a share of 0.5 lost 2 ends per split.
#: (Where inverting changed a naming, it was the fixed crop's read 12 times in 14; yet
#: inverting that crop only named 1 holdout and 2 tune cards fewer at 260-330 px.)
LIGHT_SHARE = 0.4

#: Tesseract's inverted second try is made only for a read less sure than this. At 0.5
#: rather than Tesseract's 0.7, reads cost ~5% less (600 holdout lines, 5 texts changed)
#: and the same cards were named with deck lists on both splits (12 frames per height
#: band); without deck lists one wrong name fewer (tune, 330-440 px). At 0.4: 8% less,
#: but one holdout card fewer named at 200-260 px.
INVERT_BELOW = 0.5

_TESSDATA = ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
             "/usr/share/tessdata")


@dataclass(frozen=True)
class Glyph:
    """One character of a read with the runners-up Tesseract weighed for it: lower-cased
    letter or digit → cost (about 1 for a clear first choice, 20-60 for the others; a
    letter it did not consider at all is costlier still). A title misread as "Dondoro"
    usually still lists "z" behind the "r", which is what lets a deck list's name win."""

    choices: dict[str, float]
    letter: bool  # its first choice is a letter (not a mark such as "|", nor a digit)

    @staticmethod
    def of_text(text: str) -> tuple[Glyph, ...]:
        """Glyphs of a plain text read (no runners-up known), e.g. from pytesseract."""
        return tuple(Glyph({ch.lower(): 1.0}, ch.isalpha()) for ch in text if not ch.isspace())


@dataclass(frozen=True)
class LineRead:
    text: str
    confidence: float  # Tesseract's mean word confidence, 0..1
    glyphs: tuple[Glyph, ...] = ()


class LineReader(Protocol):
    """What reads a line of a card: :class:`Tesseract`, or PP-OCR's learned recognizer
    (``vision.pp_ocr``). ``backend`` names it in figures."""

    backend: str

    def read_line(self, image: np.ndarray, either_way: bool = True) -> LineRead: ...


class Tesseract:
    """One Tesseract engine reading single lines of text. Not thread-safe: use one per
    thread (tesserocr releases the GIL while it recognises, so two threads use two cores)."""

    def __init__(self) -> None:
        self._api = None
        self.backend = "pytesseract"
        try:
            import tesserocr

            path = next((p for p in _TESSDATA if Path(p, "eng.traineddata").exists()), None)
            kwargs = {"path": path + "/"} if path else {}
            # A raw line: Tesseract's own line finding, run on a crop that already is the
            # line, lost letters (tune split: 4-6 points more cards named without it).
            self._api = tesserocr.PyTessBaseAPI(lang="eng", psm=tesserocr.PSM.RAW_LINE,
                                                oem=tesserocr.OEM.LSTM_ONLY, **kwargs)
            # Keep each character's runners-up: see Glyph. They cost ~0.85 ms of a ~4.7 ms
            # call (1,700 holdout lines, interleaved). Fewer of Tesseract's cascading
            # searches for them (lstm_choice_iterations 3 or 2, not 5) save 0.25-0.4 ms
            # but named one holdout card fewer at 200-260 px.
            self._api.SetVariable("lstm_choice_mode", "2")
            # A line that may be light on dark is read inverted too when its first read's
            # confidence is under this (Tesseract's default is 0.7).
            self._api.SetVariable("invert_threshold", str(INVERT_BELOW))
            self._either_way = True  # Tesseract's default: it tries unsure lines inverted
            self._word = tesserocr.RIL.WORD
            self._iterate = tesserocr.iterate_level
            self.backend = "tesserocr"
        except Exception:  # noqa: BLE001 - any load failure means: use the fallback
            self._api = None

    def read_line(self, image: np.ndarray, either_way: bool = True) -> LineRead:
        """Text of a single-line grey image (BGR is made grey): dark text on white, or,
        when ``either_way``, perhaps light text on dark. Tesseract then reads a line it
        is unsure of inverted too, which costs ~35% more time per column of the line."""
        if self._api is not None:
            if image.ndim == 3:
                image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
            image = np.ascontiguousarray(image, dtype=np.uint8)
            height, width = image.shape[:2]
            if either_way != self._either_way:
                self._api.SetVariable("tessedit_do_invert", "1" if either_way else "0")
                self._either_way = either_way
            # Raw bytes: handing over a PIL image costs a BMP encoding per call.
            self._api.SetImageBytes(image.tobytes(), width, height, 1, width)
            text = self._api.GetUTF8Text()
            conf = self._api.MeanTextConf() / 100.0
            return LineRead(text.strip(), max(0.0, conf), self._glyphs())
        import pytesseract

        config = "--psm 13 --oem 1" + ("" if either_way else " -c tessedit_do_invert=0")
        data = pytesseract.image_to_data(image, lang="eng", config=config,
                                         output_type=pytesseract.Output.DICT)
        words = [w for w in data["text"] if w.strip()]
        confs = [float(c) for c, w in zip(data["conf"], data["text"], strict=False)
                 if w.strip() and float(c) >= 0]
        text = " ".join(words)
        return LineRead(text, (sum(confs) / len(confs) / 100.0) if confs else 0.0, Glyph.of_text(text))

    def _glyphs(self) -> tuple[Glyph, ...]:
        """The last recognised line's characters with their runners-up."""
        glyphs = []
        for word in self._iterate(self._api.GetIterator(), self._word):
            if word.Empty(self._word):
                continue
            for alternatives in word.GetBestLSTMSymbolChoices() or ():
                choices: dict[str, float] = {}
                for symbol, cost in alternatives:
                    key = symbol.lower()
                    if key.isalnum() and cost < choices.get(key, float("inf")):
                        choices[key] = cost
                letter = bool(alternatives) and alternatives[0][0].isalpha()
                glyphs.append(Glyph(choices, letter))
        return tuple(glyphs)


def title_band(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The straightened title band (BGR) of the card at printed-order ``quad``, at
    ``BAND_CARD_PX`` card height (bicubic)."""
    return warp_region(frame, quad, TITLE_BAND, BAND_CARD_PX, cv2.INTER_CUBIC)


def brightest_channel(band: np.ndarray) -> np.ndarray:
    """A band as a grey image where black text on any light colour is darkest: the
    brightest channel (a red bar is bright in red, the letters in none)."""
    if band.ndim == 2:
        return band
    blue, green, red = cv2.split(band)  # numpy's max over the last axis is 50x slower
    return cv2.max(cv2.max(blue, green), red)


def percentile(values: np.ndarray, q: float, where: np.ndarray | None = None) -> float:
    """``np.percentile(values[where], q)`` of uint8 ``values`` (all of them without
    ``where``, a boolean mask of their shape), from their histogram: a title window's
    ~30,000 pixels are counted ~8x faster than numpy sorts them (a frame's reads take
    ~130 percentiles; numpy's were 7% of the reading's CPU), and a mask costs no copy."""
    mask = None if where is None else where.view(np.uint8)
    counts = np.cumsum(cv2.calcHist([np.ascontiguousarray(values)], [0], mask, [256], (0, 256)).ravel())
    total = int(counts[-1])
    at = q / 100.0 * (total - 1)
    below = int(at)
    # The k-th smallest value (from 0) is the first whose running count exceeds k.
    low, high = (float(v) for v in np.searchsorted(counts, (below + 1, min(below + 2, total))))
    step = at - below  # numpy's way of interpolating, to the last bit
    return high - (high - low) * (1.0 - step) if step >= 0.5 else low + (high - low) * step


def band_box(grey: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The card-fraction ``box`` of a title band (``title_band``), grey
    (:func:`brightest_channel`) or in colour."""
    bh, bw = grey.shape[:2]
    bx0, by0, bx1, by1 = TITLE_BAND
    x0 = int((box[0] - bx0) / (bx1 - bx0) * bw)
    x1 = int((box[2] - bx0) / (bx1 - bx0) * bw)
    y0 = int((box[1] - by0) / (by1 - by0) * bh)
    y1 = int((box[3] - by0) / (by1 - by0) * bh)
    return grey[max(0, y0):y1, max(0, x0):x1]


class Line:
    """A title line found in a window: how many pixels of letters it holds (how
    title-like it is) and its image ready for Tesseract, cut out when first asked for
    (most cards are named before a window's other lines are read)."""

    def __init__(self, letters: int, cut: Callable[[], np.ndarray]) -> None:
        self.letters = letters
        self._cut = cut

    @functools.cached_property
    def image(self) -> np.ndarray:
        return self._cut()


def find_lines(grey: np.ndarray, light: bool = False, rows: int = 1) -> list[Line]:
    """Up to ``rows`` rows of letter-sized strokes in a window, the row with the most
    letters first (letters shorter than a title's weigh less: ``TITLE_LETTER``), each
    cropped and cleaned: its letters kept in grey (contrast stretched), everything else
    white.

    Strokes are what a black-hat (closing minus image) lifts: dark marks narrower than
    a capital. A 4 px opening removes the thin swoosh of the stage tag and art edges,
    which would otherwise join the first letter. ``light`` reads light text on a dark bar.
    The art's top edge under a Trainer's title can make a longer row than the title
    itself, which is why a caller may want the second row too.
    """
    cap = CAP * BAND_CARD_PX
    src = 255 - grey if light else grey
    k = int(cap * 0.6) | 1
    hat = cv2.morphologyEx(src, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    strokes = (hat > max(20.0, percentile(hat, 97) * 0.35)).astype(np.uint8)
    mask = cv2.morphologyEx(strokes, cv2.MORPH_OPEN, np.ones((4, 4), np.uint8))
    # 16-bit labels (a window holds far fewer than 65,536 strokes): with 32-bit ones
    # OpenCV takes ~2x longer over the stats.
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=cv2.CV_16U)
    h, w = grey.shape
    x, y, bw, bh, area = stats.T
    inside = (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h)  # not cut by the window's edge
    letter_like = (0.4 * cap <= bh) & (bh <= 1.6 * cap) & (area >= 0.12 * bw * bh)
    # Blur glues a word's letters into one blob: wide is fine if it is letter-high.
    glued_word = (bh <= 1.4 * cap) & (bw <= 12 * cap) & (area >= 0.25 * bw * bh)
    keep = inside & letter_like & ((bw <= 3 * cap) | glued_word)
    keep[0] = False  # the background
    letters = [(*(int(v) for v in stats[i, :4]), int(i)) for i in np.flatnonzero(keep)]
    lines = []
    while letters and len(lines) < rows:
        profile = np.zeros(h)
        for _x, y, bw, bh, _ in letters:
            profile[y:y + bh] += bw * min(1.0, bh / (TITLE_LETTER * cap))
        centre = int(np.argmax(np.convolve(profile, np.ones(int(cap)), "valid"))) + cap / 2
        row = sorted(b for b in letters if b[1] <= centre <= b[1] + b[3])
        if not row:
            break
        letters = [b for b in letters if b not in row]
        words = _title_words(row, cap)
        lines.append(Line(sum(b[2] for b in words),
                          functools.partial(_line_image, src, strokes, labels, words, cap)))
    return lines


def _title_words(row: list[tuple[int, int, int, int, int]], cap: float
                 ) -> list[tuple[int, int, int, int, int]]:
    """The strokes of a row (x-sorted boxes) that make its widest run of words: words of
    one title are less than a capital apart, the HP or a tag further away."""
    groups = [[row[0]]]
    for b in row[1:]:
        if b[0] - max(c[0] + c[2] for c in groups[-1]) <= cap:
            groups[-1].append(b)
        else:
            groups.append([b])
    return max(groups, key=lambda g: sum(c[2] for c in g))


def _line_image(src: np.ndarray, strokes: np.ndarray, labels: np.ndarray,
                group: list[tuple[int, int, int, int, int]], cap: float) -> np.ndarray:
    """The line of letter boxes ``group`` cropped from ``src``: its strokes contrast
    stretched, the rest white, a white margin around."""
    x0, x1 = min(b[0] for b in group), max(b[0] + b[2] for b in group)
    y0, y1 = min(b[1] for b in group), max(b[1] + b[3] for b in group)
    window = labels[y0:y1, x0:x1]  # holds every label of the group: they make its box
    is_ours = np.zeros(int(window.max()) + 1, bool)
    is_ours[[b[4] for b in group]] = True
    ours = is_ours[window]
    pixels = src[y0:y1, x0:x1]
    crop = pixels.astype(np.float32)
    # The opening found the letters; thin ones it removed (an "i" of a light font) are
    # still strokes inside the line's box, so those are kept too.
    near = cv2.dilate(strokes[y0:y1, x0:x1] | ours, np.ones((3, 3), np.uint8)) > 0
    lo = percentile(pixels, 10, ours)
    hi = percentile(pixels, 60, ~near) if (~near).any() else float(crop.max())
    out = np.clip((crop - lo) / max(1.0, hi - lo) * 255, 0, 255)
    out[~near] = 255
    pad = int(0.3 * cap)
    return cv2.copyMakeBorder(out.astype(np.uint8), pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                              value=255)


def _stretched(grey: np.ndarray) -> np.ndarray:
    """A fixed crop with its contrast stretched. No white margin: with one, Tesseract
    read clear titles on a light grey bar as nothing ("Penny", "Team Star Grunt"; tune
    split: 2-2.5 points more cards named without it), likely because its threshold then
    fell between the white and the grey."""
    lo, hi = percentile(grey, 3), percentile(grey, 97)
    return np.clip((grey.astype(np.float32) - lo) / (hi - lo + 1) * 255, 0, 255).astype(np.uint8)


def deblurred(grey: np.ndarray) -> np.ndarray:
    """``grey`` with a Gaussian blur of ``DEBLUR_SIGMA`` undone (Wiener deconvolution)."""
    pad = int(3 * DEBLUR_SIGMA) + 2
    h, w = grey.shape
    image = padded_for_dft(grey.astype(np.float32), pad)
    height, width = image.shape
    # The spectrum packed as OpenCV keeps a real image's (half of it, "CCS"): ~5x faster
    # than the full complex one, and the gain, real and even, multiplies it in place.
    spectrum = cv2.dft(image)
    sharp = cv2.idft(cv2.multiply(spectrum, _wiener_gain(height, width)),
                     flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)
    return np.clip(sharp[pad:pad + h, pad:pad + w], 0, 255).astype(np.uint8)


@functools.cache
def _wiener_gain(height: int, width: int) -> np.ndarray:
    """The gain undoing the blur, per element of a ``height`` × ``width`` spectrum packed
    as ``cv2.dft`` packs a real image's. Packed column c holds horizontal frequency
    (c + 1) // 2 (a real and an imaginary part side by side); the first column, and the
    last of an even width, hold their vertical frequencies packed the same way, the
    other columns one per row. The gain is even in both, so signs do not matter."""
    packed_x = np.fft.fftfreq(width)[(np.arange(width) + 1) // 2]
    plain_y = np.fft.fftfreq(height)
    packed_y = plain_y[(np.arange(height) + 1) // 2]
    packed_column = np.zeros(width, bool)
    packed_column[0] = True
    packed_column[-1] = width % 2 == 0
    fy = np.where(packed_column[None, :], packed_y[:, None], plain_y[:, None])
    blur = np.exp(-2 * (np.pi * DEBLUR_SIGMA) ** 2 * (packed_x[None, :] ** 2 + fy ** 2))
    return (blur / (blur ** 2 + DEBLUR_NOISE)).astype(np.float32)


def _rows(grey: np.ndarray, rows: int = 2) -> tuple[dict[str, list[Line]], tuple[str, str]]:
    """Up to ``rows`` rows found in each window, and the windows in reading order (the
    Pokémon row first, unless the Trainer row is far longer)."""
    found = {kind: find_lines(band_box(grey, box), rows=rows) for kind, box in WINDOWS.items()}
    letters = {kind: found[kind][0].letters if found[kind] else 0 for kind in WINDOWS}
    trainer_first = letters["trainer"] > TRAINER_LETTERS * letters["pokemon"]
    return found, ("trainer", "pokemon") if trainer_first else ("pokemon", "trainer")


def title_images(band: np.ndarray) -> Iterator[np.ndarray]:
    """Single-line images that may hold the title, likeliest first: the row found in each
    window, then the likeliest row of the band with its blur undone, then the fixed
    Pokémon crop, then each window's second row, then light text (first of all, and
    ``LIGHT_ROWS`` rows of it, on a dark title bar: ``dark_title_bar``)."""
    grey = brightest_channel(band)  # once per band: every window and crop below is cut from it
    # A dark title bar (a Darkness Pokémon's) prints its title white: the dark-stroke
    # search finds only the gaps and the stage badge there, so the light line goes first.
    light_first = dark_title_bar(grey)
    if light_first:
        yield from (line.image for line in find_lines(band_box(grey, WINDOWS["pokemon"]), light=True,
                                                      rows=LIGHT_ROWS))
    found, order = _rows(grey)
    for kind in order:
        if found[kind]:
            yield found[kind][0].image
    # Third: the blur of a 200-260 px card's title is often what keeps every other read
    # from naming it (tune split, true outlines, at most 7 reads: 309 -> 316 of 343 cards
    # named, no more OCR calls in all; read last, as an eighth, it named 2 more for 4.5%
    # more calls).
    sharp, sharp_order = _rows(deblurred(grey), rows=1)
    if lines := next((sharp[kind] for kind in sharp_order if sharp[kind]), None):
        yield lines[0].image
    yield _stretched(band_box(grey, FIXED_POKEMON))
    # After the fixed crop: a second row is seldom the title (tune split, true outlines:
    # 2 more of 345 cards named, 1% more OCR calls; holdout 3 of 215).
    for kind in order:
        if len(found[kind]) > 1:
            yield found[kind][1].image
    for kind in order:
        if not (light_first and kind == "pokemon"):
            yield from (line.image for line in find_lines(band_box(grey, WINDOWS[kind]), light=True))


def dark_title_bar(grey: np.ndarray) -> bool:
    """Whether a grey band's (:func:`brightest_channel`) Pokémon title row lies on a dark bar (see
    ``DARK_BAR``)."""
    row = band_box(grey, FIXED_POKEMON)
    return bool(row.size) and percentile(row, 40) < DARK_BAR * percentile(row, 97)


def may_be_light(line: np.ndarray) -> bool:
    """Whether a line image may hold light letters on a dark box, and is worth reading
    either way up (see ``Tesseract.read_line``): more than ``LIGHT_SHARE`` of its text box
    (inside the white margin) is dark. A white title on a dark bar comes out that way
    from the dark-stroke search, which lifts the gaps between its letters, and from the
    fixed crop; so does a dark title from the light-text search."""
    text = line < 255
    rows, cols = np.flatnonzero(text.any(axis=1)), np.flatnonzero(text.any(axis=0))
    if not len(rows):
        return False
    box = line[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    return float(np.count_nonzero(box < 128)) > LIGHT_SHARE * box.size


_NOISE = re.compile(r"\b(?:HP|Hp|hp)\b|\S*\d\S*")


def clean(text: str) -> str:
    """OCR text without the HP figure and stray digits, spaces normalised."""
    return " ".join(_NOISE.sub(" ", text).split())


def title_reads(engine: LineReader, band: np.ndarray) -> Iterator[LineRead]:
    """OCR of :func:`title_images` one by one, text cleaned. Every OCR call yields a read,
    an empty one too, so a caller can budget calls."""
    for image in title_images(band):
        read = engine.read_line(image, may_be_light(image))
        yield LineRead(clean(read.text), read.confidence, read.glyphs)


#: white title on a dark bar faded by blur past ``DARK_BAR``, letters glued by blur).
TITLE_ROW = (0.08, 0.015, 0.70, 0.095)


def title_row_reads(engine: LineReader, band: np.ndarray) -> Iterator[LineRead]:
    """A title band's ``TITLE_ROW`` read as it is, then deblurred (``deblurred``); not
    ``clean``ed, which drops a word glued to a stray digit ("0Blissey")."""
    row = band_box(band, TITLE_ROW)
    if row.size:
        yield engine.read_line(row)
        yield engine.read_line(deblurred(brightest_channel(row)))


def read_title(engine: LineReader, frame: np.ndarray, quad: np.ndarray,
               max_lines: int = 3) -> list[LineRead]:
    """OCR of the ``max_lines`` likeliest title lines of the card at ``quad`` that hold
    some text."""
    reads = []
    for read in title_reads(engine, title_band(frame, quad)):
        if len(read.text) >= 2:
            reads.append(read)
        if len(reads) >= max_lines:
            break
    return reads
