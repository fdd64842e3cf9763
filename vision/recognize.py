"""The per-frame pipeline: find cards, decide their way up, read and name them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.finder import FinderConfig, find_cards
from vision.geometry import rotation_of, turn_180
from vision.names import ACCEPT, NameMatch, NameMatcher
from vision.ocr import Tesseract, read_title, text_lines, title_band


@dataclass
class CardReading:
    """One card in one frame. ``quad`` is in printed order (SPEC §2)."""

    quad: np.ndarray
    rotation: int
    name: str | None
    card_id: str | None
    confidence: float
    text: str = ""

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "id": self.card_id,
            "confidence": round(float(self.confidence), 3),
            "quad": [[int(round(x)), int(round(y))] for x, y in self.quad],
            "rotation": self.rotation,
        }


def _title_score(frame: np.ndarray, quad: np.ndarray) -> float:
    """How title-like the band at the quad's top is (no OCR): the upright end of a card
    has a row of big letters there, the bottom end small print."""
    lines = text_lines(title_band(frame, quad), max_lines=1)
    if not lines:
        return 0.0
    x0, y0, x1, y1, _ = lines[0]
    return float((x1 - x0) * (y1 - y0))


class Recognizer:
    """Finds and names the cards of single frames."""

    def __init__(self, matcher: NameMatcher, finder: FinderConfig | None = None,
                 engine: Tesseract | None = None) -> None:
        self.matcher = matcher
        self.finder = finder or FinderConfig()
        self.engine = engine or Tesseract()

    def find(self, frame: np.ndarray) -> list[np.ndarray]:
        return find_cards(frame, self.finder)

    def orient(self, frame: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
        """Both ways up of a found quad, the likelier first."""
        other = turn_180(quad)
        if _title_score(frame, other) > _title_score(frame, quad):
            return [other, quad]
        return [quad, other]

    def read(self, frame: np.ndarray, quad: np.ndarray, hint: tuple[str, ...] = ()
             ) -> CardReading | None:
        """Name the card at ``quad``: OCR the likelier way up, the other only if needed.
        None when neither end has a line of letters: not a card, or not one to read."""
        best: tuple[NameMatch, np.ndarray] | None = None
        ways = self.orient(frame, quad)
        seen_text = False
        for way in ways:
            reads = read_title(self.engine, frame, way)
            seen_text = seen_text or bool(reads)
            match = self.matcher.match([r.text for r in reads], hint)
            if best is None or match.confidence > best[0].confidence:
                best = (match, way)
            if match.confidence >= ACCEPT:
                break
        assert best is not None
        if not seen_text:
            return None
        match, way = best
        if match.name is None:
            way = ways[0]
        match = self.matcher.decide(match)
        return CardReading(way, rotation_of(way), match.name, match.card_id,
                           match.confidence, match.text)

    def recognize(self, frame: np.ndarray, hint: tuple[str, ...] = ()) -> list[CardReading]:
        readings = (self.read(frame, q, hint) for q in self.find(frame))
        return [r for r in readings if r is not None]
