"""What the card finder accepts and how hard it looks: ``FinderConfig``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FinderConfig:
    """Card sizes the finder accepts, as printed height in full-frame pixels."""

    min_height: float = 140.0
    max_height: float = 560.0
    #: Search at this many pixels along the frame's longest side.
    work_long: int = 640
    canny_low: int = 20
    canny_high: int = 60
    #: Gradient (Sobel / 4 on a 0..255 channel) a card outline must have across a side.
    #: 28 missed the faint outline of pale cards on a pale mat (the art box won); 20
    #: finds them and, with ``min_support`` 0.7, more real cards than 28 with 0.62 did
    #: (tune split: recall 88-100% instead of 87-93% per height band) with fewer false
    #: finds.
    edge_grad: float = 20.0
    #: Mean fraction of the outline with such an edge for a quad to be a card. (0.62
    #: at ``edge_grad`` 28; with the lower bar mat print offers more edges, and a quad of
    #: tangents to printed rings and a printed line reached 0.66.)
    min_support: float = 0.7
    #: Fraction every single side must reach (a hand may hide part of one side).
    min_side_support: float = 0.3
    #: At most this many corner hypotheses are snapped (best screened first). A cap of
    #: 60 saves ~15% of the time but loses ~10 points of recall on the real composites
    #: (tune split), so by default there is none.
    max_corner_snaps: int = 1000
    #: Samples per side in the first, wide snap of every candidate.
    snap_samples: int = 16
    #: The edge a whole card proposed around a part of one (``completions``) needs
    #: along its sides: half ``edge_grad``, since the part missed is most often a pale
    #: text box on a pale mat (tune split, cards left without a quad of IoU >= 0.6: 11 of
    #: 270 -> 7; at 14, 8; at 20, 9).
    completion_grad: float = 10.0
    #: ... and ``min_support`` there. A card upside down with its pale text half on a
    #: pale mat had an edge along 0.69 of its outline at that bar, and only its
    #: picture and name were found (tune split).
    completion_support: float = 0.65
    #: Refine corners on finer pixels (half size for a 1080p frame, else full size).
    full_res_refine: bool = True
    #: Gradient an edge needs in that refinement. The finer pixels show an outline
    #: sharper than the search image does, and a higher bar there keeps a corner on the
    #: card's outline rather than on a faint shadow or sleeve edge next to it.
    refine_grad: float = 28.0
    #: Look this far (fraction of the card's width) outside a found outline for a faint
    #: outer one: a silver border on a grey mat has a weak outer edge and a strong inner
    #: one (border to art), and the first snap takes the strong one.
    border_search: float = 0.06
    #: ... accepting an edge of this fraction of ``refine_grad`` there, along at least
    #: ``border_support`` of the side.
    border_grad: float = 0.35
    border_support: float = 0.55
    #: Samples per side in that search (32 costs ~3 ms more and found the same corners,
    #: tune split).
    border_samples: int = 16
    #: The line-segment detector's own downscale of the search image (its default). At
    #: 0.7 it is ~2 ms faster but found 4 fewer of 221 cards (tune split).
    lsd_scale: float = 0.8
