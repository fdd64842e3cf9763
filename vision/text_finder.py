"""Finding a card from its text, where its outline is weak or absent.

A card's outline is the finder's first clue (``vision.finder``), and in a phone photo it
often fails: the card fills the picture and its edges are cut off, a hand covers a
corner, a binder's pockets outline everything but the cards, a silver border sits on a
beige table. The card's *text* is still there, and a Pokémon's top line is the most
recognisable text it prints: its name in large letters, and at the right end of the
same strip its HP ("HP 120"). Where the two are found together, the card is found:

- PP-OCR's detector (``vision.text_detect``) gives every line of text in the picture;
- the larger lines are read (``vision.pp_ocr``), either way up, and matched to a card
  name (``vision.names``); a name with an HP mark ending its strip is a title;
- the card's frame follows from the strip by the card's printed geometry: the title
  begins ``POKEMON_STRIP.left`` of the card's width in from its left edge, the HP ends
  ``POKEMON_STRIP.right`` of it, and the strip's middle lies ``POKEMON_STRIP.middle`` of
  the height down.
  The width is the strip's span over the share of the width it takes, the height
  follows from the card's shape (63 × 88 mm).

Trainers and special Energy print no HP. What confirms their title is the header word
above it ("TRAINER", "ENERGY", in large italics at the strip's right end): their name
begins ``TRAINER_STRIP.left`` of the width in, below the header, which begins
``TRAINER_STRIP.right`` of the width in (``_header_frame``). A name with neither mark,
nothing to confirm it is a title, may be any line that mentions a card.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz

from vision import pp_ocr, text_detect
from vision.geometry import CARD_ASPECT, card_height, overlap
from vision.hit_points import single_figure
from vision.names import NameMatch, NameMatcher, normalise
from vision.ocr import LineRead, LineReader, clean
from vision.text_detect import TextBox, detect, line_image


@dataclass(frozen=True)
class Strip:
    """Where a card's title lies, as fractions of the card's width and height: its box
    begins ``left`` of the width in, the mark that confirms it (a Pokémon's HP, a
    Trainer's header word) reaches ``right`` of the width in (the HP's box ends there,
    the header's begins), and the title's middle lies ``middle`` of the height down."""

    left: float
    right: float
    middle: float


#: A Pokémon's top strip, from PP-OCR's boxes around the title and the HP of 23 Pokémon of
#: the tune split (sv1 scans): the title's box begins at 0.182 ± 0.003 of the width, the
#: HP's box ends at 0.889 ± 0.022 (0.96 when the type symbol joins the box), and their
#: middle is 0.059 ± 0.001 of the height down. Older layouts differ by a few percent:
#: the frame is then that much off, and the name is still right.
POKEMON_STRIP = Strip(0.182, 0.889, 0.059)
#: A Trainer's name and header, from PP-OCR's boxes on the 19 Trainers of the tune split:
#: the name's box begins at 0.052 ± 0.005 of the width, its middle 0.100 ± 0.003 of the
#: height down; "TRAINER" begins at 0.630 ± 0.002 (a special Energy's "ENERGY" at 0.643)
#: and ends at 0.951 ± 0.001, its middle 0.045 ± 0.001 of the height down, 0.68 ± 0.1
#: times as thick as the name. The frame is measured to the header's left end: a photo
#: that cuts the card's edges off cuts its right end off too.
TRAINER_STRIP = Strip(0.052, 0.630, 0.100)
#: How far the header word's middle lies above the name's (a fraction of the card's
#: height, give or take ``RISE_SLACK``), how far past its left end the header may end
#: (a fraction of the width), and how thick it is against the name.
HEADER_RISE, RISE_SLACK, HEADER_RIGHT, HEADER_SIZE = 0.055, 0.03, 0.38, (0.4, 1.2)
#: A header word's box is this many times as long as it is thick (tune split: 5.3 for
#: "ENERGY", 6 for "TRAINER"); a line of rules text is far longer.
HEADER_SHAPE = (3.0, 10.0)
#: Before the lines are read, a box may be a header when its middle lies this many of a
#: line's thicknesses across it (0.8-1.2 on the tune split's Trainers, either way up) and
#: at most ``HEADER_ALONG`` along it (5-9): it is then read too, though the name dwarfs it.
HEADER_ACROSS, HEADER_ALONG = (0.4, 2.5), 16.0
#: The header words, and how closely (0-100) a read must spell one.
HEADER_WORDS, HEADER_SCORE = ("trainer", "energy"), 75.0
#: A subtitle ("Professor Sada") is printed on its title's strip, past its end, this many
#: times as thick as the title (0.57-0.63 on the tune split's two).
SUBTITLE_SIZE = (0.4, 0.9)
#: A title box's thickness is 0.053 ± 0.005 of the card's height: a pairing of a name
#: and a number whose frame makes it thinner or thicker than this range is no title
#: strip (a name in one card's text and a damage figure of another).
TITLE_THICKNESS = (0.025, 0.11)
#: An HP box lies on the title's strip: its middle at most this many title thicknesses
#: off the title's middle line, at most ``HP_GAP`` thicknesses past the title's end
#: ("Muk" ends far from its HP), and it is ``HP_SIZE`` times as thick as the title.
HP_OFF_LINE, HP_GAP, HP_SIZE = 0.6, 14.0, (0.6, 2.0)
#: The HP mark: "HP" and its figure, or the figure alone ("HP" is small print beside
#: a large figure and is often missed); a few stray letters are allowed ("Hr40"). A
#: figure run on from a longer number, or from a word by a hyphen, is none ("swsh7-222", a
#: label's card id); a hyphen alone before it is a misread "HP" ("-130").
_HIT_POINTS = re.compile(r"(?<!\w-)(?<!\d)\d{2,3}(?!\d)")
STRAY_LETTERS = 3
#: A line is read only when no line near it (within ``NEIGHBOURHOOD`` of its
#: thicknesses) is ``THICKER`` times thicker: a title and its HP are the largest print on
#: a card, its rules text half as thick (0.026 of the card's height on our proxies, the
#: title 0.047), and the rules text's last line lies ~0.85 of the card's height below
#: the title, ~30 of its own thicknesses. So a card's many lines of small print are
#: never read.
NEIGHBOURHOOD, THICKER = 36.0, 1.4
#: At most this many lines are read in one search: ~10 ms a read on one core.
MOST_LINES = 60
#: A line read less surely than this as the picture shows it is read upside down too.
SURE_READ = 0.9
#: A card the outline finder found but could not name is searched again on its own,
#: upscaled, when the whole picture seen at ``text_detect.LONG_SIDE`` makes it shorter
#: than ``SMALL_CARD`` px: its title (~0.05 of its height) would be too thin to detect
#: (a 300 px card in a 1920×1080 frame). The search takes in ``AROUND`` times the found
#: outline each way (it may be the card's picture box, just under the title) and sees it
#: so that the outline is ``REGION_CARD`` px tall (its title then ~20 px thick), within
#: ``REGION_SIDE``. At most ``MOST_REGIONS`` searches a frame.
SMALL_CARD, AROUND, REGION_CARD, REGION_SIDE, MOST_REGIONS = 150.0, 2.0, 400.0, (480, 768), 2
#: A read this close (0-100) to a few names, or to names sharing their base, names the
#: one of them printed with the HP read beside it (``TextFinder._by_hit_points``).
FAMILY_SCORE = 90.0
#: Two outlines are one card's when this share of the smaller lies in the larger.
SAME_PLACE = 0.3


def available() -> bool:
    """Whether PP-OCR's detector and recognizer are installed."""
    return text_detect.available() and pp_ocr.available()


@dataclass(frozen=True)
class TextCard:
    """A card found from its title: its frame in printed order (SPEC §2), and its name."""

    quad: np.ndarray
    match: NameMatch


def hit_points_mark(text: str) -> str | None:
    """The HP figure's digits when ``text`` is an HP mark (or a title ending in one),
    else None. The figure is one a card could print, or holds one
    (``vision.hit_points.single_figure``): "900" is 90 with the type symbol's edge read as a
    "0"; "06" (an upside-down read of "90") is no HP."""
    figures = _HIT_POINTS.findall(text)
    if not figures:
        return None
    tail = text[text.rfind(figures[-1]) + len(figures[-1]):]
    if len(re.sub(r"[^A-Za-z]", "", tail)) > STRAY_LETTERS:
        return None
    figure = single_figure(figures[-1])
    return None if figure is None else str(figure)


def title_text(text: str) -> str:
    """A line's text as a title's: ``clean``ed (the HP figure and stray digits dropped),
    but a name glued to the HP figure that ends its line kept ("Koraidonex230": the
    detector gave the title and the HP one box, and ``clean`` drops a word with a digit)."""
    figures = _HIT_POINTS.findall(text)
    if figures and hit_points_mark(text):
        text = text[:text.rfind(figures[-1])]
    return clean(text)


def _likelier(read: LineRead) -> tuple[bool, float]:
    """How a read of a line one way up ranks against its read the other way: an HP mark
    first (upside down, "90" reads "06" and "60" reads "09", surely), then confidence."""
    return hit_points_mark(read.text) is not None, read.confidence


#: Digits as they read upside down.
_TURNED_DIGITS = str.maketrans("0689", "0986")


def _turned_figure(text: str) -> bool:
    """Whether ``text`` is no HP mark but reads as one upside down: the detector may give
    a short box of figures the wrong way round ("06", which turned is "90"), and a read of
    it is sure either way."""
    figure = text.strip()
    return (bool(figure) and set(figure) <= set("0689") and hit_points_mark(figure) is None
            and hit_points_mark(figure[::-1].translate(_TURNED_DIGITS)) is not None)


def _length(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners[1] - corners[0]))


def _thickness(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners[3] - corners[0]))


def _gap(line: np.ndarray, other: np.ndarray, sizes: tuple[float, float] = HP_SIZE) -> float | None:
    """When the box ``other`` lies on the strip of the box ``line`` (corners in reading
    order) as a title's HP would (``sizes`` times as thick, on its middle line), how far
    apart the two are along it, in pixels (negative when they overlap); else None."""
    thickness = _thickness(line)
    if not sizes[0] <= _thickness(other) / thickness <= sizes[1]:
        return None
    along = (line[1] - line[0]) / max(1e-6, _length(line))
    offset = other.mean(axis=0) - line.mean(axis=0)
    if abs(float(along[0] * offset[1] - along[1] * offset[0])) > HP_OFF_LINE * thickness:
        return None
    return abs(float(np.dot(offset, along))) - (_length(line) + _length(other)) / 2


def _within_reach(gap: float, thickness: float) -> bool:
    return -thickness <= gap <= HP_GAP * thickness


def _heads(header: TextBox, name: TextBox) -> bool:
    """Whether ``header`` lies above or below ``name`` where a Trainer's header word would
    lie over its name, either way up (the boxes are not read yet)."""
    thickness = name.thickness
    if not HEADER_SIZE[0] <= header.thickness / thickness <= HEADER_SIZE[1] or not (
            HEADER_SHAPE[0] <= header.length / max(1e-6, header.thickness) <= HEADER_SHAPE[1]):
        return False
    along = (name.corners[1] - name.corners[0]) / max(1e-6, name.length)
    offset = header.corners.mean(axis=0) - name.corners.mean(axis=0)
    across = abs(float(along[0] * offset[1] - along[1] * offset[0]))
    return (HEADER_ACROSS[0] * thickness <= across <= HEADER_ACROSS[1] * thickness
            and abs(float(np.dot(offset, along))) <= HEADER_ALONG * thickness)


def _paired(a: TextBox, b: TextBox) -> bool:
    """Whether ``b`` lies on ``a``'s strip where a title's HP would, either way up (the
    boxes are not read yet)."""
    gap = _gap(a.corners, b.corners)
    return gap is not None and _within_reach(gap, a.thickness)


def _worth_reading(boxes: Sequence[TextBox]) -> list[TextBox]:
    """The lines that may be a title or its HP, thickest first: those with a partner on
    their strip (``_paired``), and those no nearby line dwarfs (a title run into its HP
    is one line, the largest print of its card)."""
    centres = np.array([b.corners.mean(axis=0) for b in boxes]).reshape(-1, 2)
    thick = np.array([b.thickness for b in boxes])
    kept = []
    for i, box in enumerate(boxes):
        near = np.linalg.norm(centres - centres[i], axis=1) < NEIGHBOURHOOD * thick[i]
        if not np.any(thick[near] > THICKER * thick[i]) or any(
                _paired(box, other) or _paired(other, box) or _heads(box, other)
                for j, other in enumerate(boxes) if j != i):
            kept.append(box)
    return sorted(kept, key=lambda b: -b.thickness)[:MOST_LINES]


@dataclass
class _Line:
    corners: np.ndarray  # reading order, this way up
    read: LineRead

    @property
    def thickness(self) -> float:
        return _thickness(self.corners)


def card_frame(title: np.ndarray, strip_end: np.ndarray, strip: Strip = POKEMON_STRIP,
               along: np.ndarray | None = None) -> np.ndarray | None:
    """The card whose title's box is ``title`` (corners in reading order) and whose top
    strip reaches the point ``strip_end`` (the HP box's right end, a Trainer's header's
    left end: ``Strip.right``), in printed order; None when the title's thickness does
    not fit a card of that width. ``along``: the direction the card's lines run, when a
    longer box than the title's gives it better."""
    along = title[1] - title[0] if along is None else along
    along = along / np.linalg.norm(along)
    down = np.array([-along[1], along[0]], dtype=np.float32)  # a right angle clockwise
    start = (title[0] + title[3]) / 2
    span = float(np.dot(strip_end - start, along))
    if span <= 0:
        return None
    width = span / (strip.right - strip.left)
    height = width / CARD_ASPECT
    thickness = _thickness(title)
    if not TITLE_THICKNESS[0] <= thickness / height <= TITLE_THICKNESS[1]:
        return None
    origin = start - along * strip.left * width - down * strip.middle * height
    return np.float32([origin, origin + along * width, origin + along * width + down * height,
                       origin + down * height])


def _strip_end(title: _Line, marks: Iterable[_Line]) -> tuple[np.ndarray, str] | None:
    """The right end of ``title``'s strip and its HP mark's text: its own end when it
    ends in an HP mark, else that of the nearest HP mark past its end on its strip; None
    without one."""
    if hit_points_mark(title.read.text) and title_text(title.read.text):
        return (title.corners[1] + title.corners[2]) / 2, title.read.text
    along = title.corners[1] - title.corners[0]
    best, best_gap = None, np.inf
    for mark in marks:
        ahead = float(np.dot(mark.corners.mean(axis=0) - title.corners.mean(axis=0), along)) > 0
        gap = _gap(title.corners, mark.corners)
        if not ahead or gap is None or not _within_reach(gap, title.thickness):
            continue
        if gap < best_gap:
            ends = ((mark.corners[1] + mark.corners[2]) / 2, (mark.corners[0] + mark.corners[3]) / 2)
            best = max(ends, key=lambda p: float(np.dot(p, along))), mark.read.text
            best_gap = gap
    return best


def is_header(text: str) -> bool:
    """Whether ``text`` is a Trainer's or a special Energy's header word."""
    word = normalise(text).replace(" ", "")
    return any(fuzz.ratio(word, header) >= HEADER_SCORE for header in HEADER_WORDS)


def _header_frame(title: _Line, headers: Iterable[_Line]) -> np.ndarray | None:
    """The Trainer's card whose name is ``title``, from the header word over it: the
    frame its name and the header's left end give (``card_frame``), where the header lies
    over the name as on a Trainer (``HEADER_RISE``) and ends within the card
    (``HEADER_RIGHT``); None without one."""
    title_along = (title.corners[1] - title.corners[0]) / max(1e-6, _length(title.corners))
    best, best_miss = None, RISE_SLACK
    for header in headers:
        if not HEADER_SIZE[0] <= header.thickness / title.thickness <= HEADER_SIZE[1]:
            continue
        along = (header.corners[1] - header.corners[0]) / max(1e-6, _length(header.corners))
        if float(np.dot(title_along, along)) < 0.95:  # not the same way up
            continue
        # A short name's box may lean a few degrees ("Katy"): the lines run as the longer box does.
        if _length(title.corners) > _length(header.corners):
            along = title_along
        begins = (header.corners[0] + header.corners[3]) / 2
        frame = card_frame(title.corners, begins, TRAINER_STRIP, along)
        if frame is None:
            continue
        width, height = _length(frame), _thickness(frame)
        down = (frame[3] - frame[0]) / height
        rise = float(np.dot(title.corners.mean(axis=0) - header.corners.mean(axis=0), down)) / height
        runs = float(np.dot((header.corners[1] + header.corners[2]) / 2 - begins, along)) / width
        miss = abs(rise - HEADER_RISE)
        if miss < best_miss and runs <= HEADER_RIGHT:
            best, best_miss = frame, miss
    return best


class TextFinder:
    """Finds the cards of a picture from their titles (see the module's doc)."""

    def __init__(self, matcher: NameMatcher, reader: LineReader,
                 hit_points_of: Callable[[str], Collection[int]] | None = None) -> None:
        """``hit_points_of``: the HP a name is printed with, in any printing (asked only
        for the few names of a title's family, see ``_by_hit_points``)."""
        self.matcher, self.reader, self.hit_points_of = matcher, reader, hit_points_of

    def _read(self, image: np.ndarray, box: TextBox) -> _Line:
        """The line of ``box`` read as the picture shows it, and upside down when that
        read is unsure (a card turned over on the table) or may be a figure upside down
        (``_turned_figure``); the surer read, but an HP mark first: "90" with the type
        symbol beside it read unsure, and upside down "06" sure (tune split photos:
        Medicham, Mankey)."""
        line = _Line(box.corners, self.reader.read_line(line_image(image, box.corners), False))
        if line.read.confidence < SURE_READ or _turned_figure(line.read.text):
            turned = np.roll(box.corners, 2, axis=0)
            other = _Line(turned, self.reader.read_line(line_image(image, turned), False))
            if _likelier(other.read) > _likelier(line.read):
                return other
        return line

    def _name(self, line: _Line, digits: str | None, hint: tuple[str, ...]) -> NameMatch:
        read = LineRead(title_text(line.read.text), line.read.confidence, line.read.glyphs)
        match = self.matcher.match([read], hint)
        if digits and self.matcher.hit_points_may_tell(match):
            match = self.matcher.by_hit_points(match, digits)
        if digits:  # the HP mark beside the title checks a name only just sure, as on an outline
            match = self.matcher.refuted_by_hit_points(match, digits)
        decided = self.matcher.decide(match)
        if decided.name is None and digits and self.matcher.deck is None:
            return self._by_hit_points(read.text, digits) or decided
        return decided

    def _by_hit_points(self, text: str, digits: str) -> NameMatch | None:
        """Without deck lists, a title read well that fits a family of names, alike but
        for a suffix printed as a logo (Krookodile, Krookodile-EX, Krookodile ex) or a
        letter or two (Pawmo, Pawmot), is the one of them printed with the HP ``digits``.
        The matcher cannot part them by the title alone; the text search has the HP mark
        beside it."""
        if self.hit_points_of is None:
            return None
        pool = self.matcher.all
        close = [(i, score) for i, score in pool.top(normalise(text)) if score >= FAMILY_SCORE]
        if not close:
            return None
        bases = {pool.bases[i] for i, _ in close}
        family = {pool.names[i] for i, _ in close} | {
            name for name, base in zip(pool.names, pool.bases, strict=True) if base in bases}
        fits = [name for name in sorted(family) if int(digits) in self.hit_points_of(name)]
        if len(fits) != 1:
            return None
        score = max(score for _, score in close)
        return NameMatch(fits[0], None, round(score / 100, 3), text, score)

    def find(self, image: np.ndarray, hint: tuple[str, ...] = (), long_side: int | None = None
             ) -> list[TextCard]:
        """The cards of ``image`` found by their titles, surest first, no two on one
        place. ``long_side``: the size the detector sees ``image`` at (``vision.text_detect``)."""
        boxes = _worth_reading(detect(image, long_side) if long_side else detect(image))
        lines = [self._read(image, box) for box in boxes]
        marks = [line for line in lines if hit_points_mark(line.read.text)]
        headers = [line for line in lines if is_header(line.read.text)]
        cards = [card for line in lines if len(title_text(line.read.text)) >= 2 and not is_header(line.read.text)
                 and (card := self._titled(line, lines, marks, headers, hint)) is not None]
        return _distinct(cards)

    def _titled(self, line: _Line, lines: Sequence[_Line], marks: Sequence[_Line], headers: Sequence[_Line],
                hint: tuple[str, ...]) -> TextCard | None:
        """The card whose title ``line`` is, when something confirms it is a title: an HP
        mark ending its strip (a Pokémon), or a header word over it (a Trainer, whose name
        then must print no HP). None when nothing does, or it names no card."""
        strip = _strip_end(line, marks)
        if strip is not None:
            end, mark_text = strip
            match = self._name(line, hit_points_mark(mark_text), hint)
            quad = card_frame(line.corners, end) if match.name is not None else None
        else:
            quad = _header_frame(line, headers)
            if quad is None:
                return None
            match = self._name(line, None, hint)
            if match.name is None:
                match = self._subtitled(line, lines)
            if match.name is None:
                match = self._spelled_out(line.read)
            if match.name is not None and self._prints_hit_points(match.name):
                return None  # a Pokémon's name under a Trainer's header: a line of its text
        return TextCard(quad, match) if quad is not None and match.name is not None else None

    def _spelled_out(self, read: LineRead) -> NameMatch:
        """A Trainer's name that a sure read under its header spells exactly, however
        short. The matcher trusts no read of three or four letters against every name
        (they fit some name by chance); a title confirmed by its header, read surely,
        that spells one Trainer's name exactly ("Jacq", "Iono") is that name, unless
        another name reads alike (``NameMatcher.spelled``)."""
        names = [name for name in self.matcher.spelled(read.text) if not self._prints_hit_points(name)]
        if read.confidence < SURE_READ or len(names) != 1:
            return NameMatch(None, None, 0.0)
        printings = self.matcher.printings(names[0])
        return NameMatch(names[0], printings[0] if len(printings) == 1 else None, read.confidence, read.text, 100.0)

    def _subtitled(self, title: _Line, lines: Sequence[_Line]) -> NameMatch:
        """The name a Trainer's title and the subtitle beside it spell together
        ("Professor's Research" and "Professor Sada"): the title alone reads as every
        name printed with it, a tie the subtitle's read settles as it settles a deck
        list's (``NameMatcher.by_subtitle``)."""
        family = self.matcher.subtitled(title_text(title.read.text))
        if not family:
            return NameMatch(None, None, 0.0)
        tie = NameMatch(family[0], None, 0.0, title.read.text, 100.0, title.read.confidence, tuple(family[1:]))
        for line in lines:
            gap = _gap(title.corners, line.corners, SUBTITLE_SIZE) if line is not title else None
            if gap is not None and _within_reach(gap, title.thickness) and (
                    settled := self.matcher.by_subtitle(tie, line.read)) is not tie:
                return settled
        return NameMatch(None, None, 0.0)

    def _prints_hit_points(self, name: str) -> bool:
        """Whether ``name`` is a Pokémon's, as far as the deck lists or the card database
        say (a Trainer's or an Energy's prints no HP)."""
        return name in self.matcher.hit_points or bool(self.hit_points_of and self.hit_points_of(name))

    def explain(self, frame: np.ndarray, unnamed: Sequence[np.ndarray], hint: tuple[str, ...] = ()
                ) -> list[TextCard]:
        """The cards of ``frame`` found by their titles: in the whole frame, then around
        each small outline of ``unnamed`` (cards found but not named) that the first
        search did not name."""
        cards = self.find(frame, hint)
        seen_at = text_detect.LONG_SIDE / max(frame.shape[:2])
        searched = 0
        for quad in unnamed:
            if searched >= MOST_REGIONS:
                break
            if card_height(quad) * seen_at >= SMALL_CARD or any(overlap(quad, c.quad) >= SAME_PLACE for c in cards):
                continue
            searched += 1
            cards += self.find_around(frame, quad, hint)
        return _distinct(cards)

    def find_around(self, frame: np.ndarray, quad: np.ndarray, hint: tuple[str, ...] = ()
                    ) -> list[TextCard]:
        """The cards found by their titles in the part of ``frame`` around ``quad``,
        upscaled (see ``SMALL_CARD``)."""
        centre = quad.mean(axis=0)
        reach = AROUND / 2 * (quad.max(axis=0) - quad.min(axis=0))
        h, w = frame.shape[:2]
        x0, y0 = np.maximum(0, centre - reach).astype(int)
        x1, y1 = np.minimum((w, h), centre + reach).astype(int)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return []
        long_side = max(x1 - x0, y1 - y0) * REGION_CARD / max(1.0, card_height(quad))
        found = self.find(frame[y0:y1, x0:x1], hint, int(np.clip(long_side, *REGION_SIDE)))
        shift = np.float32([x0, y0])
        return [TextCard(card.quad + shift, card.match) for card in found]


def unexplained(names: Sequence[str | None]) -> bool:
    """Whether the outline finder's cards, named ``names`` (None: not named), leave a
    frame unexplained: none found, or fewer named than not (a card filling a photo
    gives its picture box and text box, a binder page its pockets, all unnamed). On a
    table frame of ten cards a few unnamed ones are the reader's, not the finder's: the
    text search (~0.5 s on one core) would not name them and is not made."""
    named = sum(name is not None for name in names)
    return named == 0 or named < len(names) - named


def merged(named: Sequence[np.ndarray], unnamed: Sequence[np.ndarray], found: Sequence[TextCard]
           ) -> tuple[list[int], list[TextCard]]:
    """What the text search adds to the outline finder's cards: the indices of the
    ``unnamed`` outlines that lie on no card ``found`` (the others were parts of those
    cards: a picture box, a pocket), and the cards ``found`` that lie on no ``named``
    outline (those were named already, and their outline is the better frame)."""
    new = [card for card in found if all(overlap(card.quad, quad) < SAME_PLACE for quad in named)]
    kept = [i for i, quad in enumerate(unnamed) if all(overlap(quad, card.quad) < SAME_PLACE for card in new)]
    return kept, new


def _distinct(cards: list[TextCard]) -> list[TextCard]:
    """The surest of cards found on one place (a title read twice, either way up)."""
    kept: list[TextCard] = []
    for card in sorted(cards, key=lambda c: -c.match.confidence):
        if all(overlap(card.quad, other.quad) < 0.5 for other in kept):
            kept.append(card)
    return kept


