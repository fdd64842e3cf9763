"""Scoreboard benchmark: many phones on the live stream, and one that stops reading.

    python -m bench.web [--viewers N] [--updates U] [--interval S] [--processes P]

A live table on a real SQLite record in a temporary folder, served by uvicorn on
127.0.0.1 (a free port) as ``table-assistant serve`` serves it; ``N`` viewers (default
500, spread over ``P`` processes: :mod:`bench.web.viewers`) follow ``/api/stream``. The
table then takes commands (an ended turn: its Checkup, the next player's draw, a new
board of ~1 kB to every phone) in three phases, each closed by a marker entry:

1. ``U`` commands, one every ``S`` seconds, every viewer reading;
2. one more phone asks for the stream and never reads it again (a small receive
   buffer), and commands go on at the same pace until the server has stopped writing
   to it (uvicorn's flow control: its stream waits for the socket to drain), some
   100 commands;
3. ``U`` commands again, one every ``S`` seconds, with that phone still stalled.

For each phase it prints the latency from an entry's time (stamped just before its
commit and sync, so the figure includes the disk) to each viewer's receipt: p50, p95
and the worst (goal: p95 ≤ 200 ms with 500 viewers), and whether every viewer received
every update. The stalled phone slows no one else when phase 3 reads like phase 1.
Everything is on the loopback, and the run stops by itself.
"""

from __future__ import annotations

import argparse
import fcntl
import multiprocessing
import socket
import statistics
import struct
import tempfile
import termios
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn

from assistant.editions import edition
from assistant.live.record import Record
from assistant.live.table import LiveTable
from bench.web.viewers import MARK, Seen, run_viewers
from web.app import create_app

ERA = "mega-evolution-2025"
#: Made-up Pokémon for the bench (no real card's text): two a side.
CARDS = {
    name: {"name": name.capitalize(), "supertype": "Pokémon", "subtypes": ["Basic"], "hp": 120,
           "types": ["Colorless"], "retreatCost": ["Colorless"],
           "attacks": [{"name": "Bump", "cost": ["Colorless"], "damage": "20"}]}
    for name in ("benchmark", "loadtest", "sparemon")
}
END_TURN = {"type": "end_turn"}
#: The server's send buffer for each connection, in bytes (see :func:`main`).
SEND_BUFFER = 16384
#: The phases of a run, as the report names them.
PHASES = ("1. every viewer reading", "2. while one more phone stalls", "3. with the stalled phone")
#: The most commands phase 2 waits for the server to hold the stalled phone.
FILL_LIMIT = 400


def bench_state() -> dict[str, Any]:
    """Turn 2 of a game with big decks, so hundreds of turns end before anyone decks out."""
    def side(active: str) -> dict[str, Any]:
        return {"active": {"card": active, "energy": ["Grass Energy"]}, "bench": [{"card": "sparemon"}],
                "prizes": 6, "deck": 500, "hand": {"count": 7}}

    return {"turn": 2, "current": "A", "first": "A", "players": {"A": side("benchmark"), "B": side("loadtest")}}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def stalled_phone(host: str, port: int) -> socket.socket:
    """A phone that asks for the stream and never reads: its small buffer soon fills."""
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.connect((host, port))
    stalled.sendall(b"GET /api/stream HTTP/1.0\r\nHost: bench\r\n\r\n")
    return stalled


def unread(sock: socket.socket) -> int:
    """Bytes waiting in a socket's receive queue."""
    return int(struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0])


def held_back(server: uvicorn.Server) -> int:
    """How many of the server's connections it has stopped writing to until the phone
    reads (uvicorn's flow control: a stream waits for the socket to drain)."""
    return sum(1 for connection in server.server_state.connections
               if getattr(getattr(connection, "flow", None), "write_paused", False))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=500, help="phones on the stream (default 500)")
    parser.add_argument("--updates", type=int, default=40, help="commands in each measured phase (default 40)")
    parser.add_argument("--interval", type=float, default=0.25, help="seconds between commands (default 0.25)")
    parser.add_argument("--processes", type=int, default=2, help="processes the viewers run in (default 2)")
    args = parser.parse_args(argv)
    if args.viewers < 1 or args.updates < 1 or args.processes < 1 or args.interval < 0:
        parser.error("viewers, updates and processes are at least 1, the interval at least 0")

    with tempfile.TemporaryDirectory(prefix="bench-web-") as folder, \
            Record(Path(folder) / "games.sqlite") as record:
        table = LiveTable.start(record, edition(ERA), bench_state(), lambda ref: None, cards=CARDS)
        app = create_app(table, token="bench")
        listener = socket.socket()
        # Linux lets a loopback connection's send buffer grow to megabytes, which would
        # hide a stalled phone for minutes; 16 kB (32 kB as the kernel counts it) is
        # what a phone's closed window leaves over a real network soon enough.
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        listener.bind(("127.0.0.1", 0))
        host, port = listener.getsockname()
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", backlog=4096,
                                               timeout_graceful_shutdown=2))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)

        deadline = time.time() + 120 + 2 * args.updates * (args.interval + 0.5)
        spawn = multiprocessing.get_context("spawn")
        ready = spawn.Value("i", 0)
        results = spawn.Queue()
        shares = [args.viewers // args.processes + (i < args.viewers % args.processes) for i in range(args.processes)]
        workers = [spawn.Process(target=run_viewers, args=(host, port, share, len(PHASES), ready, deadline, results),
                                 daemon=True) for share in shares if share]
        for worker in workers:
            worker.start()
        connected_by = time.time() + 60
        while ready.value < args.viewers and time.time() < connected_by:
            time.sleep(0.05)
        print(f"{ready.value} of {args.viewers} viewers connected to http://{host}:{port}/api/stream "
              f"in {len(workers)} processes")

        commands = []
        for phase in range(len(PHASES)):
            if phase == 1:  # one more phone that never reads, and commands until the server holds it
                stalled = stalled_phone(host, port)
                count = 0
                while held_back(server) == 0 and count < FILL_LIMIT:
                    table.propose(END_TURN)
                    count += 1
                    time.sleep(args.interval)
            else:
                for count in range(1, args.updates + 1):  # noqa: B007 - the count is reported
                    table.propose(END_TURN)
                    time.sleep(args.interval)
            commands.append(count)
            table.note(MARK, {"phase": phase})
        seen = [results.get(timeout=max(1.0, deadline - time.time() + 5)) for _ in workers]
        for worker in workers:
            worker.join(5)
        report(args.viewers, commands, seen, unread(stalled), held_back(server))
        stalled.close()
        app.state.broadcast.close()
        server.should_exit = True
        thread.join(10)
        listener.close()
    return 0


def report(viewers: int, commands: list[int], seen: list[Seen], backlog: int, paused: int) -> None:
    failed = [failure for part in seen for failure in part.failed]
    for phase, title in enumerate(PHASES):
        latencies = [value for part in seen for value in part.latencies[phase]]
        counts = [value for part in seen for value in part.counts[phase]]
        got = [value for part in seen for value in part.bytes_read[phase]]
        complete = sum(1 for count in counts if count == commands[phase])
        if not latencies:
            print(f"{title}: nothing received")
            continue
        print(f"{title}: {commands[phase]} commands; {complete}/{viewers} viewers got every one; latency p50 "
              f"{1000 * statistics.median(latencies):.0f} ms, p95 {1000 * percentile(latencies, 0.95):.0f} ms, "
              f"max {1000 * max(latencies):.0f} ms; {statistics.mean(got) / 1024:.0f} kB to each viewer")
    print(f"the stalled phone read nothing: {backlog / 1024:.1f} kB wait in its socket; the server holds "
          f"{paused} connection(s) until they read (that phone's stream waits; no one else's does)")
    if failed:
        print(f"{len(failed)} viewers failed, e.g. {failed[0]}")


if __name__ == "__main__":
    raise SystemExit(main())
