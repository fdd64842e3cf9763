"""Many phones watching one scoreboard: Server-Sent Events clients on plain asyncio streams.

One process runs a few hundred viewers on one event loop. Each asks for ``/api/stream``
in HTTP/1.0 (so the body is the event stream itself, with no chunk framing), waits for
its first message (the reset: the board now), and then notes, for every message, how
long after the entry's time it arrived. An ``httpx`` client costs far more CPU per
message than the server spends sending it; a bare stream reader costs little, so what
is measured is the server.

Only the standard library here: the processes are spawned, and start quickly.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field
from multiprocessing.sharedctypes import Synchronized
from typing import Any

#: Viewers that may be opening their connection at the same moment.
OPENING = 50
#: The head of a message (web.broadcast writes ``seq``, ``at`` and ``kind`` first): a
#: viewer reads only that, not the whole board, so that its own work stays small.
HEAD = re.compile(rb'^data: \{"seq":(\d+),(?:"at":([0-9.e+-]+),)?"kind":"([^"]*)"')


@dataclass
class Seen:
    """What one process's viewers saw: seconds from each entry's time to its arrival, by
    phase; how many of each phase's updates each viewer got; bytes read in each phase."""

    latencies: dict[int, list[float]] = field(default_factory=dict)
    counts: dict[int, list[int]] = field(default_factory=dict)
    bytes_read: dict[int, list[int]] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)


#: The kind of entry the benchmark writes at the end of each phase.
MARK = "bench-mark"


async def watch(host: str, port: int, phases: int, ready: Synchronized[int], seen: Seen,
                opening: asyncio.Semaphore, deadline: float) -> None:
    """One viewer, from connecting until the last phase's mark (or the deadline). The
    entries before the first mark are phase 0, and so on."""
    got, read = [0] * phases, [0] * phases
    phase = 0
    try:
        async with opening:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 30)
            writer.write(b"GET /api/stream HTTP/1.0\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
            await writer.drain()
        started = False
        while time.time() < deadline:
            line = await asyncio.wait_for(reader.readline(), max(0.1, deadline - time.time()))
            if not line:
                break
            if not line.startswith(b"data: "):
                continue
            arrived = time.time()
            head = HEAD.match(line)
            if head is None:
                raise ValueError(f"a message that does not start as web.broadcast writes them: {line[:80]!r}")
            at, kind = head[2], head[3].decode()
            if kind == "reset":
                if not started:
                    started = True
                    with ready.get_lock():
                        ready.value += 1
                continue
            if kind == MARK:
                phase += 1
                if phase == phases:
                    break
                continue
            seen.latencies[phase].append(arrived - float(at or arrived))
            got[phase] += 1
            read[phase] += len(line)
        writer.close()
    except (OSError, TimeoutError, ValueError) as error:
        seen.failed.append(f"{type(error).__name__}: {error}")
    for phase in range(phases):
        seen.counts[phase].append(got[phase])
        seen.bytes_read[phase].append(read[phase])


async def watch_all(host: str, port: int, viewers: int, phases: int, ready: Synchronized[int],
                    deadline: float) -> Seen:
    seen = Seen({p: [] for p in range(phases)}, {p: [] for p in range(phases)}, {p: [] for p in range(phases)})
    opening = asyncio.Semaphore(OPENING)
    await asyncio.gather(*(watch(host, port, phases, ready, seen, opening, deadline) for _ in range(viewers)))
    return seen


def run_viewers(host: str, port: int, viewers: int, phases: int, ready: Synchronized[int],
                deadline: float, results: Any) -> None:
    """A process's share of the viewers; what they saw goes on ``results`` (a queue)."""
    seen = asyncio.run(watch_all(host, port, viewers, phases, ready, deadline))
    results.put(seen)
