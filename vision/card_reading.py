"""Reading one card: naming a found outline, either way up, and turning it upright.

A found outline says which sides are the card's long ones, not which end is its top.
The printed layout gives a first guess (``vision.layout``: the picture is above the
text), and that end's title is read first. When the layout is sure, that end is read in
full before the other end gets one look, its likeliest line (a card turned the wrong way
up reads as Confused, so a sure guess still gets that one look), unless the likelier
end's reads came close to a deck name: the title is there, only unsure. When it is not, the
other end's likeliest line comes second, then the likelier end's others, then the other
end's. A name read at either end decides the way up; without one, the layout's guess
stands unless the other end's reads came clearly closer to a name. With deck lists, a
card neither end names whose outline holds a dark sleeve's rim (``vision.sleeves.sleeve_rim``)
has both ends read again from the card inside the sleeve: the finder outlines the sleeve.
Else it gets a last look past the edge of the end taken as its top (the layout's guess,
or the end whose reads came clearly closer to a name): the finder may have taken a line
inside the card (the art box's edge) for its top and cut the title off. Not when a title
was read clearly: then the names tie, wherever it is read from. Last, the learned reader
reads that end's title row whole (``LEARNED_READS``): blur can fade a white title into its
dark bar, or glue its letters, past what the line search finds. A Pokémon still unnamed
(its title under a reflection or a finger) is named by its attacks' names when the deck
lists say which each name has (``vision.attack_names``). A frame's blur, when the frame
has one (``vision.blur``), is undone around the card before any of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from vision.attack_names import read_attacks
from vision.blur import Blur, undone_around
from vision.energy_type import settled_by_colour
from vision.geometry import card_share, portrait, region_quad, rotation_of, turn_180
from vision.hit_points import read_hit_points
from vision.identity import printing, read_number
from vision.names import ACCEPT, NameMatch, NameMatcher
from vision.ocr import LineRead, LineReader, title_band, title_reads, title_row_reads
from vision.pp_ocr import available as learned_reader_available
from vision.pp_ocr import learned_or
from vision.sleeves import card_in_sleeve, sleeve_rim
from vision.ties import may_settle, settled
from vision.type_colour import refuted_by_colour

#: Most OCR calls on one end (its likeliest line first; its other window, a fixed crop,
#: second rows and light text follow). Six since the Trainer row's fixed crop went: the
#: same reads as the seven before, less that one (a seventh then reached a light-text
#: read that named a Koraidon ex "Peony" without deck lists, tune split).
#: What each read is worth (tune split, deck lists: 1,771 outlines of 12 frames per
#: height band, and of every scan under the decoys and motion-blur conditions, true and
#: found outlines; each end's reads logged in full, policies replayed on the logs): the
#: first read of the likelier end names 68% of the cards named, at 26% of the reading's
#: CPU; its second to fourth name 1 card in 8 reads, the fifth and sixth 1 in 40 (26
#: cards, 10% of the CPU; five reads: 7 cards fewer). The reads before a late name show no sign of
#: it: stopping an end after 2-4 reads that came no closer to a deck name than
#: similarity 30-50, or held no more than 0-3 letters, or fit no name at all, lost 1 to
#: 110 names for 0.4-16% of the CPU; the one that lost none saved 0.1%.
MAX_READS = 6
#: A layout lean this sure gives the other end only ``SURE_READS`` when the likelier end
#: does not name the card. Tune split, true outlines: no name lost, 20-30% fewer OCR calls
#: than reading both ends in turns.
SURE_LEAN = 0.5
#: The other end's reads after a sure lean. The lean is wrong and sure on about 1 card in
#: 300 (2 of 615, tune and holdout splits, the finder's outlines), and the top's likeliest
#: line may then name the card: with one read (against none) the holdout split named one
#: card more and turned it right, the tune split named the same cards; 3% more OCR calls.
SURE_READS = 1
#: With deck lists, an end whose reads came this close to a deck name
#: (``NameMatch.similarity``: 100 less twice the best name's per-letter cost) holds a
#: title, unnamed as it is: after a sure lean the other end is then not read. On the logs
#: of ``MAX_READS``, that other read named 1 card right and 1 wrong of the 386 it was
#: made for, at 5% of the reading's CPU; made only below 50, it names the same cards (the
#: wrong one no more) for 3.4% less CPU (1.2% on plain frames, 4.6% under motion blur,
#: where titles read as near misses). Any bar from 40 to 60 named the same; 35 lost a card.
TITLE_SEEN = 50.0
#: When the lean is not that sure, each end's likeliest line is read before either end's
#: others: the wrong end's further reads seldom name the card, and the right end's first
#: one mostly does. (The finder's outlines, 12 frames per height band, deck lists: the
#: same cards named and turned as reading the likelier end in full first, with 3% fewer
#: OCR calls on the holdout split and 7% on tune; one read per end in turns all the way
#: saved no more.)
FIRST_LOOK = 1
#: What one point of name similarity (0-100) between the two ends weighs against the
#: lean when neither end names the card (tune split: the sum picks the top better than
#: either alone).
SIMILARITY_WEIGHT = 0.03
#: When neither end names the card, its top's title (see ``_top``) is read from the outline
#: moved this fraction of the card's height toward that end, at most ``SHIFTED_READS``
#: reads (its two windows' lines). On the finder's outlines (12 frames per height band,
#: deck lists), 200-260 / 260-330 / 330-440 px: tune split 99 / 110 / 68 -> 103 / 110 / 71
#: cards named, holdout 106 / 110 / 71 -> 108 / 111 / 72, no name wrong; 8-9% more OCR
#: calls. Above 260 px the cards gained had outlines whose top lay 4-11% of the height
#: inside the card; at 200-260 px their outlines were right within 2%, and the moved band
#: is a second look at a blurred title. (0.05, 0.08 or 0.12 of the height named as many
#: or fewer; more reads, or the other end's outline moved too, named none more.)
#: Its reads only count when they name the card: a near miss there must not turn an
#: unnamed card's way up. And only with deck lists: without them the strip past the edge
#: (the mat, a neighbour) reads as noise that some of ~4,400 names match (tune split: a
#: Basic Lightning Energy named "Rose" from the blurred mat above it).
#: On the logs of ``MAX_READS`` these reads named 21 cards right and 2 wrong for 15% of
#: the reading's CPU (most of it on motion-blurred cards no read names); one read
#: instead of two lost 6 names. Made only when an end came within similarity 40 of a
#: deck name they named the same (1.4% less CPU), within 45, 2 fewer: not worth a rule.
TOP_SHIFT = 0.1
SHIFTED_READS = 2
#: An outline whose height is further than this share from a card's of its width
#: (``vision.geometry.card_share``) has an end off the card's: past it (the mat or a
#: neighbour taken in) or short of it (the art box's top taken for the card's, the title
#: cut off). When the look past its top names nothing, the title of the card its bottom
#: end and its width make is read (``SHIFTED_READS`` reads; at both ends when the lean is
#: not sure). The tune split's misses this names (seed 0, 200-330 px: Blissey, Cacnea,
#: Tatsugiri) were 9-13% off; the finder's outlines of the cards around them within 3%,
#: and up to 7% for some it named. Tune seed 2, seven conditions (whole frames, Tesseract):
#: 2,011 -> 2,015 named; holdout, every condition, 2,258 -> 2,264 of 2,625; no name wrong
#: or lost on either. Read instead of the look past the top, it named as many in all on
#: tune but lost 4 at 330-440 px.
PROPORTION_SLACK = 0.05
#: With deck lists, a card neither end names, outlined with a dark sleeve's rim
#: (``vision.sleeves.sleeve_rim``), gets this many reads of each end of the card inside the
#: sleeve (``vision.sleeves.card_in_sleeve``), the likelier first: the finder outlines the
#: sleeve, and the layout's windows then miss the title. Like the look past the edge,
#: they count only when they name the card; the quad stays the one found. Tune split,
#: sleeves, Tesseract, true outlines, 260-330 / 330-440 px: 111 / 114 -> 114 / 117 of 119
#: named. Without the rim check every card is named, but the unreadable bare cards of
#: ``bench.vision.speed``'s frames pay the reads too (Tesseract calls +49%); the likelier
#: end alone, or 2-3 reads an end, named 1-5 fewer.
SLEEVED_READS = 6
#: A title an end read this clearly (``NameMatch.similarity``, see ``TITLE_SEEN``: a
#: per-letter cost of 7.5) and still left unnamed is a tie between deck names (a name and
#: its twin, a decoy) that the title cannot settle, read from one edge or another: it gets
#: no look past the edge. On the logs of ``MAX_READS``, the same cards named for 2% less of
#: the reading's CPU (7% with decoy names in the deck lists); any bar from 72 to 95 named
#: the same, 70 lost a card.
CLEAR_TITLE = 85.0
#: With deck lists, a card that no read above names (nor the look past its edge) gets
#: the learned reader's reads (``vision.pp_ocr``) of its top's title row, whole
#: and deblurred (``vision.ocr.title_row_reads``), where the dark-stroke search finds no
#: clean line: white titles on dark bars faded by blur, blurred letters glued to the rule
#: under them. Like the look past the edge, they count only when they name the card. Tune
#: split, ``bench.vision.run``'s frames, true outlines: 200-260 / 260-330 px 109 / 115 ->
#: 115 / 117 of 120 / 118 cards named, no name wrong.
LEARNED_READS = 2
#: ... and only when the top's reads came this close to a deck name
#: (``NameMatch.similarity``, see ``TITLE_SEEN``): a title is there, unread. A PP-OCR read
#: of a whole row costs ~30 ms of CPU, four Tesseract lines. Tune split, the same frames,
#: the finder's outlines: the 7 cards these reads named came within 45-67, 12 of the 21
#: looks that named none within 23-44 (junk quads, unreadable blur).
LEARNED_SIMILARITY = 45.0


@dataclass
class CardReading:
    """One card in one frame. ``quad`` is in printed order (SPEC §2). A ``face_down``
    card (a Prize, the deck: ``vision.card_judge``) is a card with no name to read; its
    ``quad`` has a short side first, as no end of a back is its top."""

    quad: np.ndarray
    rotation: int
    name: str | None
    card_id: str | None
    confidence: float
    text: str = ""
    face_down: bool = False

    def to_json(self) -> dict:
        out = {
            "name": self.name,
            "id": self.card_id,
            "confidence": round(float(self.confidence), 3),
            "quad": [[int(round(x)), int(round(y))] for x, y in self.quad],
            "rotation": self.rotation,
        }
        if self.face_down:  # only added: SPEC §2's keys stay as they are for faces
            out["face_down"] = True
        return out


def face_down(quad: np.ndarray) -> CardReading:
    """The face-down card at ``quad``: no name, and sure it is a back."""
    quad = portrait(np.asarray(quad, np.float32))
    return CardReading(quad, rotation_of(quad), None, None, 1.0, face_down=True)


class _End:
    """One end of a card as its top: its reads so far and their best match."""

    def __init__(self, engine: LineReader, frame: np.ndarray, quad: np.ndarray,
                 corner: _End | None = None,
                 reads: Callable[[LineReader, np.ndarray], Iterator[LineRead]] = title_reads) -> None:
        """``corner``: the end whose HP corner checks this end's names, when not its own
        (the look past an edge reads a band above the card's top). ``reads``: the title
        reads of a band, likeliest first (``vision.ocr.title_reads``)."""
        self.quad = quad
        self._title_reads = reads
        self._engine, self._frame = engine, frame
        self._band: np.ndarray | None = None  # straightened on the first read
        self._reads: Iterator[LineRead] | None = None
        self._tie_read = False
        self._corner = corner
        self._digits: str | None = None
        self.saw_text = False
        self.calls = 0
        self.match = NameMatch(None, None, 0.0)

    def _straightened(self) -> np.ndarray:
        if self._band is None:
            # The learned reader's look at the same end's title row reads the band that
            # end straightened (~1.6 ms a band).
            same = self._corner is not None and self._corner.quad is self.quad
            self._band = self._corner._straightened() if same else title_band(self._frame, self.quad)
        return self._band

    def hit_points(self) -> str:
        """The digits read in this end's HP corner (``vision.hit_points.read_hit_points``), read
        once however many names or ties ask."""
        if self._corner is not None:
            return self._corner.hit_points()
        if self._digits is None:
            self._digits = read_hit_points(learned_or(self._engine), self._straightened())
        return self._digits

    @property
    def named(self) -> bool:
        return self.match.confidence >= ACCEPT

    def read(self, matcher: NameMatcher, hint: tuple[str, ...], budget: int = MAX_READS) -> None:
        """Read title lines (at most ``budget`` in all) until one names the card. A title
        that reads as two deck names alike gets one read of its HP, or of its subtitle,
        as soon as it does (``vision.ties``): further reads of the title cannot part
        them, the suffix being a logo. A name only just sure is not taken when the HP
        corner contradicts it: a figure beside a Trainer's or an Energy's name, a figure
        the Pokémon named is not printed with (``NameMatcher.refuted_by_hit_points``), or a
        card body printed in another type's colour (``vision.type_colour``)."""
        if self._reads is None:
            self._reads = self._title_reads(self._engine, self._straightened())
        while not self.named and self.calls < budget:
            read = next(self._reads, None)
            if read is None:
                break
            self.calls += 1
            self.saw_text |= len(read.text) >= 2
            # "Basic <icon> Energy" reads alike for every type: the card's colour tells them apart.
            self.match = settled_by_colour(matcher.add(self.match, read, hint), matcher, self._frame, self.quad)
            if matcher.hit_points_may_refute(self.match):
                self.match = matcher.refuted_by_hit_points(self.match, self.hit_points())
            if self.named:  # the card's body colour may say another type than the name's
                card = self._corner.quad if self._corner is not None else self.quad
                self.match = refuted_by_colour(self.match, matcher, self._frame, card)
            if not self.named and not self._tie_read and may_settle(matcher, self.match):
                self._tie_read = True
                self.match = settled(matcher, self.match, learned_or(self._engine), self._straightened(),
                                     self.hit_points)


def _holds_title(end: _End, matcher: NameMatcher) -> bool:
    """Whether ``end``'s reads came close enough to a deck name (``TITLE_SEEN``) to say the
    title is there, named or not. Without deck lists a read's similarity is a fuzzy score
    against ~7,000 names, which noise also reaches: it says nothing there."""
    return matcher.deck is not None and end.match.similarity >= TITLE_SEEN


def _top(likely: _End, other: _End, lean: float) -> _End:
    """The card's top: the end that names it; else the layout's guess (``lean`` >= 0
    favours ``likely``), moved by how much closer to a name each end's reads came."""
    if likely.named or not other.calls:
        return likely
    if other.named:
        return other
    closer = likely.match.similarity - other.match.similarity
    return likely if lean + SIMILARITY_WEIGHT * closer >= 0 else other


def _named_in_sleeve(engine: LineReader, matcher: NameMatcher, frame: np.ndarray, hint: tuple[str, ...],
                     ends: tuple[_End, _End]) -> tuple[_End, NameMatch] | None:
    """The first of ``ends`` whose card inside a sleeve (``vision.sleeves.card_in_sleeve``)
    ``SLEEVED_READS`` reads name, with that naming; None when neither does."""
    for end in ends:
        inside = _End(engine, frame, card_in_sleeve(end.quad))
        inside.read(matcher, hint, SLEEVED_READS)
        if inside.named:
            return end, inside.match
    return None


def _card_shaped(quad: np.ndarray) -> np.ndarray | None:
    """The card whose bottom end and width are ``quad``'s (printed order), when ``quad``
    is off a card's proportions by more than ``PROPORTION_SLACK``; else None."""
    share = card_share(quad)
    return None if abs(share - 1.0) <= PROPORTION_SLACK else region_quad(quad, 0.0, 1.0 - share, 1.0, 1.0)


def _named_past_the_edge(engine: LineReader, matcher: NameMatcher, frame: np.ndarray, hint: tuple[str, ...],
                         ends: tuple[_End, _End], sure: bool) -> tuple[_End, NameMatch] | None:
    """The last look at the title of a card neither of its ``ends`` (top, bottom) names:
    the top's outline moved past its edge (``TOP_SHIFT``); then, when the outline is not
    card-shaped, the card its bottom end makes (``_card_shaped``), from the other end too
    unless the lean is ``sure``. The end the look named the card from, with its naming;
    None when it named none. Its reads count only when they name the card."""
    top, bottom = ends
    beyond = _End(engine, frame, region_quad(top.quad, 0.0, -TOP_SHIFT, 1.0, 1.0 - TOP_SHIFT), top)
    beyond.read(matcher, hint, SHIFTED_READS)
    if beyond.named:
        return top, beyond.match
    for end in (top,) if sure else ends:
        card = _card_shaped(end.quad)
        if card is None:
            return None  # both ends share one outline: card-shaped, neither end is off
        look = _End(engine, frame, card)
        look.read(matcher, hint, SHIFTED_READS)
        if look.named:
            return end, look.match
    return None


def read_card(engine: LineReader, matcher: NameMatcher, frame: np.ndarray, quad: np.ndarray,
              hint: tuple[str, ...], lean: float, blur: Blur | None = None) -> CardReading | None:
    """Name the card at ``quad`` (either way up; ``lean`` is the layout's, see
    ``vision.layout``) and turn ``quad`` upright. None when neither end has a line of
    letters: not a card, or not one to read. ``blur``: the frame's (``vision.blur``),
    undone around the card first."""
    if blur is not None:
        return read_with_blur_undone(read_card, engine, matcher, frame, quad, hint, lean, blur)
    likely, other = _End(engine, frame, quad), _End(engine, frame, turn_180(quad))
    if lean < 0:
        likely, other, lean = other, likely, -lean
    if lean >= SURE_LEAN:
        turns = ((likely, MAX_READS), (other, SURE_READS))
    else:
        turns = ((likely, FIRST_LOOK), (other, FIRST_LOOK), (likely, MAX_READS), (other, MAX_READS))
    for end, budget in turns:
        if likely.named or other.named:
            break
        if lean >= SURE_LEAN and end is other and _holds_title(likely, matcher):
            break  # the lean was right: the title is where it said, only unsure
        end.read(matcher, hint, budget)
    # With deck lists, a card neither end names and no title read clearly gets last looks.
    read_clearly = max(likely.match.similarity, other.match.similarity) >= CLEAR_TITLE
    last_looks = not (likely.named or other.named) and matcher.deck is not None and not read_clearly
    sleeved = (_named_in_sleeve(engine, matcher, frame, hint, (likely, other))
               if last_looks and sleeve_rim(frame, quad) else None)
    # A read can name the card from its glyphs while its text is empty (Koraidon ex,
    # tune split): a named end has seen its card, whatever the text.
    if not (likely.saw_text or other.saw_text or likely.named or other.named or sleeved):
        return None
    top = _top(likely, other, lean)
    match = top.match
    if sleeved is not None:
        top, match = sleeved
    elif last_looks:
        bottom = other if top is likely else likely
        looked = _named_past_the_edge(engine, matcher, frame, hint, (top, bottom), lean >= SURE_LEAN)
        if looked is not None:
            top, match = looked
        elif learned_reader_available() and top.match.similarity >= LEARNED_SIMILARITY:
            learned = _End(learned_or(engine), frame, top.quad, top, title_row_reads)
            learned.read(matcher, hint, LEARNED_READS)
            if learned.named:
                match = learned.match
        if match.confidence < ACCEPT and learned_reader_available():
            # The title hidden (a reflection, a finger): the attacks' names may name it. They
            # read upright only, so the look at the other end, when the lean is not sure,
            # also turns the card its right way up.
            for end in (top,) if lean >= SURE_LEAN else (top, bottom):
                by_attacks = refuted_by_colour(read_attacks(learned_or(engine), matcher, frame, end.quad),
                                               matcher, frame, end.quad)
                if by_attacks.confidence >= ACCEPT:
                    top, match = end, by_attacks
                    break
    return identified(engine, matcher, frame, top.quad, matcher.decide(match))


def read_with_blur_undone(read: Callable[..., CardReading | None], engine: LineReader, matcher: NameMatcher,
                          frame: np.ndarray, quad: np.ndarray, hint: tuple[str, ...], lean: float, blur: Blur
                          ) -> CardReading | None:
    """``read(engine, matcher, frame, quad, hint, lean)``, a way of reading one card
    (``read_card``'s signature), on ``frame`` with its ``blur`` undone around the card; the
    reading's quad in ``frame``'s pixels."""
    near, corner = undone_around(frame, quad, blur)
    reading = read(engine, matcher, near, quad - corner, hint, lean)
    return None if reading is None else replace(reading, quad=reading.quad + corner)


def identified(engine: LineReader, matcher: NameMatcher, frame: np.ndarray, quad: np.ndarray,
               match: NameMatch) -> CardReading:
    """The card at ``quad`` (printed order) named by ``match``, with its id: the
    collector number tells a name printed more than once which printing it is."""
    card_id = match.card_id
    if match.name is not None and card_id is None:  # a name printed more than once
        number = read_number(learned_or(engine), frame, quad)
        card_id = printing(matcher.printings(match.name), number)
    return CardReading(quad, rotation_of(quad), match.name, card_id, match.confidence, match.text)
