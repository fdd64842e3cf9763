"""Find every card on the mat as a quadrilateral.

Two stages at reduced resolution (longest side 640 px; even the smallest card is ~47 px
tall there), then a refinement on finer pixels:

1. *Rough candidates* from several cues, each cheap and each failing differently:
   outlines (edges closed into regions: the band just inside a card's outline is a
   region), solid blobs (a card's dense art and text filled into one blob, thin mat print
   opened away), texture density (cards are busy, a mat mostly is not) and corners (two
   straight segments meeting at a right angle). A blob too long for one card is cut
   into cards of the size the table's other cards have.
2. *Snapping and scoring*, for all candidates at once (numpy arrays of quads × sides ×
   shifts × samples, no Python loop per candidate): every side is moved to the outermost
   strong straight edge near it whose gradient runs across the side (the card's outer
   outline, not its inner frame), refitted as a line and intersected with its
   neighbours; the quad is then scored by how much of each side has such an edge and by
   its proportions. The best quads win; a quad lying inside an accepted one (the art
   box, the inner frame) is dropped, and one far from the size of the table's other
   cards (two touching cards, an art box) loses score. Around every quad that may be a
   card's upper part (its title and picture are card-shaped, sideways) the whole card
   is proposed and judged with lower bars (edge and outline share), for a pale text
   box on a pale mat. A last look takes corners whose sides stop further short of them
   (a rounded corner, a faint side broken into pieces), cards a little smaller than
   most, and cards a little bigger where both sides at a corner are in pieces, away
   from the cards already found; whole cards are proposed around those it
   finds too (one may be a part of a card).
3. *Refinement*: the winners' sides are pushed out onto a faint outer outline if one
   lies just outside (a silver border on a grey mat), pulled in off a thin line
   printed on the mat (a zone outline: the mat's colour comes back inside it, before
   the card's edge; ``refine.off_printed_lines``), then snapped once more on a
   half-size (1080p) or full-size copy, probing only pixels next to the sides, on the
   outline they were pushed onto (not the border's stronger inner edge). Two refined
   quads that are the pieces of one card cut by a hand are reported as that card
   (``select.join_cut_cards``).

The edge a side needs is deliberately low (``FinderConfig.edge_grad``): a pale card on a
pale mat has a faint outline, and with a strict threshold only its art box qualified,
or a card half hidden by a hand lost to its two halves (each card-shaped). What keeps
mat print out instead is asking more of the outline (``min_support``): a quad made of
tangents to printed rings and a printed line has edges along ~2/3 of it, a card along
nearly all of it.

Cost, in CPU time, of a 1080p frame of the tune split's composites (ten cards, two
backs, three props; this machine, shared with other work): ~80 ms, of which the
line-segment detector takes ~20 ms on a thread of its own beside the outline stage,
snapping and scoring the candidates ~19 ms, refining the winners ~7 ms, the rough
candidates ~7 ms, the two resizes ~4.5 ms, choosing the cards ~4.5 ms, the edges and
the gradient image ~3.5 ms each. Most candidates come from corners: ~200 a frame are
snapped, against ~10 outlines and blobs. Arrays are laid out x and y apart and written
in place where that is faster, and a ``vision.recognize.Recognizer`` keeps freed
memory for the next frame (``vision.memory``). A snap of a batch costs ~0.35 ms of
array calls whatever its size (before numpy's Python-level helpers were left out,
~0.8 ms), so the finder snaps in few, big batches; quads needing fewer shifts than the
rest of their batch are snapped apart (``snap._reach_split``), and the refinement's
second snaps of some quads reuse the first ones' probes. None of it moves a quad: the
same quads, bit for bit, on 30 tune frames, in ~7% less CPU than before (old and new
interleaved per frame: 86.4 -> 80.2 ms process, 69.7 -> 63.2 ms the main thread).

This module puts the stages together; each lives in ``vision.finding``: the rough
candidates in ``cues`` (outlines, blobs, density) and ``corners`` (segments meeting at
right angles), snapping and scoring in ``snap``, choosing the cards in ``select``,
refining their corners in ``refine``, and arithmetic on many quads at once in ``quads``.
What a found outline holds (a card's face, its back, or no card) is judged after it, by
``vision.card_judge``.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np

from vision.finding.config import FinderConfig
from vision.finding.corners import (
    BIGGER_CARD,
    BROKEN_SIDE,
    CORNER_GAP,
    CORNER_RANK,
    NMS_DIST,
    SMALLER_CARD,
    WIDE_RANK,
    corner_quads,
    dedupe,
    line_segments,
    right_angles,
    suppress,
)
from vision.finding.cues import blurred_lab, edge_map, gradient_image, rough_candidates, split_blob
from vision.finding.quads import long_side, on_frame_edge, shape_scores, side_lengths
from vision.finding.refine import refine
from vision.finding.select import by_table_size, completions, join_cut_cards, select_cards, table_card
from vision.finding.snap import coarse_support, snap_many, support_many
from vision.geometry import CARD_ASPECT, portrait

__all__ = ["Ahead", "FinderConfig", "find_cards", "fine_copy", "finish_cards"]


_worker: ThreadPoolExecutor | None = None


def _side_worker() -> ThreadPoolExecutor:
    """One thread for the part of finding that can run beside the rest."""
    global _worker
    if _worker is None:
        _worker = ThreadPoolExecutor(1, thread_name_prefix="card-finder")
    return _worker


#: ``find_cards``'s ``ahead``: given the cards found before the last look (quads in the
#: search copy's pixels), it may start ``finish_cards`` on them elsewhere and return how
#: to wait for its result (None: it failed), or return None when it cannot.
Ahead = Callable[[np.ndarray], Callable[[], "list[np.ndarray] | None"] | None]


def find_cards(frame: np.ndarray, config: FinderConfig | None = None, ahead: Ahead | None = None
               ) -> list[np.ndarray]:
    """Every card in a BGR frame as a quad in frame pixels, corners clockwise with a
    short side first (upright or upside down: the reader decides which). With two cores,
    ``ahead`` may refine the cards found before the last look on the other while this
    one looks: most often the last look finds nothing more, and then they are the result."""
    cfg = config or FinderConfig()
    fine_scale, scale = _scales(frame, cfg)
    fine = _fine_copy(frame, fine_scale)
    small = cv2.resize(fine, None, fx=scale / fine_scale, fy=scale / fine_scale,
                       interpolation=cv2.INTER_AREA) if scale < fine_scale else fine
    lo, hi = cfg.min_height * scale, cfg.max_height * scale
    # The segment detector needs only the small grey copy: it runs on the other core
    # while the outlines are found and snapped (OpenCV releases the GIL).
    segments_ahead = _side_worker().submit(
        line_segments, cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), lo * CARD_ASPECT * 0.3, cfg.lsd_scale)
    channels = cv2.split(blurred_lab(small))
    edges = edge_map(channels, cfg)
    packed = gradient_image(channels)
    quads, big = rough_candidates(small, edges, lo, hi)
    scored: list[tuple[float, np.ndarray]] = []

    def consider(rough: np.ndarray, grad: float = cfg.edge_grad, support: float = cfg.min_support) -> None:
        if len(rough) == 0:
            return
        rough = rough.astype(np.float32)
        short, _long = side_lengths(rough)
        q, ok = snap_many(rough, packed, np.maximum(3.0, 0.09 * short), grad,
                           samples=cfg.snap_samples)
        q = q[ok]
        q, ok = snap_many(q, packed, np.full(len(q), 2.0, np.float32), grad)
        q = q[ok]
        if len(q) == 0:
            return
        # A side lying along the frame's edge is the frame, not a card's outline.
        shape = shape_scores(q, lo, hi) * ~on_frame_edge(q, small.shape[1], small.shape[0])
        # A quad of no card's shape is not worth measuring its outline.
        q, shape = q[shape > 0], shape[shape > 0]
        if len(q) == 0:
            return
        sup = support_many(q, packed, grad)
        mean = sup.mean(axis=1)
        good = (mean >= support) & (sup.min(axis=1) >= cfg.min_side_support)
        score = mean * shape
        scored.extend((float(score[k]), q[k]) for k in np.nonzero(good)[0])

    consider(np.array(quads, np.float32).reshape(-1, 4, 2))
    corners = right_angles(segments_ahead.result())
    dist = cv2.distanceTransform(255 - edges, cv2.DIST_L2, 3)

    def consider_corners(hypotheses: np.ndarray, rank_needed: float) -> None:
        hypotheses = dedupe(hypotheses)
        if not len(hypotheses):
            return
        # Cheap screen first: most corner hypotheses have no outline along their sides.
        sup = coarse_support(hypotheses, dist, max(3.0, lo * CARD_ASPECT * 0.07))
        rank = sup.mean(axis=1)
        good = np.nonzero((rank >= rank_needed) & (sup.min(axis=1) >= 0.2))[0]
        good = good[np.argsort(-rank[good])][:cfg.max_corner_snaps]
        cand = hypotheses[good]
        if scored and len(cand):
            # A hypothesis on a card already found costs a snap and finds nothing new.
            known = np.stack([q for _s, q in scored])
            kc, kl = known.mean(axis=1), side_lengths(known)[1]
            cc, cl = cand.mean(axis=1), side_lengths(cand)[1]
            near = np.linalg.norm(cc[:, None] - kc[None], axis=2) < 0.12 * kl[None]
            alike = np.abs(cl[:, None] / kl[None] - 1) < 0.12
            cand = cand[~(near & alike).any(axis=1)]
        consider(suppress(cand, NMS_DIST))

    size = long_side([q for _s, q in scored])
    consider_corners(corner_quads(corners, lo, hi, [size] if size else []), CORNER_RANK)
    if size is None and (size := long_side([q for _s, q in scored])):
        # No outline closed into a contour, so the corners were sized by their own
        # segments, often a side's visible part only: size them again by the cards
        # those found.
        consider_corners(corner_quads(corners, lo, hi, [size]), CORNER_RANK)
    # Cards on one table are about the same size: cut blobs of touching cards into cards
    # of the size already found (or, with none found yet, of every plausible size).
    found = long_side([q for _s, q in scored])
    card_long = [found] if found else list(np.linspace(lo, hi, 6)[1:-1])
    cuts = [rough for rect in big for cl in card_long for rough in split_blob(rect, cl)]
    consider(np.array(cuts, np.float32).reshape(-1, 4, 2))
    first = select_cards(list(scored))
    typical = table_card(first)
    consider(completions(first, typical), cfg.completion_grad, cfg.completion_support)
    kept = select_cards(by_table_size(scored, typical))
    before_last_look = np.stack(kept) if kept else None
    finished_ahead = ahead(before_last_look) if ahead and kept else None
    if typical is not None and CORNER_GAP:
        # A last look for cards still missing, from corners whose sides stop short of
        # them (``CORNER_GAP``); hypotheses on cards already found are not snapped.
        known = len(scored)
        last = [corner_quads(corners, lo, hi, [typical], CORNER_GAP)]
        if SMALLER_CARD:
            last.append(corner_quads(corners, lo, hi, [typical * SMALLER_CARD], own_sizes=False))
        if BIGGER_CARD:
            last.append(corner_quads(corners, lo, hi, [typical * BIGGER_CARD], own_sizes=False,
                                     broken=BROKEN_SIDE))
        consider_corners(np.concatenate(last), WIDE_RANK)
        if len(scored) > known:
            kept = select_cards(by_table_size(scored, typical))
            # A card the last look found may be a part of one, as a first look's may. (Around
            # every card kept, not only these, named one more card on holdout but took ~5 ms
            # more per frame: the last look finds some quad in most frames.)
            new = [q for q in kept if before_last_look is None or not (before_last_look == q).all(axis=(1, 2)).any()]
            if new:
                consider(completions(new, typical), cfg.completion_grad, cfg.completion_support)
                kept = select_cards(by_table_size(scored, typical))
    if not kept:
        return []
    found = np.stack(kept)
    if finished_ahead and np.array_equal(found, before_last_look) and (finished := finished_ahead()) is not None:
        return finished
    return _finish(fine, found, fine_scale, scale, cfg)


def finish_cards(frame: np.ndarray, found: np.ndarray, config: FinderConfig | None = None,
                 fine: np.ndarray | None = None) -> list[np.ndarray]:
    """What ``find_cards`` makes of the cards it found (``found``: quads in its search
    copy's pixels, as ``find_cards``'s ``ahead`` is given them): their corners refined,
    in frame pixels. ``fine``: the frame's ``fine_copy``, when the caller has made it."""
    cfg = config or FinderConfig()
    fine_scale, scale = _scales(frame, cfg)
    return _finish(_fine_copy(frame, fine_scale) if fine is None else fine, found, fine_scale, scale, cfg)


def fine_copy(frame: np.ndarray, config: FinderConfig | None = None) -> tuple[np.ndarray, float]:
    """The copy of ``frame`` the finder refines corners on, and its scale: a 1080p frame
    halved (as ``vision.card_judge.judge_all`` halves it too: one copy serves both)."""
    fine_scale, _scale = _scales(frame, config or FinderConfig())
    return _fine_copy(frame, fine_scale), fine_scale


def _scales(frame: np.ndarray, cfg: FinderConfig) -> tuple[float, float]:
    """The frame's scale in the copy corners are refined on, and in the search copy.
    Corners are refined on a half-size copy of a big frame (a 2:1 area resize is nearly
    free and a pixel there is still under 1% of the smallest card's height); candidates
    are searched on a smaller copy still."""
    fh, fw = frame.shape[:2]
    fine_scale = 0.5 if max(fh, fw) >= 1600 and fh % 2 == 0 and fw % 2 == 0 else 1.0
    return fine_scale, min(1.0, cfg.work_long / max(fh, fw))


def _fine_copy(frame: np.ndarray, fine_scale: float) -> np.ndarray:
    return cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA) if fine_scale < 1 else frame


def _finish(fine: np.ndarray, found: np.ndarray, fine_scale: float, scale: float, cfg: FinderConfig
            ) -> list[np.ndarray]:
    quads = found.astype(np.float32) * (fine_scale / scale)
    if cfg.full_res_refine and scale < fine_scale:
        quads = refine(fine, quads, max(2.0, 1.5 * fine_scale / scale), cfg)
    # Pieces of a cut card are told apart best on refined outlines.
    return [portrait(q / fine_scale) for q in join_cut_cards(list(quads))]
