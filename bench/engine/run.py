"""Engine benchmark: random legal self-play with the embedded decks.

    python bench/engine/run.py [--games N] [--seed S] [--era ERA]
    python -m bench.engine      (from the repository root)

Prints actions per second, complete games per second, and the p50/p99 time to check
and apply one action (``Game.check`` for the chosen action plus ``Game.play``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from assistant.editions import edition  # noqa: E402
from assistant.embedded import embedded_decks  # noqa: E402
from assistant.engine.coins import SeededCoins  # noqa: E402
from assistant.engine.selfplay import candidates, new_game  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--era", default="mega-evolution-2025")
    parser.add_argument("--max-actions", type=int, default=2000)
    args = parser.parse_args(argv)

    decks = list(embedded_decks().values())
    profile = edition(args.era)
    per_action: list[float] = []
    actions = complete = checks = 0
    wins: Counter[str] = Counter()
    started = time.perf_counter()
    for n in range(args.games):
        rng = random.Random(args.seed + n)
        game = new_game(decks[n % 2], decks[(n + 1) % 2], profile, SeededCoins(args.seed + n), rng)
        count = 0
        while game.position.winner is None and count < args.max_actions:
            for action in candidates(game, rng):
                t0 = time.perf_counter()
                refusal = game.check(action)
                checks += 1
                if refusal is None:
                    game.play(action)
                    per_action.append(time.perf_counter() - t0)
                    break
            count += 1
        actions += count
        if game.position.winner is not None:
            complete += 1
            why = game.position.win_reasons[0] if game.position.win_reasons else "?"
            wins[why] += 1
    elapsed = time.perf_counter() - started
    per_action.sort()
    p50 = statistics.median(per_action) * 1e6
    p99 = per_action[int(len(per_action) * 0.99)] * 1e6
    print(f"engine bench: {args.games} games, era {profile.era}, embedded decks {', '.join(embedded_decks())}")
    print(f"  actions/s           {actions / elapsed:,.0f}  ({actions} actions, {checks} legality checks)")
    print(f"  complete games/s    {complete / elapsed:,.1f}  ({complete}/{args.games} finished; "
          + ", ".join(f"{k} {v}" for k, v in sorted(wins.items())) + ")")
    print(f"  check+apply/action  p50 {p50:.1f} µs, p99 {p99:.1f} µs")
    print(f"  wall time           {elapsed:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
