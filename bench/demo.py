"""``python -m bench.demo``: the mirror on the demo video, timed.

For each action the mirror infers, how long after the table settled it came: a step's
cards are settled once the hand that moved them has left the picture (frame
``schedule[i] + HAND_BEFORE + HAND_AFTER`` of the rendered video), and the action is
counted at the frame whose settled picture produced it. Also the CPU the vision loop and
the mirror take per frame of 1280×720 video, against the 100 ms a frame lasts at 10 fps
(the second reader's process included, from its own clock).

Prints figures only. ``--shake SEED`` films the table badly (dropped frames, flicker,
jitter), as the demo's robustness test does.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_THREAD_LIMIT", "1")


def _cpu_seconds() -> float:
    """This process's CPU, and that of its children that have ended (the second reader
    is asked to end before this is read)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.demo", description=__doc__.splitlines()[0])
    parser.add_argument("--shake", type=int, default=None, help="film the table badly with this seed")
    args = parser.parse_args(argv)

    from assistant.editions import edition
    from assistant.live.demo_script import SCRIPT, Seen
    from assistant.mirror import TableLayout, TableMirror
    from table_assistant.demo_command import _prepare, demo_hit_points
    from table_assistant.mirror_command import settled_pictures
    from vision.demo_video import HAND_AFTER, HAND_BEFORE, demo_video

    with tempfile.TemporaryDirectory() as folder:
        prepared = _prepare(Path(folder), io.StringIO(), io.StringIO())
        assert prepared is not None
        candidates, video = prepared
        if args.shake is not None:  # the same hit points; only the filming differs
            video = demo_video(Path(folder), demo_hit_points(), shake=args.shake)
        settled_at = [start + HAND_BEFORE + HAND_AFTER
                      for start, step in zip(video.schedule, SCRIPT, strict=True) if isinstance(step, Seen)]

        layout = TableLayout()
        table = TableMirror(edition("mega-evolution-2025"), layout)
        actions: list[tuple[int, str, str]] = []

        def shown(frame, snapshot) -> None:  # noqa: ANN001 - vision's Frame
            for inference in table.see(snapshot):
                actions.append((frame.index, inference.action.type, inference.verdict))

        cpu, wall = _cpu_seconds(), time.perf_counter()
        settled_pictures(str(video.path), candidates, layout, lambda: table.game is not None, shown,
                         give_up=10.0, err=io.StringIO(), command="bench")
        _end_second_readers()
        cpu, wall = _cpu_seconds() - cpu, time.perf_counter() - wall

    latencies = []
    for frame, kind, _ in actions:
        if kind == "end_turn":  # inferred from the next player's play: timed with that play
            continue
        before = [s for s in settled_at if s <= frame]
        if before:
            latencies.append(frame - before[-1])
    accepted = sum(verdict == "accepted" for _, _, verdict in actions)
    ms = 1000 / video.fps
    print(f"demo video: {video.frames} frames at {video.fps:g} fps, 1280x720"
          + (f", shaken (seed {args.shake})" if args.shake is not None else ""))
    print(f"actions: {len(actions)} inferred, {accepted} accepted")
    if latencies:
        print(f"latency from settled cards to the action, frames (n={len(latencies)}): "
              f"median {statistics.median(latencies):g}, min {min(latencies)}, max {max(latencies)}"
              f"  = {statistics.median(latencies) * ms:.0f} ms median, {max(latencies) * ms:.0f} ms max")
    per_frame = 1000 * cpu / video.frames
    print(f"CPU: {cpu:.1f} s for {video.frames / video.fps:.1f} s of video (wall {wall:.1f} s): "
          f"{per_frame:.0f} ms a frame, {per_frame / ms:.2f} of one core in real time")
    return 0


def _end_second_readers() -> None:
    """End the second reader's process so its CPU is counted (RUSAGE_CHILDREN)."""
    import gc
    import multiprocessing

    gc.collect()
    for child in multiprocessing.active_children():
        child.terminate()
        child.join(5)


if __name__ == "__main__":
    raise SystemExit(main())
