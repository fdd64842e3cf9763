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

from vision.geometry import iou, overlap, rotation_of, warp_card
from vision.recognize import Recognizer

#: A name settles once its summed confidence reaches this and it holds most votes.
SETTLE_WEIGHT = 1.6
SETTLE_SHARE = 0.75
#: Reads tried before a card is left as unknown until it changes.
MAX_READS = 8


def _signature(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """A tiny normalised grey thumbnail of the card: enough to notice a different card
    on the same spot, blind to noise and to overall brightness (lighting flicker)."""
    thumb = cv2.cvtColor(warp_card(frame, quad, (12, 16)), cv2.COLOR_BGR2GRAY)
    thumb = thumb.astype(np.float32)
    return (thumb - thumb.mean()) / (thumb.std() + 1e-3)


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
    """Feed it frames; it answers with every card it knows."""

    def __init__(self, recognizer: Recognizer, max_missing: int = 45,
                 change_threshold: float = 0.9) -> None:
        self.recognizer = recognizer
        self.max_missing = max_missing
        self.change_threshold = change_threshold
        self.tracks: list[Track] = []
        self.frame_index = 0
        self._next_id = 1
        self.ocr_calls = 0

    def update(self, frame: np.ndarray, hint: tuple[str, ...] = ()) -> list[TrackedCard]:
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
            sig = _signature(frame, track.quad)
            if float(np.mean(np.abs(sig - track.signature))) > self.change_threshold:
                track.votes.clear()  # another card now lies here: read it afresh
                track.reads = 0
                track.settled_frame = None
                track.first_frame = self.frame_index
            track.signature = sig
            if not track.settled and track.reads < MAX_READS:
                self._read(frame, track, hint)
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
        self.tracks = [t for t in self.tracks if t.missing <= self.max_missing]
        self.frame_index += 1
        return [self._report(t) for t in self.tracks]

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
