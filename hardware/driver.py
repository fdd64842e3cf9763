"""The table board following a live table: the entry point the command line uses.

    attachment = attach(table, "auto")          # or a port path, "sim", "none"
    ...
    attachment.stop()

The driver subscribes to the table. As entries arrive it shows each Pokémon's damage
and the turn and alert lights (:mod:`hardware.board_state`); each open coin question is
flipped by the board and answered with source ``device``, so the record says the board
decided it. A coin never waits forever: when the board has not answered a question
within ``coin_timeout`` seconds (unplugged, not found, noise source failed), the
``fallback`` decides: ``"software"`` flips the program's own coin (source
``software``), ``"console"`` leaves the question to a person.

Each flip is named by a token made from the game and the question, and the board
remembers the last token it flipped (in EEPROM, through a reset), so asking again after
a lost reply, a reset or a replug gets the same side: no coin result is lost or
duplicated. After a reconnect or a restart of the board, the whole state is shown again
in one message, so no display stays stale.
"""

from __future__ import annotations

import logging
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from assistant.live.feed import Snapshot, Subscription, Update
from assistant.live.questions import AnswerError
from assistant.live.table import CommandError, LiveTable
from hardware.board_state import board_state
from hardware.link import BoardError, BoardLink, LinkDown
from hardware.ports import PortFinder
from hardware.protocol import BoardState
from hardware.simulated import SimulatedBoard

log = logging.getLogger("table_assistant.hardware")

FALLBACKS = ("software", "console")
#: Seconds between two tries to find or reopen the board.
RECONNECT_EVERY = 0.5


@dataclass
class DriverStats:
    """What the driver did: for the console's status line and the tests."""

    connects: int = 0
    shows: int = 0
    device_coins: int = 0
    fallback_coins: int = 0
    left_to_console: list[int] = field(default_factory=list)
    last_error: str = ""


def coin_token(game_created: float, game_id: int, question_id: int) -> int:
    """The name of one question's flip: the same for the same question of the same game,
    after a restart of the program too, and different from any other game's."""
    return zlib.crc32(f"{game_created!r}:{game_id}:{question_id}".encode())


@dataclass
class _View:
    """What the driver knows while it follows a table."""

    state: dict[str, Any] = field(default_factory=dict)   # the table's last snapshot
    alert: bool = False                                   # its last word was a refusal
    shown: BoardState | None = None                       # what the board is known to show
    restarts: int = 0                                     # the board's restarts already answered
    first_seen: dict[int, float] = field(default_factory=dict)  # coin question → first seen
    done: set[int] = field(default_factory=set)           # coin questions answered or left to a person
    next_connect: float = 0.0
    last_sent: float = field(default_factory=time.monotonic)

    def take(self, subscription: Subscription) -> bool:
        """Read what the table said (waiting briefly); whether anything changed."""
        item = subscription.get(timeout=0.05)
        changed = False
        while item is not None:
            changed = True
            if isinstance(item, Update) and item.entry.kind in ("alert", "action", "rewind"):
                self.alert = item.entry.kind == "alert"
            elif isinstance(item, Snapshot):
                self.alert = False
            item = subscription.get(timeout=0)
        return changed

    def open_coins(self, now: float) -> list[int]:
        """The coin questions still to flip."""
        questions = self.state.get("questions", [])
        coins = [q["id"] for q in questions if q.get("kind") == "coin" and q["id"] not in self.done]
        for question_id in coins:
            self.first_seen.setdefault(question_id, now)
        return coins


class Attachment:
    """A board (or none) following one table, on its own thread until :meth:`stop`."""

    def __init__(self, table: LiveTable, find_port: Callable[[], str | None], *, fallback: str = "software",
                 coin_timeout: float = 5.0, heartbeat: float = 1.0, on_stop: Callable[[], None] | None = None) -> None:
        if fallback not in FALLBACKS:
            raise ValueError(f"the coin fallback is {' or '.join(FALLBACKS)}, not {fallback!r}")
        self.table = table
        self.fallback = fallback
        self.coin_timeout = coin_timeout
        self.heartbeat = heartbeat
        self.stats = DriverStats()
        self.link: BoardLink | None = None
        self._find_port = find_port
        self._on_stop = on_stop
        created = {game.id: game.created for game in table.record.games()}.get(table.game_id, 0.0)
        self._token = lambda question_id: coin_token(created, table.game_id, question_id)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="table-board", daemon=True)

    @property
    def connected(self) -> bool:
        return self.link is not None and self.link.connected

    def start(self) -> Attachment:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop following the table and let go of the port."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        if self.link is not None:
            self.link.close()
        if self._on_stop is not None:
            self._on_stop()

    def __enter__(self) -> Attachment:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- the loop --------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stopping.is_set():
            subscription = self.table.subscribe()
            try:
                self._follow(subscription)
            except Exception as error:  # noqa: BLE001 - the board must never stop the table's driver for good
                self.stats.last_error = f"{type(error).__name__}: {error}"
                log.error("table board: %s; following the table again", self.stats.last_error)
                self._stopping.wait(RECONNECT_EVERY)
            finally:
                subscription.close()

    def _follow(self, subscription: Subscription) -> None:
        view = _View()
        while not self._stopping.is_set():
            if view.take(subscription) or not view.state:
                view.state = self.table.snapshot().state
            now = time.monotonic()
            coins = view.open_coins(now)
            if not self.connected and now >= view.next_connect:
                view.next_connect = now + RECONNECT_EVERY
                if self._connect():
                    view.shown, view.restarts = None, 0
            if self.connected:
                try:
                    self._drive(view, coins)
                except (LinkDown, BoardError) as error:
                    self.stats.last_error = str(error)
                    log.warning("table board: %s", error)
            for question_id in coins:
                if question_id not in view.done and now - view.first_seen[question_id] >= self.coin_timeout:
                    view.done.add(question_id)
                    self._fall_back(question_id)

    def _drive(self, view: _View, coins: list[int]) -> None:
        """Bring the board up to date with the table: its state, then the coins asked
        for, then a heartbeat if nothing else was sent for a while."""
        assert self.link is not None
        self.link.poll()
        if self.link.restarts != view.restarts:  # the board started again: it shows dashes
            view.shown, view.restarts = None, self.link.restarts
        wanted = board_state(view.state, view.alert)
        if wanted != view.shown:
            self.link.show(wanted)
            view.shown, view.last_sent = wanted, time.monotonic()
            self.stats.shows += 1
        for question_id in coins:
            reply = self.link.flip(self._token(question_id))
            view.last_sent = time.monotonic()
            view.done.add(question_id)
            self._answer(question_id, "heads" if reply.heads else "tails")
        if time.monotonic() - view.last_sent > self.heartbeat:
            self.link.ping()
            view.last_sent = time.monotonic()

    def _connect(self) -> bool:
        port = self._find_port()
        if port is None:
            return False
        if self.link is None or self.link.port != port:
            self.link = BoardLink(port)
        try:
            hello = self.link.connect()
        except LinkDown as error:
            self.stats.last_error = str(error)
            return False
        self.stats.connects += 1
        log.info("table board on %s: firmware %s", port, hello.firmware)
        return True

    def _answer(self, question_id: int, side: str) -> None:
        try:
            self.table.answer(question_id, side, source="device")
            self.stats.device_coins += 1
        except (CommandError, AnswerError):
            pass  # answered meanwhile at the console: that answer stands, this flip is not used

    def _fall_back(self, question_id: int) -> None:
        if self.fallback == "console":
            self.stats.left_to_console.append(question_id)
            log.warning("table board: no coin for question %d; answer it at the console", question_id)
            return
        try:
            self.table.flip(question_id)
            self.stats.fallback_coins += 1
        except (CommandError, AnswerError):
            pass


def attach(table: LiveTable, port_spec: str, *, fallback: str = "software", coin_timeout: float = 5.0,
           heartbeat: float = 1.0) -> Attachment:
    """Follow ``table`` with the board on ``port_spec``: a port path, ``auto`` (find a
    board, and keep looking), ``sim`` (a :class:`SimulatedBoard` on a pty) or ``none``
    (no board: coin questions go to ``fallback`` at once). Started; call ``stop()``."""
    on_stop = None
    if port_spec == "none":
        def find_port() -> str | None:
            return None
        coin_timeout = 0.0
    elif port_spec == "auto":
        find_port = PortFinder()
    elif port_spec == "sim":
        board = SimulatedBoard().start()
        on_stop = board.stop

        def find_port() -> str | None:
            return board.port
    else:
        def find_port() -> str | None:
            return port_spec
    return Attachment(table, find_port, fallback=fallback, coin_timeout=coin_timeout, heartbeat=heartbeat,
                      on_stop=on_stop).start()
