"""Live-table benchmark: how fast commands become durable, and how fast a game resumes.

    python -m bench.table [--commands N] [--followers K] [--seed S]

A random legal self-play game (the embedded decks) is fed to a :class:`LiveTable` on a
real SQLite record in a temporary folder, one command at a time, as the console would:
each coin the table asks for is flipped by the software coin (a second command). While
it plays, ``K`` followers read the feed on their own threads, and one more follower
never reads at all (it must slow nobody down). Prints:

- durable entries per second (each committed with ``synchronous=FULL`` before the reply);
- the time from a command to its durable reply: p50, p99 and the worst (goal: p99 ≤ 20 ms);
- how long a stored game of 500 entries takes to resume (goal ≤ 200 ms): opening its
  record and folding every entry back into a table, best and median of 5.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from assistant.editions import edition
from assistant.embedded import embedded_decks
from assistant.engine.actions import action_to_json
from assistant.engine.coins import SeededCoins
from assistant.engine.positions import CardBook, position_to_json
from assistant.engine.selfplay import candidates, new_game
from assistant.live.record import Record
from assistant.live.table import LiveTable

RESUME_ENTRIES = 500


def no_lookup(ref: str) -> None:
    """Every card of the embedded decks is found by the card book's own catalog."""
    return None


def play(table: LiveTable, book: CardBook, rng: random.Random, commands: int, attacks: float = 1.0) -> list[float]:
    """Feed the table random legal actions (attacks only at the rate ``attacks``, for a
    longer game); the seconds each command took to its reply."""
    took: list[float] = []
    while len(took) < commands and table.result is None:
        tried = [a for a in candidates(table.game, rng) if a.type != "attack" or rng.random() < attacks]
        action = next(a for a in tried if table.game.check(a) is None)
        raw = action_to_json(action, book.ref)
        started = time.perf_counter()
        reply = table.propose(raw, source="console")
        took.append(time.perf_counter() - started)
        while reply.questions and len(took) < commands:
            started = time.perf_counter()
            reply = table.flip(reply.questions[0].id)
            took.append(time.perf_counter() - started)
    return took


def new_table(record: Record, seed: int) -> tuple[LiveTable, CardBook]:
    decks = list(embedded_decks().values())
    rules = edition("mega-evolution-2025")
    game = new_game(decks[0], decks[1], rules, SeededCoins(seed), random.Random(seed), record=False)
    book = CardBook()
    state = position_to_json(game.position, book)
    return LiveTable.start(record, rules, state, no_lookup, software_coin=SeededCoins(seed)), book


def follow(table: LiveTable, count: int, stop: threading.Event) -> list[threading.Thread]:
    def reader() -> None:
        subscription = table.subscribe(after=table.seq)
        while not stop.is_set():
            subscription.get(timeout=0.1)
        subscription.close()

    threads = [threading.Thread(target=reader, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    table.subscribe(after=table.seq)  # the stalled one: never read
    return threads


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=1000, help="commands to send (default 1000)")
    parser.add_argument("--followers", type=int, default=8, help="followers reading the feed (default 8)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.sqlite"
        record = Record(path)
        took: list[float] = []
        entries = 0
        longest = (0, 0)  # (entries, game id)
        seed = args.seed
        started = time.perf_counter()
        while len(took) < args.commands:
            table, book = new_table(record, seed)
            stop = threading.Event()
            threads = follow(table, args.followers, stop)
            took += play(table, book, random.Random(seed), args.commands - len(took))
            stop.set()
            for thread in threads:
                thread.join()
            entries += table.seq
            longest = max(longest, (table.seq, table.game_id))
            seed += 1
        elapsed = time.perf_counter() - started
        print(f"{len(took)} commands, {entries} durable entries in {elapsed:.2f} s "
              f"({seed - args.seed} games, {args.followers} followers + 1 stalled)")
        print(f"durable entries per second: {entries / elapsed:.0f}")
        print(f"command to durable reply: p50 {percentile(took, 0.5) * 1e3:.2f} ms, "
              f"p99 {percentile(took, 0.99) * 1e3:.2f} ms, worst {max(took) * 1e3:.2f} ms (goal p99 <= 20 ms)")

        # a game of RESUME_ENTRIES entries (few attacks, so that it lasts; when it ends
        # anyway, the judge takes its last ten actions back and play goes on), resumed as
        # a restarted program does
        table, book = new_table(record, args.seed + 1000)
        rng = random.Random(args.seed)
        while table.seq < RESUME_ENTRIES:
            if table.result is not None:
                table.rewind(table.standing[-10].seq - 1, "benchmark: play on")
            play(table, book, rng, RESUME_ENTRIES - table.seq, attacks=0.1)
        game_id, seq = table.game_id, table.seq
        rewinds = sum(entry.kind == "rewind" for entry in record.entries(game_id))
        record.close()
        times = []
        for _ in range(5):
            started = time.perf_counter()
            again = Record(path)
            resumed = LiveTable.open(again, game_id, no_lookup)
            times.append(time.perf_counter() - started)
            assert resumed.seq == seq
            again.close()
        print(f"resume a game of {seq} entries ({len(resumed.standing)} standing actions, "
              f"{rewinds} rewinds): "
              f"best {min(times) * 1e3:.1f} ms, median {statistics.median(times) * 1e3:.1f} ms (goal <= 200 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
