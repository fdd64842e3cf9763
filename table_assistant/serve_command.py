"""``table-assistant serve [--db PATH] [--game N | --new] [--era ERA]``: the dashboard and
API alone, over a stored or new game fed by the console (SPEC §1).

Which game: ``--game N`` takes up stored game N where its record stops; ``--new``
starts a new match; with neither, the newest stored game is taken up, or a new match
is started when the record holds none. A new match's first game starts at setup with
both decks unknown (60 face-down cards each): the console enters what happens, the
engine checks it, and nothing hidden is ever guessed.

The console's address carries its token (``--token``, or one made at start): whoever
has it may change the game, so it is printed here and nowhere else. The round clock is
ticked every second: when time is up the table records "time called" once.
"""

from __future__ import annotations

import contextlib
import secrets
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from assistant.cards import Card
from assistant.editions import Edition
from assistant.live.match import Match
from assistant.live.record import Record, RecordError, default_record_path
from assistant.live.table import LiveTable
from assistant.paths import StorageError

#: Seconds between two looks at the round clock.
TICK_S = 1.0


def unknown_decks(rules: Edition) -> dict[str, Any]:
    """The SPEC §3 state before setup: each player's whole deck face down."""
    player = {"deck": 60, "hand": 0, "prizes": 0, "bench": []}
    return {"turn": 1, "current": "A", "first": "A", "phase": "setup",
            "players": {"A": dict(player), "B": dict(player)}}


def no_lookup(ref: str) -> Card | None:
    """Cards are found in the embedded set and the imported database (the card book's own)."""
    return None


@dataclass
class Held:
    """The game a server holds, and the match it belongs to (if any)."""

    record: Record
    table: LiveTable
    match: Match | None


def hold_game(db: str | None, game: int | None, new: bool, rules: Edition,
              lookup: Callable[[str], Card | None] = no_lookup) -> Held:
    """Open the record and take up (or start) the game; :class:`RecordError` (or
    :class:`GameInUse`) says why not."""
    record = Record(Path(db) if db else default_record_path())
    try:
        stored = record.games()
        if game is not None and game not in {g.id for g in stored}:
            known = ", ".join(str(g.id) for g in stored) or "none"
            raise RecordError(f"{record.path}: there is no game {game} (stored games: {known}; "
                              "'table-assistant games' lists them)")
        if not new and (game is not None or stored):
            game_id = game if game is not None else stored[-1].id
            _era, _setup, match_id = record.game(game_id)
            if match_id is None:
                return Held(record, LiveTable.open(record, game_id, lookup), None)
            match = Match(record, match_id, lookup)
            return Held(record, match.table(game_id), match)  # the match's score reads this very table
        match = Match.create(record, rules, lookup)
        table = match.new_game(rules, unknown_decks(rules))
        return Held(record, table, match)
    except BaseException:
        record.close()
        raise


def serve(db: str | None, game: int | None, new: bool, rules: Edition, host: str, port: int,
          token: str | None, out: TextIO, err: TextIO) -> int:
    """Serve until stopped (Ctrl-C: 0); 2 when the game cannot be held or the address
    cannot be listened on."""
    from web.app import create_app

    try:
        listening = listen(host, port)
    except OSError as error:
        print(f"serve: cannot listen on {host}:{port} ({error.strerror or error}); "
              "choose another --port, or stop what uses this one", file=err)
        return 2
    try:
        held = hold_game(db, game, new, rules)
    except (RecordError, StorageError) as error:  # GameInUse too
        listening.close()
        print(f"serve: {error}", file=err)
        return 2
    token = token or secrets.token_urlsafe(12)
    app = create_app(held.table, token=token, match=held.match)
    stop = threading.Event()
    if held.match is not None:
        threading.Thread(target=_tick, args=(held.match, stop), daemon=True, name="round clock").start()
    table = held.table
    print(f"game {table.game_id} ({table.edition.era}), entry {table.seq}, in {held.record.path}", file=out)
    announce(host, port, token, out)
    try:
        serve_app(app, listening)
    finally:
        stop.set()
        held.record.close()
    return 0


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to the address, before anything is printed: a port in use is a
    clear error, not a half-started server. ``OSError`` when it cannot be bound."""
    family, kind, proto, _name, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
    except OSError:
        listening.close()
        raise
    return listening


def serve_app(app: Any, listening: socket.socket) -> None:
    """Serve ``app`` on the bound socket until Ctrl-C."""
    import uvicorn

    # a phone's open stream must not hold the server up after Ctrl-C
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[listening])


def announce(host: str, port: int, token: str, out: TextIO) -> None:
    """The two addresses: everyone's scoreboard, and the console with its token."""
    print(f"scoreboard: http://{host}:{port}/", file=out)
    print(f"records:    http://{host}:{port}/records", file=out)
    print(f"console:    http://{host}:{port}/console?token={token}", file=out, flush=True)


def _tick(match: Match, stop: threading.Event) -> None:
    while not stop.wait(TICK_S):
        try:
            match.tick()
        except Exception as error:  # noqa: BLE001 - the clock must never take the server down
            print(f"serve: the round clock could not be checked: {error}", file=sys.stderr)
