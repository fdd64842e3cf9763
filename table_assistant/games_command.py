"""``table-assistant games [--db PATH] [--json]``: the stored games and matches.

Every game a table has held (``run``, ``serve``, ``demo``) is kept in the game record,
``$TABLE_ASSISTANT_HOME/games.sqlite`` unless ``--db`` names another. This lists them,
oldest first, with their match; ``serve --db PATH --game N`` takes one up again.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TextIO

from assistant.live.record import Record, RecordError, default_record_path


def list_games(db: str | None, as_json: bool, out: TextIO, err: TextIO) -> int:
    """0, or 2 when the record cannot be read. A record that does not exist yet holds
    no games (it is not made here)."""
    path = Path(db) if db else default_record_path()
    if not path.exists():
        if as_json:
            out.write(json.dumps({"record": str(path), "games": [], "matches": []}) + "\n")
        else:
            print(f"no games stored yet ({path} does not exist)", file=out)
        return 0
    try:
        with Record(path) as record:
            games = record.games()
            matches = record.matches()
    except RecordError as error:
        print(f"games: {error}", file=err)
        return 2
    if as_json:
        out.write(json.dumps({
            "record": str(path),
            "games": [{"id": g.id, "created": g.created, "era": g.era, "title": g.title, "match": g.match_id,
                       "entries": g.entries, "last_at": g.last_at} for g in games],
            "matches": [{"id": m, "created": created, **settings} for m, created, settings in matches],
        }, ensure_ascii=False) + "\n")
        return 0
    print(f"{len(games)} game{'s' if len(games) != 1 else ''} and {len(matches)} "
          f"match{'es' if len(matches) != 1 else ''} in {path}", file=out)
    for g in games:
        match = f"match {g.match_id}" if g.match_id is not None else "no match"
        last = f"last entry {_when(g.last_at)}" if g.last_at else "no entry yet"
        title = f" {g.title!r}" if g.title else ""
        print(f"game {g.id}{title}: {g.era}, {match}, {g.entries} entries, started {_when(g.created)}, {last}",
              file=out)
    for match_id, created, settings in matches:
        print(f"match {match_id}: best of {settings.get('best_of', 3)}, {settings.get('era')}, "
              f"{settings.get('round_minutes')} minute rounds, started {_when(created)}", file=out)
    return 0


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at))
