"""A frame's blur, told from the frame itself, and undone around a card before it is read.

A webcam out of focus spreads every point of the table into a disc; a camera or a card
moving while the shutter is open smears it into a short line. Either is the blur's
*point spread function* (PSF). At 200-260 px a card's title capitals are ~10 px tall,
and a smear of 3-9 px or a disc of 1-3 px leaves too little of them for a line reader:
on the tune split's 200-260 px frames, 48 of 119 cards were named under such a smear
and 65 out of focus, against 115 in plain frames.

**Telling the blur: the cepstrum.** A blurred frame is its sharp picture convolved with
the PSF, so its power spectrum is the product of theirs, and the log of its spectrum
their sum. The spectrum of a line of length L is zero along parallel lines 1/L apart
across its direction, and that of a disc along rings, so a blurred frame's log spectrum
ripples with that period. The inverse transform of the log spectrum (the *cepstrum*)
turns the ripple into a sharp dip: a spot at distance L along the smear's direction
(both ways), or a ring at about the disc's diameter. The sharp picture's own cepstrum
is a smooth hump around the origin.

So the power spectra of tiles over the cards found (``TILE`` px square, where the
frame's detail is) are averaged, and of their cepstrum the part in ``RING`` (past the
picture's hump, within the longest blur worth undoing) is kept; what a smooth radial
trend explains is taken out (``_SMOOTH``); what remains is matched against the cepstra
of candidate PSFs (``candidates``: lines of 3-13 px at every 7.5°, discs of radius 1-5
px). The best candidate's fit (its share in the remainder's direction, 1 for a match
of its depth) says whether the frame has that blur at all: a frame whose best fit is
under ``MIN_FIT`` is taken as sharp.

**Undoing it: Wiener deconvolution** (``NOISE``: the noise's power against the
picture's, which keeps it from amplifying noise where the PSF's spectrum is near zero),
over the card's neighbourhood only (``MARGIN``: the reads look a little past a card's
outline), colour by colour, before the card is read.

``bench.vision.conditions --split tune --seed 2``, 200-260 px, deck lists, cards named on
whole frames: under a smear 48 -> 112 of 119, out of focus 65 -> 97 (the whole frame
undone with the true PSF before finding, a first check, had named 109 each); 260-330
px 66 -> 106 and 84 -> 114. Plain frames, sleeves and hands read exactly as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

#: Side of a tile (px) whose spectrum is taken: a card of 200 px is ~145 px wide.
TILE = 128
#: Tile centres on a grid of this step (px) inside each card's outline ...
TILE_STEP = 64
#: ... and at most this many tiles a frame (evenly chosen among them).
MAX_TILES = 24
#: Distances from the cepstrum's origin (px) that are matched: past the sharp picture's
#: own hump, up to a little past the longest candidate.
RING = (2.0, 16.0)
#: Lengths (px) of the candidate smears, at ``ANGLES`` directions over half a turn ...
SMEAR_LENGTHS = tuple(range(3, 14))
ANGLES = 24
#: ... and radii (px) of the candidate discs.
DISC_RADII = (1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0)
#: The floor added to a candidate's power spectrum before its log: a frame's noise fills
#: its blur's zeros, so their dips are finite.
SPECTRUM_FLOOR = 1e-2
#: A frame whose best candidate fits less than this is sharp. Tune split, 200-260 px:
#: true smears of 4 px and more and discs of 2 px and more fit 0.7-2.7; the best fits of
#: plain frames (a long vertical smear, matched by the picture's own structure) 0.2-0.4.
MIN_FIT = 0.6
#: Wiener deconvolution's noise-to-signal power ratio.
NOISE = 0.01
#: The neighbourhood of a card that is deconvolved, as a share of its long side on every
#: side: the reads look up to ``vision.card_reading.TOP_SHIFT`` (0.1) past its top, and at
#: a card made whole from an outline too short.
MARGIN = 0.3


@dataclass(frozen=True)
class Blur:
    """A frame's blur: ``psf``, its point spread function (a small kernel summing to
    1), what it is in words, and how well it fits the frame's cepstrum."""

    what: str
    psf: np.ndarray
    fit: float


def smear(length: float, angle: float) -> np.ndarray:
    """The PSF of a straight smear ``length`` px long at ``angle`` (radians from the
    x axis): an anti-aliased line."""
    size = int(math.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    half = (length - 1) / 2 * np.float32([math.cos(angle), math.sin(angle)])
    mid = np.float32([size // 2, size // 2])
    cv2.line(kernel, tuple(int(v) for v in np.round(mid - half)), tuple(int(v) for v in np.round(mid + half)),
             1.0, 1, cv2.LINE_AA)
    return kernel / kernel.sum()


def disc(radius: float) -> np.ndarray:
    """The PSF of a lens out of focus: a disc of ``radius`` px (its edge pixels weighed by
    how much of them it covers)."""
    size = 2 * int(math.ceil(radius)) + 1
    fine = 8
    yy, xx = (np.mgrid[0:size * fine, 0:size * fine] + 0.5) / fine - size / 2
    kernel = (np.hypot(yy, xx) <= radius).astype(np.float32).reshape(size, fine, size, fine).mean(axis=(1, 3))
    return kernel / kernel.sum()


@cache
def _ring_mask() -> np.ndarray:
    """The cepstrum's pixels at ``RING``'s distances from its origin."""
    half = TILE // 2
    yy, xx = np.mgrid[-half:half, -half:half]
    r = np.hypot(yy, xx)
    return (r >= RING[0]) & (r <= RING[1])


@cache
def _smooth_basis() -> np.ndarray:
    """An orthonormal basis of smooth radial trends over ``RING``'s cepstrum pixels: the
    sharp picture's hump, which a match must not take for a blur."""
    half = TILE // 2
    yy, xx = np.mgrid[-half:half, -half:half]
    r = np.hypot(yy, xx)[_ring_mask()]
    trends = np.stack([np.ones_like(r), 1 / r, 1 / r ** 2, 1 / r ** 3, np.exp(-r / 3)], axis=1)
    return np.linalg.qr(trends)[0]


def _cepstrum(power: np.ndarray) -> np.ndarray:
    """The cepstrum of power spectra (..., TILE, TILE // 2 + 1: the half a real
    picture's spectrum needs), origin in the middle. A power spectrum is real and even,
    so its log's inverse transform is real."""
    return np.fft.fftshift(np.fft.irfft2(np.log(power), s=(TILE, TILE)), axes=(-2, -1))


def _without_trend(cepstra: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """Cepstra (rows of ``RING``'s pixels) less what ``basis``' smooth trends explain."""
    return cepstra - (cepstra @ basis) @ basis.T


@cache
def candidates() -> tuple[tuple[str, ...], tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    """The candidate blurs: their descriptions, PSFs, cepstra over ``RING`` (less the
    smooth trend, one row each), and each cepstrum's energy (its squared length)."""
    psfs: list[tuple[str, np.ndarray]] = [
        (f"a smear of {length} px at {180 * k / ANGLES:.1f}°", smear(length, math.pi * k / ANGLES))
        for length in SMEAR_LENGTHS for k in range(ANGLES)]
    psfs += [(f"out of focus, a disc of {radius:g} px", disc(radius)) for radius in DISC_RADII]
    padded = np.zeros((len(psfs), TILE, TILE), np.float32)
    for row, (_what, psf) in zip(padded, psfs, strict=True):
        row[:psf.shape[0], :psf.shape[1]] = psf
    power = np.abs(np.fft.rfft2(padded)) ** 2
    cepstra = _cepstrum(power + SPECTRUM_FLOOR)[:, _ring_mask()]
    cepstra = _without_trend(cepstra, _smooth_basis())
    return (tuple(what for what, _psf in psfs), tuple(psf for _what, psf in psfs), cepstra,
            (cepstra ** 2).sum(axis=1))


def _tile_corners(shape: tuple[int, ...], quads: list[np.ndarray]) -> list[tuple[int, int]]:
    """Top-left corners of the tiles over the cards at ``quads``: on a grid inside each
    outline, moved inside the frame; at most ``MAX_TILES``, evenly chosen."""
    height, width = shape[:2]
    half = TILE // 2
    corners = []
    for quad in quads:
        quad = np.asarray(quad, np.float32)
        x0, y0 = quad.min(axis=0)
        x1, y1 = quad.max(axis=0)
        for y in np.arange(y0 + TILE_STEP / 2, y1, TILE_STEP):
            for x in np.arange(x0 + TILE_STEP / 2, x1, TILE_STEP):
                if cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(x), float(y)), False) >= 0:
                    corners.append((int(min(max(x - half, 0), width - TILE)),
                                    int(min(max(y - half, 0), height - TILE))))
    if len(corners) > MAX_TILES:
        corners = [corners[int(k)] for k in np.linspace(0, len(corners) - 1, MAX_TILES)]
    return corners


def estimate(frame: np.ndarray, quads: list[np.ndarray]) -> Blur | None:
    """The blur of ``frame`` (BGR or grey), told from the cards at ``quads``; None when it
    is sharp (no candidate fits ``MIN_FIT``), or there is no card, or the frame is smaller
    than a tile."""
    if frame.shape[0] < TILE or frame.shape[1] < TILE:
        return None
    corners = _tile_corners(frame.shape, quads)
    if not corners:
        return None
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    power = np.zeros((TILE, TILE), np.float32)
    for x, y in corners:
        tile = grey[y:y + TILE, x:x + TILE].astype(np.float32)
        spectrum = cv2.dft((tile - tile.mean()) * _window(), flags=cv2.DFT_COMPLEX_OUTPUT)
        power += cv2.magnitude(spectrum[..., 0], spectrum[..., 1]) ** 2
    power = power[:, :TILE // 2 + 1] / len(corners)
    # The floor keeps an empty frequency's log finite; it is far below any picture's power.
    seen = _without_trend(_cepstrum(power + 1e-3)[_ring_mask()][None], _smooth_basis())[0]
    descriptions, psfs, cepstra, energies = candidates()
    along = cepstra @ seen
    fits = along / energies
    # The best candidate explains most of what was seen: its projection's share.
    best = int(np.argmax(np.where(along > 0, along * fits, 0.0)))
    if along[best] <= 0 or fits[best] < MIN_FIT:
        return None
    return Blur(descriptions[best], psfs[best], float(fits[best]))


@cache
def _window() -> np.ndarray:
    """A Hann window over a tile: its edges do not ring in the spectrum."""
    return np.outer(np.hanning(TILE), np.hanning(TILE)).astype(np.float32)


def undone_around(frame: np.ndarray, quad: np.ndarray, blur: Blur) -> tuple[np.ndarray, np.ndarray]:
    """The neighbourhood of the card at ``quad`` (``MARGIN``) with ``blur`` undone, and
    its top-left corner in ``frame`` (x, y): ``quad`` less that corner is the card's
    outline in it."""
    quad = np.asarray(quad, np.float32)
    long_side = float(max(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))
    margin = MARGIN * long_side
    height, width = frame.shape[:2]
    x0, y0 = (int(max(0, math.floor(v - margin))) for v in quad.min(axis=0))
    x1 = int(min(width, math.ceil(quad[:, 0].max() + margin)))
    y1 = int(min(height, math.ceil(quad[:, 1].max() + margin)))
    crop = frame[y0:y1, x0:x1]
    if not crop.size:  # the card lies outside the frame: nothing of it to undo
        return frame, np.float32([0, 0])
    pad = 2 * max(blur.psf.shape)
    padded = padded_for_dft(crop, pad)
    rows, cols = padded.shape[:2]
    gain = _wiener_gain(blur.psf, rows, cols)
    channels = [padded] if padded.ndim == 2 else cv2.split(padded)
    sharp = [cv2.idft(cv2.mulSpectrums(cv2.dft(c.astype(np.float32), flags=cv2.DFT_COMPLEX_OUTPUT), gain, 0),
                      flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)[pad:pad + crop.shape[0], pad:pad + crop.shape[1]]
             for c in channels]
    out = sharp[0] if len(sharp) == 1 else cv2.merge(sharp)
    return np.clip(out, 0, 255).astype(np.uint8), np.float32([x0, y0])


def padded_for_dft(image: np.ndarray, pad: int) -> np.ndarray:
    """``image`` mirrored ``pad`` px out on every side, and on past its bottom and right
    edges to sizes OpenCV's DFT is fast at. A deconvolution wraps around: a cut edge
    would ring into the picture, a mirrored one does not."""
    h, w = image.shape[:2]
    rows, cols = cv2.getOptimalDFTSize(h + 2 * pad), cv2.getOptimalDFTSize(w + 2 * pad)
    return cv2.copyMakeBorder(image, pad, rows - h - pad, pad, cols - w - pad, cv2.BORDER_REFLECT)


def _wiener_gain(psf: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The Wiener filter undoing ``psf`` on a rows x cols image, as OpenCV's two-channel
    spectrum: conj(K) / (|K|^2 + ``NOISE``), K the PSF's spectrum."""
    kernel = np.zeros((rows, cols), np.float32)
    k = psf.shape[0]
    kernel[:k, :k] = psf
    kernel = np.roll(kernel, (-(k // 2), -(k // 2)), axis=(0, 1))  # its middle at the origin
    spectrum = cv2.dft(kernel, flags=cv2.DFT_COMPLEX_OUTPUT)
    re, im = spectrum[..., 0], spectrum[..., 1]
    power = re * re + im * im + NOISE
    return cv2.merge([re / power, -im / power])
