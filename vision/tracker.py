"""Stable card identities across frames, with names voted over frames.

A card keeps its id through jitter, a hand passing over it (it may vanish for a while)
and lighting flicker. Only new cards, cards whose name has not settled yet, and cards
whose face changed (an evolution laid on top) are sent to OCR; everything else costs a
quad match per frame.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.geometry import iou, overlap, rotation_of, warp
from vision.recognize import Recognizer

#: A name settles once its summed confidence reaches this and it holds most votes.
SETTLE_WEIGHT = 1.6
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


@dataclass
class Track:
    track_id: int
    quad: np.ndarray
    signature: np.ndarray
    votes: dict[tuple[str, str | None], float] = field(default_factory=lambda: defaultdict(float))
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

    def leader(self) -> tuple[tuple[str, str | None] | None, float, float]:
        if not self.votes:
            return None, 0.0, 0.0
        key = max(self.votes, key=self.votes.__getitem__)
        total = sum(self.votes.values())
        return key, self.votes[key], self.votes[key] / total if total else 0.0

    @property
    def settled(self) -> bool:
        _key, weight, share = self.leader()
        return weight >= SETTLE_WEIGHT and share >= SETTLE_SHARE


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
                 change_frames: int = 2) -> None:
        self.recognizer = recognizer
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
        return [self._report(t) for t in self.tracks]

    def _hold(self, frame: np.ndarray, hint: tuple[str, ...]) -> None:
        """A frame where nothing moved: tracks stay where they are."""
        for track in self.tracks:
            if track.missing:
                track.missing += 1
                continue
            track.age += 1
            self._check_face(frame, track, hint)

    def _search(self, frame: np.ndarray, hint: tuple[str, ...]) -> None:
        quads = self.recognizer.find(frame)
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

    def _check_face(self, frame: np.ndarray, track: Track, hint: tuple[str, ...]) -> None:
        """Notice another card laid on this one (read it afresh), and read a card whose
        name has not settled yet."""
        sig = _signature(frame, track.quad)
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
            track.votes.clear()  # another card now lies here: read it afresh
            track.reads = 0
            track.settled_frame = None
            track.first_frame = self.frame_index
            track.signature = track.pending
            track.pending = None
            track.pending_count = 0
            track.changes += 1
        if not track.settled and track.reads < MAX_TRACK_READS:
            self._read(frame, track, hint)

    def _read(self, frame: np.ndarray, track: Track, hint: tuple[str, ...]) -> None:
        self.ocr_calls += 1
        track.reads += 1
        reading = self.recognizer.read(frame, track.quad, hint)
        if reading is None:
            return
        track.quad = reading.quad
        if reading.name is not None:
            track.votes[(reading.name, reading.card_id)] += reading.confidence
        if track.settled and track.settled_frame is None:
            track.settled_frame = self.frame_index

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
