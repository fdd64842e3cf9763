"""The per-frame pipeline: find the cards, judge what each outline holds, tell the frame's
blur from the faces (``vision.blur``), read the faces with it undone
(``vision.card_reading``) on two cores, and search a frame the outlines leave
unexplained for cards by their titles (``vision.text_finder``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import numpy as np

from vision.blur import Blur
from vision.blur import estimate as estimate_blur
from vision.card_judge import Kind, judge_all, part_of_a_card, square_enough
from vision.card_reading import CardReading, face_down, identified, read_card
from vision.finder import FinderConfig, find_cards, fine_copy, finish_cards
from vision.finding.quads import side_lengths
from vision.geometry import card_height, overlap
from vision.identity import is_close_up, read_number
from vision.layout import lean as layout_lean
from vision.memory import keep_freed_memory
from vision.names import DOUBTED_BELOW, NameMatcher
from vision.ocr import LineReader, Tesseract
from vision.pp_ocr import PPOCR, learned_or
from vision.second_reader import FrameShare, Read, SecondReader
from vision.text_detect import available as text_detector_available
from vision.text_finder import SAME_PLACE, TextFinder, merged, unexplained
from vision.text_finder import available as text_finder_available

#: A frame's cards are read on both cores: by the caller and a second reader (see
#: ``vision.second_reader``). Without it, one by one on the caller's thread.
SECOND_READER = True


def judged(frame: np.ndarray, quads: list[np.ndarray], kinds: list[Kind] | None = None
           ) -> tuple[list[np.ndarray], list[CardReading]]:
    """The finder's ``quads`` sorted by what they hold (``vision.card_judge``; ``kinds``
    when they were judged already): the card faces to read, and the face-down cards;
    things that are not cards are left out."""
    kinds = judge_all(frame, quads) if kinds is None else kinds
    return ([q for q, kind in zip(quads, kinds, strict=True) if kind is Kind.FACE],
            [face_down(q) for q, kind in zip(quads, kinds, strict=True) if kind is Kind.BACK])


def finish_and_judge(frame: np.ndarray, found: np.ndarray, finder: FinderConfig
                     ) -> list[tuple[np.ndarray, Kind, float | None]]:
    """The finder's cards ``found`` refined (``vision.finder.finish_cards``), each with
    what it holds (``vision.card_judge``) and, for a face, the layout's lean (None for
    the rest: only faces are read)."""
    fine, fine_scale = fine_copy(frame, finder)
    quads = [np.asarray(q, dtype=np.float32) for q in finish_cards(frame, found, finder, fine)]
    # The judge's halved frame is the finder's fine copy: the frame is halved once. (A
    # quad scaled by a power of two is judged exactly as the quad is on the frame.)
    kinds = judge_all(fine, [quad * np.float32(fine_scale) for quad in quads])
    return [(quad, kind, layout_lean(frame, quad) if kind is Kind.FACE else None)
            for quad, kind in zip(quads, kinds, strict=True)]


class _JudgedAhead:
    """The second reader's work while the finder takes its last look for cards: it
    refines the cards found so far, judges what they hold and the layout of the faces
    (they are all there are in about half of ``bench.vision.run``'s tune frames). Passed
    to ``find_cards`` as its ``ahead``. When the last look changes nothing, the caller
    judges nothing: the judging (~11 ms of CPU for a 1080p frame's dozen outlines,
    ``bench.vision.speed``) leaves the caller's path as the refinement and the leans had;
    and only faces are leaned (before: every outline, backs and things that are no card
    too, ~1.2 ms each). The judge halves the frame the refinement halved (``fine_copy``).
    Old and new alternating on 12 tune frames, 8 rounds, a machine loaded by other work:
    the same results; wall time ratio 0.996, within the noise (its gain is the caller's
    wait, ~10 ms, where the other core is free)."""

    def __init__(self, share: FrameShare, finder: FinderConfig) -> None:
        self._share, self._finder = share, finder
        self._judged: Callable[[], list[tuple[np.ndarray, Kind, float | None]] | None] | None = None

    def __call__(self, found: np.ndarray) -> Callable[[], list[np.ndarray] | None] | None:
        self._judged = self._share.ahead(finish_and_judge, found, self._finder)
        return self._judged and self._quads

    def _quads(self) -> list[np.ndarray] | None:
        judged = self._judged and self._judged()
        return None if judged is None else [quad for quad, _kind, _lean in judged]

    def judged(self, frame: np.ndarray, quads: list[np.ndarray]
               ) -> tuple[list[np.ndarray], list[float], list[CardReading]]:
        """``judged(frame, quads)`` with each face's lean. The work ahead stands when the
        last look left its quads as they were. Else they are judged again, all together
        (the judge weighs an outline among the others: ``vision.card_judge.judge_all``),
        and only the leans of the faces it refined are taken from it (a lean depends on
        its quad alone)."""
        ahead = (self._judged and self._judged()) or []
        unmoved = len(ahead) == len(quads) and all(
            np.array_equal(q, a) for q, (a, _kind, _lean) in zip(quads, ahead, strict=True))
        faces, backs = judged(frame, quads, [kind for _quad, kind, _lean in ahead] if unmoved else None)
        known = {quad.tobytes(): lean for quad, _kind, lean in ahead if lean is not None}
        return faces, [known[q.tobytes()] if q.tobytes() in known else layout_lean(frame, q) for q in faces], backs


#: A name less sure than this explains its outline no more than no name does
#: (``surely_named``): it is one the HP corner may refute (``vision.names.DOUBTED_BELOW``),
#: and junk read from a part of a card (a photo's card cut off at its edges) reaches it
#: by chance. A frame of such names is searched by its titles too, and a card found there
#: takes the outline's place.
SURELY = DOUBTED_BELOW


def _explained(reading: CardReading) -> bool:
    return reading.face_down or (reading.name is not None and reading.confidence >= SURELY)


def surely_named(readings: Sequence[CardReading]) -> list[str | None]:
    """The names of ``readings``' faces, None for each not named surely (``SURELY``): what
    ``vision.text_finder.unexplained`` weighs."""
    return [r.name if _explained(r) else None for r in readings if not r.face_down]


def _whole_cards(frame: np.ndarray, readings: list[CardReading], close_up: bool = False) -> list[CardReading]:
    """The ``readings`` of ``frame`` but the faces no title was read from whose outline
    is no card's (``whole_cards``). Left out last: until then such an outline leaves its
    frame unexplained, and the text finder may find its card whole."""
    kept = whole_cards(frame, [r.quad for r in readings], [_vouched_for(r) for r in readings], close_up)
    return [r for r, keep in zip(readings, kept, strict=True) if keep]


def whole_cards(frame: np.ndarray, quads: Sequence[np.ndarray], vouched: Sequence[bool], close_up: bool = False
                ) -> list[bool]:
    """Which of the outlines ``quads`` of ``frame`` to report as cards. One ``vouched``
    for (a name read from it, or a back's colours) is; one that nothing but its outline
    says is a card is not when the outline leans further from square than a card under
    a webcam does (``vision.card_judge.square_enough``; not in a ``close_up``, a photo of
    a card held at any angle), or is a part of a bigger card (``vision.card_judge.part_of_a_card``:
    the card's upper half or its picture, the rest of it under a hand), measured against
    the frame's biggest card."""
    kept = [sure or close_up or square_enough(quad) for quad, sure in zip(quads, vouched, strict=True)]
    if sum(kept) < 2:
        return kept
    biggest = float(side_lengths(np.stack([q for q, keep in zip(quads, kept, strict=True) if keep])
                                 .astype(np.float64))[1].max())
    return [keep and (sure or not part_of_a_card(frame, quad, biggest))
            for quad, sure, keep in zip(quads, vouched, kept, strict=True)]


def any_close_up(frame: np.ndarray, quads: Sequence[np.ndarray]) -> bool:
    """Whether one of the outlines ``quads`` is a close-up's (``vision.identity.is_close_up``:
    a photo of a card held up to the camera)."""
    return any(is_close_up(frame, card_height(quad)) for quad in quads)


def _vouched_for(reading: CardReading) -> bool:
    """Whether more than its outline says ``reading`` is a card: a name read from it, or a
    back's colours (``vision.card_judge``)."""
    return reading.name is not None or reading.face_down


def _warm_up(engine: LineReader) -> None:
    """The second reader's work once on a blank frame, with its engine, before it
    answers: some first calls build tables (OpenCV's Lab conversion, ~0.1 s) that would
    otherwise slow its first frame. It keeps freed memory as the caller's recognizer does."""
    keep_freed_memory()
    frame = np.zeros((1080, 1920, 3), np.uint8)
    quad = np.float32([[100, 100], [160, 100], [160, 190], [100, 190]])
    finish_and_judge(frame, quad[None], FinderConfig())
    read_card(engine, NameMatcher([("Pikachu", None)]), frame, quad * 3, (), 0.0)
    read_number(learned_or(engine), frame, quad * 4)  # loads PP-OCR's model (a card read from 330 px)
    text_detector_available()  # loads the text detector, which reads a hidden title's attacks


#: The line readers by the name ``recognize --ocr`` takes.
LINE_READERS = ("tesseract", "pp-ocr")


def line_reader(name: str) -> LineReader:
    """A new line reader of kind ``name`` (one of ``LINE_READERS``). PP-OCR's raises
    ImportError when its packages (rapidocr, onnxruntime) are not installed."""
    if name == "pp-ocr":
        return PPOCR()
    if name != "tesseract":
        raise ValueError(f"no line reader {name!r}: one of {', '.join(LINE_READERS)}")
    return Tesseract()


_second_readers: dict[tuple[type, Read], SecondReader] = {}


def second_reader(engine: type = Tesseract, read: Read = read_card) -> SecondReader:
    """The second card reader (a process of its own once a few frames have been read, see
    ``vision.second_reader``) reading cards with ``read`` and a new ``engine``, one for all
    recognizers that read so with that kind of engine."""
    if (engine, read) not in _second_readers:
        _second_readers[engine, read] = SecondReader(read, engine, _warm_up)
    return _second_readers[engine, read]


class Recognizer:
    """Finds and names the cards of single frames."""

    def __init__(self, matcher: NameMatcher, finder: FinderConfig | None = None,
                 engine: LineReader | None = None, by_text: bool = True,
                 hit_points_of: Callable[[str], Collection[int]] | None = None, read: Read | None = None
                 ) -> None:
        """``by_text``: a frame the outlines leave unexplained is searched for cards by
        their titles (``vision.text_finder``; needs PP-OCR's models). ``hit_points_of``:
        the HP a name is printed with, which there tells a name from its suffixed twin.
        ``read``: how one card is read, ``vision.card_reading.read_card`` unless given (a
        module-level function, which the second reader imports by name; ``bench.vision.floor``
        passes the least reading a card can get)."""
        self.matcher = matcher
        self.hit_points_of = hit_points_of
        self.finder = finder or FinderConfig()
        self.engine = engine or Tesseract()
        self.by_text = by_text and text_finder_available()
        self._read = read
        # Each frame frees and allocates again tens of megabytes of arrays: keep them mapped.
        keep_freed_memory()

    def find(self, frame: np.ndarray) -> list[np.ndarray]:
        """The card faces of ``frame`` to read: not the backs, nor what is no card."""
        return judged(frame, find_cards(frame, self.finder))[0]

    def read(self, frame: np.ndarray, quad: np.ndarray, hint: tuple[str, ...] = (),
             engine: LineReader | None = None, blur: Blur | None = None) -> CardReading | None:
        """Name the card at ``quad`` (either way up) and turn ``quad`` upright. None when
        neither end has a line of letters: not a card, or not one to read. ``engine``:
        another line reader than the recognizer's own (the tracker's second opinion);
        ``blur``: the frame's (``vision.blur.estimate``), undone around the card first."""
        quad = np.asarray(quad, dtype=np.float32)
        return self._read_card()(engine or self.engine, self.matcher, frame, quad, hint, layout_lean(frame, quad), blur)

    def _read_card(self) -> Read:
        # ``read_card`` looked up when used: ``bench.vision.speed`` times it in its place.
        return self._read or read_card

    def recognize(self, frame: np.ndarray, hint: tuple[str, ...] = ()) -> list[CardReading]:
        """The cards of ``frame``, found by their outlines; when those leave the frame
        unexplained (``vision.text_finder.unexplained``), or one is a close-up (a photo of
        a card, ``vision.identity.is_close_up``), by their titles too. In a close-up a card
        found by its title takes the place of an outline on it named otherwise."""
        readings = self._outlined(frame, hint)
        faces = surely_named(readings)
        close_up = any_close_up(frame, [r.quad for r in readings])
        if not self.by_text or (readings and not faces) or not (close_up or unexplained(faces)):
            return _whole_cards(frame, readings, close_up)
        # A face-down card is explained as a named one is: there is no title on it to find.
        named = [r for r in readings if _explained(r)]
        unnamed = [r for r in readings if not _explained(r)]
        found = TextFinder(self.matcher, PPOCR(), self.hit_points_of).explain(frame, [r.quad for r in unnamed], hint)
        if close_up:
            # A card filling a photo is read better from its title, confirmed by its HP or
            # header, than from an outline of a part of it (its picture box read "roses").
            disputed = {id(r) for r in named if any(
                overlap(card.quad, r.quad) >= SAME_PLACE and card.match.name != r.name for card in found)}
            unnamed += [r for r in named if id(r) in disputed]
            named = [r for r in named if id(r) not in disputed]
        kept, new = merged([r.quad for r in named], [r.quad for r in unnamed], found)
        keep = {id(r) for r in named} | {id(unnamed[i]) for i in kept}
        return _whole_cards(frame, [r for r in readings if id(r) in keep]
                            + [identified(self.engine, self.matcher, frame, card.quad, card.match) for card in new],
                            close_up)

    def _outlined(self, frame: np.ndarray, hint: tuple[str, ...]) -> list[CardReading]:
        """The cards the finder outlines, read (on two cores: see ``SECOND_READER``)."""
        if not SECOND_READER:
            quads, backs = judged(frame, [np.asarray(q, dtype=np.float32) for q in find_cards(frame, self.finder)])
            blur = estimate_blur(frame, quads)
            return [r for q in quads if (r := self.read(frame, q, hint, blur=blur)) is not None] + backs
        with second_reader(type(self.engine), self._read_card()).sharing(frame) as share:
            ahead = _JudgedAhead(share, self.finder)
            quads, leans, backs = ahead.judged(frame, [np.asarray(q, dtype=np.float32)
                                                       for q in find_cards(frame, self.finder, ahead)])
            # The cards whose way up the layout is least sure of go first: they are the
            # ones that may read both ends, and one of them started last kept one core
            # busy after the other had finished (holdout frames: 126 -> 100 ms median for
            # the reading on two cores). The results keep the finder's order.
            first = sorted(range(len(quads)), key=lambda i: abs(leans[i]))
            blur = estimate_blur(frame, quads)
            # The card database stays with the second reader; only the deck lists change.
            done = share.read_all([(quads[i], hint, leans[i], blur) for i in first], self.matcher, self.engine,
                                  keep=(self.matcher.all,))
        by_index = dict(zip(first, done, strict=True))
        return [r for i in range(len(quads)) if (r := by_index[i]) is not None] + backs

    def warm_up(self, timeout: float = 10.0) -> bool:
        """Start the second reader and wait until it answers (benchmarks do, so their first
        frames are timed as later ones; in use, frames are read meanwhile). Whether it did."""
        return not SECOND_READER or second_reader(type(self.engine), self._read_card()).wait_until_answering(timeout)
