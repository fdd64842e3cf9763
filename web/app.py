"""The web app over one live table: the spectators' scoreboard, the judge's console, and
the REST API (with OpenAPI at ``/docs``) both use.

Spectators (no token) may read: the scoreboard at ``/``, the board and the public
snapshot, and the live stream. Everything that changes the table, and everything that
may show hidden information (what a question offers, the record's refusals), is under
``/api/console/`` and needs the console's token: as ``Authorization: Bearer TOKEN``, or
``?token=TOKEN`` where a browser cannot set a header (the console's link, its stream).
No token is 401, a wrong one 403.

A command the table cannot take is a clear 4xx with ``{"error": message}``: 400 for a
malformed command or a disallowed answer, 404 for a question that is not open, 409 for
what cannot be done now (flipping for a question that is no coin, the clock); a
refused action is no error but the table's answer, ``accepted: false`` with its alert
(reason code, rule, and the rulebook line a person reads).
"""

from __future__ import annotations

import asyncio
import io
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import segno
from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from assistant.cards import Card
from assistant.engine.positions import CardBook
from assistant.live.match import ClockState, Match
from assistant.live.questions import AnswerError, CoinQuestion
from assistant.live.record import RecordError
from assistant.live.table import CommandError, LiveTable, Reply
from assistant.table_layout import TableLayout
from web.broadcast import Broadcast
from web.camera import CardPictures, Frames, camera_router
from web.console import attack_form, checkup
from web.records import records_router

STATIC = Path(__file__).resolve().parent / "static"


class Proposal(BaseModel):
    action: dict[str, Any] = Field(description="a SPEC §3 action, e.g. {\"type\": \"attack\", \"attack\": \"Tackle\"}")
    source: str = Field("console", description="camera, console or device")


class Answer(BaseModel):
    answer: str = Field(description="one of the question's answers")
    source: str = Field("console", description="console or device")


class Rewind(BaseModel):
    to: int = Field(description="the entry to go back to: every action after it stops counting")
    reason: str = Field(description="why: it is on the record for both players")


class Penalty(BaseModel):
    player: str = Field(description="A or B")
    kind: str = Field(description="caution, warning, prize-penalty or game-loss")
    reason: str


class Clock(BaseModel):
    do: str = Field(description="start, pause or resume")


def pairing_svg(link: str) -> bytes:
    """A QR code of ``link`` as SVG: dark on light, with its quiet zone, for any screen."""
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=6, dark="#000", light="#fff", border=4)
    return out.getvalue()


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _readable(error: RequestValidationError) -> str:
    """Pydantic's complaints as one sentence: "body.reason: Field required"."""
    parts = []
    for problem in error.errors():
        where = ".".join(str(part) for part in problem.get("loc", ()))
        parts.append(f"{where}: {problem.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def _given_token(request: Request, authorization: str | None, token: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return token or request.headers.get("x-console-token")


def create_app(table: LiveTable, *, token: str | None = None, match: Match | None = None,
               lookup: Callable[[str], Card | None] | None = None, public_url: str | None = None,
               title: str = "Table Assistant", camera: Frames | None = None,
               layout: TableLayout | None = None, cards: CardPictures | None = None) -> FastAPI:
    """The app over ``table`` (and the ``match`` it belongs to, for the round clock and
    the score). ``token`` unlocks the console (one is made when none is given: read it
    from ``app.state.token``); ``lookup`` finds the cards the game names by id, as the
    table's own lookup does (the card database when None). ``public_url`` is the address
    phones reach the server at (``http://192.168.1.20:8000/``), for the pairing QR code;
    by default, the address the judge's screen used. ``camera`` gives the camera's
    latest annotated frame (JPEG), ``cards`` a card's picture in it, and ``layout`` the
    mat's zones the judge may calibrate (:mod:`web.camera`); a table kept by hand has
    none of them."""
    token = token or secrets.token_urlsafe(16)
    _era, setup, _match = table.record.game(table.game_id)
    book = CardBook(setup.get("cards") or {}, lookup)

    read_clock: list[tuple[float, ClockState]] = []  # when the clock was last read, and what it said
    if match is not None:
        match.tables.setdefault(table.game_id, table)  # the score reads this table, not a second copy

    def extras(kind: str | None) -> dict[str, Any]:
        """The match's round clock and score. The clock is read from the record again
        only after an entry that may have moved it; between, it runs on from the last
        reading."""
        if match is None:
            return {"clock": None, "score": None}
        now = match.now()
        if kind in (None, "clock", "time") or not read_clock:
            read_clock[:] = [(now, match.clock())]
        at, state = read_clock[0]
        if state.running:
            state = replace(state, elapsed=state.elapsed + now - at)
        return {"clock": state.to_json(), "score": match.score()}

    broadcast = Broadcast(table, book.resolve, extras=extras)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        broadcast.start(asyncio.get_running_loop())
        try:
            yield
        finally:
            broadcast.close()

    app = FastAPI(title=title, summary="A live Pokémon TCG table: scoreboard, judge's console, live stream.",
                  lifespan=lifespan)
    app.state.token = token
    app.state.broadcast = broadcast
    app.state.table = table

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        return _error(error.status_code, str(error.detail), dict(error.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(422, _readable(error))

    @app.exception_handler(CommandError)
    async def command_error(request: Request, error: CommandError) -> JSONResponse:
        return _error(400, str(error))

    @app.exception_handler(AnswerError)
    async def answer_error(request: Request, error: AnswerError) -> JSONResponse:
        return _error(400, str(error))

    @app.exception_handler(RecordError)
    async def record_error(request: Request, error: RecordError) -> JSONResponse:
        return _error(503, f"the game's record cannot be written: {error}")

    def console(request: Request, authorization: str | None = Header(None),
                token_query: str | None = Query(None, alias="token")) -> None:
        given = _given_token(request, authorization, token_query)
        if not given:
            raise HTTPException(401, "the console needs its token (Authorization: Bearer TOKEN)",
                                headers={"WWW-Authenticate": "Bearer"})
        if not secrets.compare_digest(given.encode(), token.encode()):
            raise HTTPException(403, "that is not this table's console token")

    def judge(request: Request, authorization: str | None = Header(None),
              token_query: str | None = Query(None, alias="token")) -> bool:
        """Whether the judge asks (the console's token); a spectator gives none. A
        wrong token is refused rather than shown the spectators' view."""
        if not _given_token(request, authorization, token_query):
            return False
        console(request, authorization, token_query)
        return True

    def last_event_id(last_event_id: str | None = Header(None), after: int | None = Query(None)) -> int | None:
        """Where a stream resumes: the browser's Last-Event-ID, or ``?after=N``."""
        if last_event_id is not None:
            try:
                return int(last_event_id)
            except ValueError:
                return None  # not one of ours: start afresh
        return after

    def stream(after: int | None, view_console: bool) -> StreamingResponse:
        return StreamingResponse(broadcast.stream(after, console=view_console), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    # -- spectators ------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def scoreboard_page() -> FileResponse:
        return FileResponse(STATIC / "scoreboard.html")

    @app.get("/api/board", tags=["spectators"])
    def get_board() -> dict[str, Any]:
        """The scoreboard now: both sides with names and HP left, this turn's flags,
        the clock; hands, decks and Prize cards as counts."""
        return broadcast.board()

    @app.get("/api/snapshot", tags=["spectators"])
    def get_snapshot() -> dict[str, Any]:
        """The table's public snapshot (SPEC §3 position, cards by reference); open
        questions only as a count."""
        snapshot = table.snapshot().to_json()
        state = dict(snapshot["state"])
        state["waiting"] = len(state.pop("questions", None) or ())
        return {**snapshot, "state": state}

    @app.get("/api/stream", tags=["spectators"], response_class=StreamingResponse)
    async def get_stream(after: int | None = Depends(last_event_id)) -> StreamingResponse:
        """Server-Sent Events: a reset (the board and recent lines), then one message
        per entry of the record, its number as the event id. Reconnecting with
        ``Last-Event-ID`` (or ``?after=``) resumes after that entry."""
        return stream(after, False)

    # -- the console -----------------------------------------------------------------

    @app.get("/console", response_class=HTMLResponse, include_in_schema=False)
    def console_page(token_query: str | None = Query(None, alias="token")) -> Any:
        return judges_page(token_query, STATIC / "console.html")

    def judges_page(token_query: str | None, page: Path) -> FileResponse:
        """``page`` for the console token's holder; the locked page for anyone else."""
        if not token_query or not secrets.compare_digest(token_query.encode(), token.encode()):
            return FileResponse(STATIC / "locked.html", status_code=401 if not token_query else 403)
        return FileResponse(page)

    guarded = [Depends(console)]

    @app.get("/api/console/questions", tags=["console"], dependencies=guarded)
    def get_questions() -> list[dict[str, Any]]:
        """The questions waiting for a person, oldest first."""
        return [question.to_json() for question in list(table.questions.values())]

    @app.get("/api/console/stream", tags=["console"], dependencies=guarded, response_class=StreamingResponse)
    async def get_console_stream(after: int | None = Depends(last_event_id)) -> StreamingResponse:
        """The stream as the console sees it: refusals with their rulebook line, and the
        open questions with every message."""
        return stream(after, True)

    @app.get("/api/console/pairing.svg", tags=["console"], dependencies=guarded, response_class=Response)
    def pairing(request: Request) -> Response:
        """A QR code of the console's link, token included: a phone that scans it from
        the judge's screen opens the console."""
        base = (public_url or str(request.base_url)).rstrip("/")
        return Response(pairing_svg(f"{base}/console?token={token}"), media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    @app.get("/api/console/attack", tags=["console"], dependencies=guarded)
    def get_attack_form() -> dict[str, Any]:
        """What the attack form offers now: the Active Pokémon of the player whose turn
        it is, its attacks (cost, printed damage), and the Pokémon an attack may also hit."""
        return attack_form(table.position_copy())

    @app.get("/api/console/checkup", tags=["console"], dependencies=guarded)
    def get_checkup() -> dict[str, Any]:
        """Pokémon Checkup step by step: the Special Conditions the next one looks at,
        the coin asked now while a turn ends (and those flipped), and the last one's steps."""
        return checkup(table.position_copy(), list(table.questions.values()), table.standing)

    @app.post("/api/console/actions", tags=["console"], dependencies=guarded)
    def propose(proposal: Proposal) -> dict[str, Any]:
        """Propose an action (SPEC §3). Accepted: its events. Refused: the alert. A coin
        the table cannot see: a question."""
        return table.propose(proposal.action, proposal.source).to_json()

    def open_question(question_id: int) -> Any:
        question = table.questions.get(question_id)
        if question is None:
            raise HTTPException(404, f"question {question_id} is not open (open: {sorted(table.questions) or 'none'})")
        return question

    @app.post("/api/console/questions/{question_id}/answer", tags=["console"], dependencies=guarded)
    def answer(question_id: int, body: Answer) -> dict[str, Any]:
        """Answer an open question; a coin's answer resumes the action that flipped."""
        open_question(question_id)
        return table.answer(question_id, body.answer, body.source).to_json()

    @app.post("/api/console/questions/{question_id}/flip", tags=["console"], dependencies=guarded)
    def flip(question_id: int) -> dict[str, Any]:
        """Answer a coin question with the program's own coin."""
        if not isinstance(open_question(question_id), CoinQuestion):
            raise HTTPException(409, f"question {question_id} is not a coin flip")
        return table.flip(question_id).to_json()

    @app.post("/api/console/rewind", tags=["console"], dependencies=guarded)
    def rewind(body: Rewind) -> dict[str, Any]:
        """Take back every action after an entry, with a reason: a logged correction."""
        return table.rewind(body.to, body.reason).to_json()

    @app.post("/api/console/penalties", tags=["console"], dependencies=guarded)
    def penalty(body: Penalty) -> dict[str, Any]:
        """Note a penalty: caution, warning, prize-penalty or game-loss."""
        return table.penalty(body.player, body.kind, body.reason).to_json()

    @app.post("/api/console/clock", tags=["console"], dependencies=guarded)
    def clock(body: Clock) -> dict[str, Any]:
        """Start, pause or resume the round clock (a table in a match only)."""
        if match is None:
            raise HTTPException(404, "this table is not part of a match: it has no round clock")
        moves: dict[str, Callable[[], Reply]] = {"start": match.start_clock, "pause": match.pause_clock,
                                                 "resume": match.resume_clock}
        if body.do not in moves:
            raise HTTPException(400, f"the clock can start, pause or resume, not {body.do!r}")
        try:
            return moves[body.do]().to_json()
        except CommandError as error:
            raise HTTPException(409, str(error)) from None

    # -- the records -----------------------------------------------------------------

    app.include_router(records_router(table.record, lookup, judge, STATIC / "replay.html"))
    app.include_router(camera_router(camera, layout, console, judges_page, STATIC, cards))

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
