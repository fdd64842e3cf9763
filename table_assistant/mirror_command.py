"""``table-assistant mirror SRC [--deck-a F] [--deck-b F] [--era ERA] [--layout FILE] --json`` (SPEC §1).

Plays a video, an image folder or a camera through vision (find, read, track) and the
table mirror (:mod:`assistant.mirror`), without the dashboard, and prints each action
the mirror infers as one JSON line: the SPEC §3 action with ``player``, ``frame``,
``t`` (seconds into the source) and ``verdict``.

Vision's view of a card jitters and names take a few frames to settle, so the mirror
is shown a snapshot only once the table has held still: the same cards, names, turns
and rows for :data:`STEADY` frames in a row. A hand reaching across the table thus
makes no actions of its own. Each frame's reads are hinted with the deck cards that
evolve from the Pokémon already on the table, so a Stage 1 laid on its Basic is read
among its few likely names first.

Nobody ends a turn here (there is no person to ask), but the table shows whose turn it
is: the source starts as player A's turn, and a play by the other player that would be
legal once the turn passed is inferred as ``end_turn`` first. Pending actions stay
pending.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from assistant.editions import Edition
from assistant.mat_layout import MatLayout
from assistant.mirror import SeenCard, TableLayout, TableMirror
from assistant.quoting import quote

if TYPE_CHECKING:  # vision is imported when a command runs, not when the command line starts
    from table_assistant.recognize_command import Candidates
    from vision.markers import MatFix
    from vision.sources import Frame

#: Frames the table must hold still before the mirror looks at it.
STEADY = 3
#: A card's edges are looked at for tucked Energy one frame in this many (~1 ms a card):
#: an Energy slid under a Pokémon shows at most this many frames later.
TUCKED_EVERY = 3
#: The starting position waits for every card's name to settle, but no longer than
#: this many frames: a card vision cannot read must not stall the mirror for ever.
WARMUP = 30


def mirror(source: str, deck_files: Sequence[str], rules: Edition, as_json: bool, out: TextIO,
           err: TextIO | None = None, give_up: float | None = None, mat: MatLayout | None = None) -> int:
    """Run the source to its end; 0, or 2 for an unreadable source or deck list, or a
    live source (camera, stream) that gives no frame for ``give_up`` seconds (default
    :data:`vision.sources.GIVE_UP`); "waiting for camera…" goes to ``err`` meanwhile.
    ``mat``: the mat's zones (the usual playmat by default)."""
    from table_assistant.recognize_command import candidate_names

    err = err or sys.stderr
    candidates = candidate_names(list(deck_files), err)
    if not candidates.ok:
        return 2
    layout = TableLayout.for_mat(mat)
    table = TableMirror(rules, layout)

    def shown(frame: Frame, snapshot: list[SeenCard]) -> None:
        for inference in table.see(snapshot):
            out.write(_line(inference.to_json(frame=frame.index, t=round(frame.t, 3)), as_json))
            out.flush()

    return settled_pictures(source, candidates, layout, lambda: table.game is not None, shown,
                            give_up=give_up, err=err, command="mirror")


def settled_pictures(source: str, candidates: Candidates, layout: TableLayout, started: Callable[[], bool],
                     shown: Callable[[Frame, list[SeenCard]], None], *, give_up: float | None, err: TextIO,
                     command: str, watch: Callable[[Frame, list, MatFix | None], None] | None = None) -> int:
    """Read ``source`` to its end through vision (find, read, track), and call
    ``shown(frame, cards)`` with each settled picture of the table (see :class:`_Steady`;
    ``started`` says whether the mirror has its starting position yet). 0 at the end;
    2, said on ``err``, for a source that cannot be read or a live one that gives up.
    ``watch(frame, tracked, fix)``, if given, sees every frame with vision's tracked
    cards and the mat's fix in use (the camera view draws them). When the mat's corner
    markers are in view (:mod:`vision.markers`), or the judge tapped its corners
    (``layout.corners``), cards are placed on the mat rather than in the image, so a
    nudged camera moves no card between zones."""
    from vision.markers import MatFollower
    from vision.recognize import Recognizer
    from vision.sources import GIVE_UP, SourceTimeout, open_source
    from vision.tracker import Tracker
    from vision.tucked import energy_names, tucked_energy

    tracker = Tracker(Recognizer(candidates.matcher()))
    energy = energy_names(name for name, _ in candidates.deck)  # what may lie tucked under a card
    steady = _Steady(layout)
    mat = MatFollower()
    patience = GIVE_UP if give_up is None else give_up

    def waiting() -> None:
        print(f"waiting for camera… ({quote(source)}; giving up after {patience:g} s)", file=err, flush=True)

    frames = open_source(source, give_up=patience, on_wait=waiting)
    tracked: list = []  # the cards of the last frame: their evolutions are the hint
    tucked: dict[int, tuple[str, ...]] = {}  # by track: the Energy last seen under it
    count = 0
    try:
        for frame in frames:
            count += 1
            height, width = frame.image.shape[:2]
            hint = candidates.hint(card.name for card in tracked)
            tracked = tracker.update(frame.image, hint)
            fix = mat.update(frame.image, layout.corners)
            if watch is not None:
                watch(frame, tracked, fix)
            for card in tracked:  # each card's edges looked at one frame in TUCKED_EVERY
                if (card.track_id + count) % TUCKED_EVERY == 0 or card.track_id not in tucked:
                    looked = card.visible and card.settled and card.name not in energy.values()
                    tucked[card.track_id] = tucked_energy(frame.image, card.quad, energy) if looked else ()
            snapshot = [_seen(card, width, height, fix, tucked[card.track_id]) for card in tracked if card.visible]
            if steady.ready(snapshot, started=started(), frame=frame.index):
                shown(frame, snapshot)
    except SourceTimeout as timeout:
        why = f" ({quote(timeout.last_event)})" if timeout.last_event else ""
        print(f"{command}: gave up on {quote(source)}: no frame for {timeout.waited:.1f} s{why}; "
              "check that the camera is connected and the number or address is right "
              "(--timeout SECONDS waits longer)", file=err)
        return 2
    finally:
        frames.close()
    if count == 0:
        why = "; ".join(frames.events) or "no frames"
        print(f"{command}: cannot read source {quote(source)}: {quote(why)}", file=err)
        return 2
    return 0


def _line(record: dict, as_json: bool) -> str:
    if as_json:
        return json.dumps(record, ensure_ascii=False) + "\n"
    details = " ".join(f"{k}={v}" for k, v in record.items()
                       if k not in ("type", "player", "frame", "t", "verdict"))
    return (f"frame {record['frame']} ({record['t']:.2f} s): {record['player']} {record['type']} "
            f"{details}: {record['verdict']}\n")


def _seen(card, width: int, height: int, fix: MatFix | None = None,  # noqa: ANN001 - vision's TrackedCard
          tucked: tuple[str, ...] = ()) -> SeenCard:
    """A tracked card as the mirror sees it: a name only once vision has settled it;
    where it lies as fractions of the mat when the mat is fixed, else of the image; the
    Energy tucked under it (:mod:`vision.tucked`)."""
    x, y = (float(v) for v in card.quad.mean(axis=0))
    x, y = fix.to_mat(x, y) if fix is not None else (x / width, y / height)
    name = card.name if card.settled else None
    return SeenCard(card.track_id, name, card.card_id if name else None, x, y, int(card.rotation), tucked)


class _Steady:
    """Lets a snapshot through once it has held still for :data:`STEADY` frames and
    differs from the last one let through."""

    def __init__(self, layout: TableLayout) -> None:
        self.layout = layout
        self.key: frozenset | None = None
        self.held = 0
        self.shown: frozenset | None = None

    def ready(self, snapshot: list[SeenCard], started: bool, frame: int) -> bool:
        key = frozenset((c.track, c.name, c.rotation, self.layout.place(c), c.tucked) for c in snapshot)
        self.held = self.held + 1 if key == self.key else 1
        self.key = key
        if self.held < STEADY or key == self.shown:
            return False
        if not started:
            named = [c for c in snapshot if c.name is not None]
            if not named or (len(named) < len(snapshot) and frame < WARMUP):
                return False
        self.shown = key
        return True
