"""The record, read back: the stored games and matches, a match's timeline, a game's replay.

Everything here reads the same :class:`~assistant.live.record.Record` the live table
writes (``table.record``), and changes nothing. Two views, as on the live stream:

- a spectator's (no token): every entry both players could see, in words; the
  corrections, the penalties and the result;
- the judge's (the console's token): the same, with each refused action and its
  rulebook line, and what the table's questions offered (which may name a card in a
  hand, so a spectator never sees it).

A match's record is JSON (``/api/records/matches/N``) and a printable page
(``/records/matches/N``); a game is replayed on the scoreboard one entry at a time
(``/records/games/N``, reading ``/api/records/games/N/replay?at=E``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Query
from fastapi.responses import FileResponse, HTMLResponse

from assistant.cards import Card
from assistant.live.record import GameSummary, Record, RecordError
from assistant.live.table import Alert
from web.narrate import entry_lines
from web.record_pages import list_page, match_page
from web.replay import Replay, ReplayError, step

#: The card lookup a replay passes to its card book (None: the card database).
Lookup = Callable[[str], Card | None] | None


def summary_json(game: GameSummary) -> dict[str, Any]:
    return {"id": game.id, "title": game.title, "era": game.era, "match": game.match_id, "created": game.created,
            "entries": game.entries, "last_at": game.last_at}


def records_json(record: Record) -> dict[str, Any]:
    """The stored games and matches, oldest first."""
    games = record.games()
    return {
        "games": [summary_json(game) for game in games],
        "matches": [{"id": match_id, "created": created, "settings": settings,
                     "games": [game.id for game in games if game.match_id == match_id]}
                    for match_id, created, settings in record.matches()],
    }


def game_record(record: Record, game_id: int, *, console: bool = False, lookup: Lookup = None) -> dict[str, Any]:
    """One game's record: its timeline in words (each entry with what it said), its
    corrections, penalties and result; for the judge, its refusals with their
    rulebook line too."""
    replay = Replay(record, game_id, lookup)
    title = next((game.title for game in record.games() if game.id == game_id), "")
    timeline, refusals, corrections, penalties = [], [], [], []
    for entry in replay.entries:
        before = replay.board() if entry.kind == "action" else None  # names the Pokémon its events speak of
        replay.take(entry)
        lines = entry_lines(entry, before, console=console)
        if lines:
            timeline.append({"seq": entry.seq, "at": entry.at, "kind": entry.kind, "lines": lines})
        body = entry.body
        if entry.kind == "alert" and console:
            refusals.append({"seq": entry.seq, "at": entry.at, **Alert.from_entry(entry).to_json()})
        elif entry.kind == "rewind":
            corrections.append({"seq": entry.seq, "at": entry.at, **body})
        elif entry.kind == "penalty":
            penalties.append({"seq": entry.seq, "at": entry.at, **body})
    data = {"id": game_id, "title": title, "era": replay.era, "match": replay.match_id,
            "entries": len(replay.entries), "timeline": timeline, "corrections": corrections,
            "penalties": penalties, "result": replay.result}
    if console:
        data["refusals"] = refusals
    return data


def match_record(record: Record, match_id: int, *, console: bool = False, lookup: Lookup = None) -> dict[str, Any]:
    """A match's record: its settings, each game's record, the score and the result
    (the first to win two games)."""
    settings = record.match(match_id)
    games = [game_record(record, game_id, console=console, lookup=lookup) for game_id in record.match_games(match_id)]
    winners = [(game["result"] or {}).get("winner") for game in games]
    score = {player: winners.count(player) for player in ("A", "B")}
    winner = next((player for player, wins in score.items() if wins >= 2), None)
    return {"id": match_id, "settings": settings, "games": games, "score": score,
            "result": {"winner": winner, "score": score} if winner else None,
            "view": "judge" if console else "spectator"}


def records_router(record: Record, lookup: Lookup, judge: Callable[..., bool], replay_page: Any) -> APIRouter:
    """The records' routes. ``judge`` is a dependency: True with the console's token,
    False without one (a wrong token is refused by it); ``replay_page`` is the file of
    the replay page."""
    router = APIRouter()

    def known_game(game_id: int) -> None:
        if game_id not in {game.id for game in record.games()}:
            raise HTTPException(404, f"there is no game {game_id} in the record ('/api/records' lists them)")

    def readable(build: Callable[[], Any]) -> Any:
        try:
            return build()
        except RecordError as error:
            raise HTTPException(404, str(error).split(": ", 1)[-1]) from None
        except ReplayError as error:
            raise HTTPException(409, str(error)) from None

    @router.get("/api/records", tags=["records"])
    def get_records() -> dict[str, Any]:
        """The stored games (with their number of entries) and matches (with their games)."""
        return records_json(record)

    @router.get("/records", response_class=HTMLResponse, tags=["records"])
    def get_records_page() -> HTMLResponse:
        """The stored games and matches as a page, each with its links."""
        return HTMLResponse(list_page(records_json(record)))

    @router.get("/api/records/games/{game_id}", tags=["records"])
    def get_game(game_id: int, console: bool = Depends(judge)) -> dict[str, Any]:
        """A stored game's record: timeline in words, corrections, penalties, result
        (and, with the console's token, its refusals)."""
        known_game(game_id)
        return readable(lambda: game_record(record, game_id, console=console, lookup=lookup))

    @router.get("/api/records/games/{game_id}/replay", tags=["records"])
    def get_step(game_id: int, at: int | None = Query(None, description="the entry (0: the setup; none: the last)"),
                 console: bool = Depends(judge)) -> dict[str, Any]:
        """The scoreboard after entry ``at`` of a stored game, and that entry in words."""
        known_game(game_id)
        try:
            return readable(lambda: step(record, game_id, at, console=console, lookup=lookup).to_json())
        except ValueError as error:
            raise HTTPException(400, str(error)) from None

    @router.get("/records/games/{game_id}", response_class=HTMLResponse, tags=["records"])
    def get_replay_page(game_id: int) -> FileResponse:
        """A stored game on the scoreboard, one entry at a time (forward and back)."""
        known_game(game_id)
        return FileResponse(replay_page)

    @router.get("/api/records/matches/{match_id}", tags=["records"])
    def get_match(match_id: int, console: bool = Depends(judge)) -> dict[str, Any]:
        """A match's record: each game's timeline, corrections, penalties and result, and
        the match's score (with the console's token, the refusals too)."""
        return readable(lambda: match_record(record, match_id, console=console, lookup=lookup))

    @router.get("/records/matches/{match_id}", response_class=HTMLResponse, tags=["records"])
    def get_match_page(match_id: int, console: bool = Depends(judge)) -> HTMLResponse:
        """A match's record as a printable page (``?token=`` for the judge's, with refusals)."""
        return HTMLResponse(match_page(readable(lambda: match_record(record, match_id, console=console,
                                                                     lookup=lookup))))

    return router
