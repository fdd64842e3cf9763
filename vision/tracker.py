"""Stable card identities across frames, with names voted over frames.

A card keeps its id through jitter, a hand passing over it (it may vanish for a while),
lighting flicker and being turned where it lies (a Special Condition). Only new cards,
cards whose name has not settled yet, and cards whose face changed (an evolution laid on
top) are sent to OCR; everything else costs a quad match per frame.

A card whose name is not settled is read again on the next frames, taking turns between
the recognizer's own line reader and the *other* one (PP-OCR when the first is
Tesseract, and the reverse): on a still table the same reader reads nearly the same
pixels the same way every time, while the other fails on other cards. Both readers'
votes are pooled (``settles``): a judge acts on a settled name, and "not sure" is better
than a name the reads disagree on.

A track is reported as ``Recognizer.recognize`` reports a card: once a read has named it,
or has seen letters on it and its outline is a whole card's (``vision.recognize.whole_cards``:
near square, not a part of a bigger card). Until then it is followed and read, unshown: a
deck box's outline, a card's picture box with the rest of the card under a hand.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.blur import Blur
from vision.blur import estimate as estimate_blur
from vision.geometry import iou, overlap, rotation_of, warp
from vision.ocr import LineReader, Tesseract
from vision.pp_ocr import PPOCR
from vision.pp_ocr import available as pp_ocr_available
from vision.recognize import Recognizer, any_close_up, whole_cards

#: A name settles once its summed confidence (over both readers' reads) reaches this...
SETTLE_WEIGHT = 1.6
#: ... and, when some read named another card, both readers named it and it holds this
#: share of the votes.
SETTLE_SHARE = 0.75
#: Reads tried before a card is left as unknown until it changes.
MAX_TRACK_READS = 8


#: Signature side (width; the height follows the card's shape).
SIGNATURE_W = 12
SIGNATURE_H = 16


def _signature(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """A tiny normalised grey thumbnail of the card: enough to notice a different card
    on the same spot, blind to noise and to overall brightness (lighting flicker)."""
    # Warped at 4× and averaged down: a point-sampled thumbnail aliases, so a pixel of
    # jitter would look like a different card.
    big = warp(frame, quad, (SIGNATURE_W * 4, SIGNATURE_H * 4))
    thumb = cv2.resize(big, (SIGNATURE_W, SIGNATURE_H), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(thumb, cv2.COLOR_BGR2LAB).astype(np.float32)
    grey = lab[:, :, 0]
    scale = grey.std() + 8.0
    # Brightness and contrast normalised away; colour (a, b) kept on the same scale so
    # two cards of one layout but different colours still differ.
    return np.dstack([(grey - grey.mean()) / scale, (lab[:, :, 1:] - 128) / scale])


def face_change(a: np.ndarray, b: np.ndarray) -> float:
    """How different two signatures are: mean absolute difference of the normalised
    thumbnails (0 for the same face; about 1.1 for unrelated images)."""
    return float(np.mean(np.abs(a - b)))


def turned_in_place(frame: np.ndarray, quad: np.ndarray, signature: np.ndarray, threshold: float
                    ) -> tuple[np.ndarray, np.ndarray] | None:
    """``quad``'s corners rolled to the way the card now lies, and its signature so, when
    the face at ``quad`` is the face of ``signature`` turned by 90, 180 or 270 degrees
    (a Pokémon turned for a Special Condition, or back). None when no turn of it matches:
    another card, or a hand. The quad follows the card's outline, which after a quarter
    turn is the old outline turned about its centre (portrait becomes landscape); rolling
    its corners is comparing the new face against the old thumbnail turned each way."""
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for roll in (1, 2, 3):
        turned = np.roll(quad, -roll, axis=0)
        sig = _signature(frame, turned)
        change = face_change(sig, signature)
        if change <= threshold and (best is None or change < best[0]):
            best = (change, turned, sig)
    return None if best is None else (best[1], best[2])


#: Thumbnail scale for noticing that anything on the table moved.
THUMB_SCALE = 1 / 8
#: A thumbnail pixel "moved" when it differs by more than this (0..255 grey levels,
#: after the global brightness is matched): a card's edge shifted by two pixels changes
#: a 1/8 pixel by a quarter of its step, a card laid down or a hand by far more.
MOVED_LEVEL = 40.0
#: ... and something moved when this many thumbnail pixels did. The smallest card
#: (140 px tall at 1080p) covers ~200 of them.
MOVED_PIXELS = 12


def _thumbnail(frame: np.ndarray) -> np.ndarray:
    small = cv2.resize(frame, None, fx=THUMB_SCALE, fy=THUMB_SCALE, interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)


def _moved(reference: np.ndarray, thumb: np.ndarray) -> bool:
    """Whether anything changed between two thumbnails beyond noise, jitter and a
    global brightness change (lighting flicker)."""
    if reference.shape != thumb.shape:
        return True
    gain = float(reference.mean()) / max(1.0, float(thumb.mean()))
    diff = np.abs(thumb * gain - reference)
    return int(np.count_nonzero(diff > MOVED_LEVEL)) >= MOVED_PIXELS


def settles(votes: Mapping[str, float], named_by: Mapping[str, Collection[str]]) -> bool:
    """Whether the reads of one card, pooled over frames, name it surely enough to act on.
    ``votes``: each name read and its summed confidence; ``named_by``: which readers
    (the recognizer's own, the other) read each name.

    The likeliest name needs ``SETTLE_WEIGHT`` of confidence (two sure reads). If no read
    named another card, that is all. A read of another name is a disagreement, and one
    reader alone never overrules it, however often it repeats itself (on a still table
    it reads the same pixels again). The disagreement is overruled only when both
    readers named the likeliest name, no rival was named by both, and the likeliest name
    holds ``SETTLE_SHARE`` of the votes: a stray read (a hand, a blurred frame) is
    outvoted, two readers naming two cards never are."""
    if not votes:
        return False
    name = max(votes, key=votes.__getitem__)
    if votes[name] < SETTLE_WEIGHT:
        return False
    if len(votes) == 1:
        return True
    rivals = [other for other in votes if other != name]
    return (len(named_by.get(name, ())) >= 2 and all(len(named_by.get(r, ())) < 2 for r in rivals)
            and votes[name] >= SETTLE_SHARE * sum(votes.values()))


@dataclass
class Track:
    track_id: int
    quad: np.ndarray
    signature: np.ndarray
    #: Summed confidence of each name read, and the printings (ids) read with it.
    votes: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    printings: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    #: Which readers ("own", "other") read each name.
    named_by: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    reads: int = 0
    missing: int = 0
    age: int = 0
    first_frame: int = 0
    settled_frame: int | None = None
    #: A different face seen on the card lately, and in how many frames in a row.
    pending: np.ndarray | None = None
    pending_count: int = 0
    #: Times another card was noticed laid on this one.
    changes: int = 0
    #: A read found a line of letters on it (``Recognizer.read``: not None).
    saw_text: bool = False
    #: Its outline is a whole card's as far as it tells (``vision.recognize.whole_cards``):
    #: judged on the frames the finder searches while no read has named it.
    whole: bool = True

    @property
    def reported(self) -> bool:
        """Reported as a card, as ``Recognizer.recognize`` reports one: named by a read,
        or letters seen on it and an outline a whole card's."""
        return bool(self.votes) or (self.saw_text and self.whole)

    def leader(self) -> tuple[tuple[str, str | None] | None, float, float]:
        """The likeliest (name, id), its summed confidence, and its share of all votes."""
        if not self.votes:
            return None, 0.0, 0.0
        name = max(self.votes, key=self.votes.__getitem__)
        ids = self.printings[name].most_common(1)
        total = sum(self.votes.values())
        return (name, ids[0][0] if ids else None), self.votes[name], self.votes[name] / total if total else 0.0

    @property
    def settled(self) -> bool:
        """Named surely enough to act on (``settles``)."""
        return settles(self.votes, self.named_by)

    def forget_reads(self) -> None:
        """Another card now lies here: what was read of the old one says nothing of it."""
        self.votes.clear()
        self.printings.clear()
        self.named_by.clear()
        self.reads = 0
        self.saw_text = False
        self.settled_frame = None


@dataclass(frozen=True)
class TrackedCard:
    track_id: int
    quad: np.ndarray
    rotation: int
    name: str | None
    card_id: str | None
    confidence: float
    settled: bool
    visible: bool


class Tracker:
    """Feed it frames; it answers with every card it knows.

    The finder is the expensive part, so it does not run on every frame: each frame is
    first compared, as a 1/8-size grey thumbnail, with the last frame the finder
    searched. While nothing moved (noise, jitter of a pixel or two and a global
    brightness change aside) the known tracks are kept as they are and only each
    visible card's signature is checked. Anything that moved (a card laid down, a hand
    passing) sends the frame to the finder, and so does every ``full_every``-th frame,
    as a safety net for a change too small for the thumbnail.
    """

    def __init__(self, recognizer: Recognizer, max_missing: int = 45,
                 change_threshold: float = 0.25, full_every: int = 15,
                 change_frames: int = 2, other_reader: bool = True) -> None:
        self.recognizer = recognizer
        #: Whether unsettled cards' second, fourth... reads are by the other line reader.
        self.other_reader = other_reader
        self._other: LineReader | None = None
        self.max_missing = max_missing
        #: Signature difference (``face_change``) above which a card's face differs:
        #: the same card under jitter and flicker stays below ~0.12, another card on
        #: the same spot (an evolution laid on top) is above ~0.34.
        self.change_threshold = change_threshold
        self.full_every = full_every
        #: A new face must be seen this many frames in a row, alike each time, before
        #: the card is read afresh: a hand passing over a card changes its look too,
        #: but only for a moment and never the same way twice.
        self.change_frames = change_frames
        self.tracks: list[Track] = []
        self.frame_index = 0
        self._next_id = 1
        self.ocr_calls = 0
        #: Frames sent to the finder (the rest only compared with the last of them).
        self.searches = 0
        self._reference: np.ndarray | None = None
        self._since_search = 0
        self._blur: tuple[int, Blur | None] | None = None  # (frame index, its blur)
        self._cards_seen: list[np.ndarray] = []  # the frame's cards, its blur told from them

    def update(self, frame: np.ndarray, hint: tuple[str, ...] = ()) -> list[TrackedCard]:
        thumb = _thumbnail(frame)
        if (self._reference is not None and self._since_search < self.full_every - 1
                and not _moved(self._reference, thumb)):
            self._since_search += 1
            self._hold(frame, hint)
        else:
            self._reference = thumb
            self._since_search = 0
            self.searches += 1
            self._search(frame, hint)
        self.tracks = [t for t in self.tracks if t.missing <= self.max_missing]
        self.frame_index += 1
        return [self._report(t) for t in self.tracks if t.reported]

    def _hold(self, frame: np.ndarray, hint: tuple[str, ...]) -> None:
        """A frame where nothing moved: tracks stay where they are."""
        self._cards_seen = [track.quad for track in self.tracks if not track.missing]
        for track in self.tracks:
            if track.missing:
                track.missing += 1
                continue
            track.age += 1
            self._check_face(frame, track, hint)

    def _search(self, frame: np.ndarray, hint: tuple[str, ...]) -> None:
        quads = self.recognizer.find(frame)
        self._cards_seen = quads
        matched: set[int] = set()
        seen: set[int] = set()
        pairs = sorted(((iou(t.quad, q), ti, qi) for ti, t in enumerate(self.tracks)
                        for qi, q in enumerate(quads)), reverse=True)
        assignment: dict[int, int] = {}
        for score, ti, qi in pairs:
            if score < 0.3 or ti in assignment or qi in matched:
                continue
            assignment[ti] = qi
            matched.add(qi)
        for ti, qi in assignment.items():
            track = self.tracks[ti]
            seen.add(track.track_id)
            quad = _same_order(track.quad, quads[qi])
            # Smooth corner jitter; a real move (> a few px) is followed at once.
            if np.abs(quad - track.quad).max() < 6:
                quad = 0.6 * track.quad + 0.4 * quad
            track.quad = quad.astype(np.float32)
            track.missing = 0
            track.age += 1
            self._check_face(frame, track, hint)
        for qi, quad in enumerate(quads):
            if qi in matched:
                continue
            # A quad overlapping a known card (part-hidden by a hand) is not a new card.
            if any(overlap(quad, t.quad) > 0.5 for t in self.tracks):
                continue
            track = Track(self._next_id, quad, _signature(frame, quad),
                          first_frame=self.frame_index)
            self._next_id += 1
            self.tracks.append(track)
            seen.add(track.track_id)
            self._read(frame, track, hint)
        for track in self.tracks:
            if track.track_id not in seen:
                track.missing += 1
        self._judge_outlines(frame)

    def _judge_outlines(self, frame: np.ndarray) -> None:
        """Judge the outlines of the visible tracks no read has named (``Track.whole``),
        against the frame's biggest card, as ``Recognizer.recognize`` judges a frame's."""
        visible = [t for t in self.tracks if not t.missing]
        if not any(not t.votes for t in visible):
            return
        quads = [t.quad for t in visible]
        judged = whole_cards(frame, quads, [bool(t.votes) for t in visible], any_close_up(frame, quads))
        for track, whole in zip(visible, judged, strict=True):
            track.whole = whole

    def _check_face(self, frame: np.ndarray, track: Track, hint: tuple[str, ...]) -> None:
        """Notice another card laid on this one (read it afresh), and read a card whose
        name has not settled yet."""
        sig = _signature(frame, track.quad)
        if face_change(sig, track.signature) > self.change_threshold:
            # The same card turned where it lies keeps its name and takes its new way up.
            turned = turned_in_place(frame, track.quad, track.signature, self.change_threshold)
            if turned is not None:
                track.quad, sig = turned
        if face_change(sig, track.signature) <= self.change_threshold:
            # The same face: follow slow lighting drift, forget a passing disturbance.
            track.signature = 0.8 * track.signature + 0.2 * sig
            track.pending = None
            track.pending_count = 0
        elif track.pending is not None and face_change(sig, track.pending) <= self.change_threshold:
            track.pending_count += 1
            track.pending = sig
        else:
            track.pending = sig
            track.pending_count = 1
        if track.pending is not None and track.pending_count >= self.change_frames:
            track.forget_reads()
            track.first_frame = self.frame_index
            track.signature = track.pending
            track.pending = None
            track.pending_count = 0
            track.changes += 1
        if not track.settled and track.reads < MAX_TRACK_READS:
            self._read(frame, track, hint)

    def _blur_of(self, frame: np.ndarray) -> Blur | None:
        """The blur of the frame being read (``vision.blur``), told from its cards once a
        frame, when a card is read in it."""
        if self._blur is None or self._blur[0] != self.frame_index:
            self._blur = (self.frame_index, estimate_blur(frame, self._cards_seen))
        return self._blur[1]

    def _read(self, frame: np.ndarray, track: Track, hint: tuple[str, ...]) -> None:
        self.ocr_calls += 1
        track.reads += 1
        other = self._other_reader() if track.reads % 2 == 0 else None
        reading = self.recognizer.read(frame, track.quad, hint, engine=other, blur=self._blur_of(frame))
        if reading is None:
            return
        track.saw_text = True
        if rotation_of(reading.quad) != rotation_of(track.quad):
            # The reader found the top at the other end: the face is kept that way up, or
            # the next frame would see another face (or a turned one) where this one lies.
            track.signature = _signature(frame, reading.quad)
        track.quad = reading.quad
        if reading.name is not None:
            track.votes[reading.name] += reading.confidence
            track.named_by[reading.name].add("own" if other is None else "other")
            if reading.card_id is not None:
                track.printings[reading.name][reading.card_id] += 1
        if track.settled and track.settled_frame is None:
            track.settled_frame = self.frame_index

    def _other_reader(self) -> LineReader | None:
        """The line reader the recognizer does not read with (made on first use), or None
        without one (``other_reader`` off, or PP-OCR not installed)."""
        if self._other is None and self.other_reader:
            own = getattr(self.recognizer, "engine", None)
            if getattr(own, "backend", "") == "pp-ocr":
                self._other = Tesseract()
            elif pp_ocr_available():
                self._other = PPOCR()
            else:
                self.other_reader = False
        return self._other

    def _report(self, track: Track) -> TrackedCard:
        key, weight, share = track.leader()
        settled = track.settled
        name, cid = key if key and (settled or weight >= 0.5) else (None, None)
        conf = min(1.0, share * min(1.0, weight / SETTLE_WEIGHT)) if key else 0.0
        return TrackedCard(track.track_id, track.quad, rotation_of(track.quad), name, cid,
                           round(conf, 3), settled, track.missing == 0)


def _same_order(previous: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad``'s corners rolled to best match ``previous`` (keeps the printed order the
    reader found, without reading again)."""
    best = min(range(4), key=lambda k: float(np.abs(np.roll(quad, -k, axis=0) - previous).sum()))
    return np.roll(quad, -best, axis=0)
