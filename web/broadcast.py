"""Live updates for every phone: one follower of the table, any number of watchers.

The table's feed (:mod:`assistant.live.feed`) gives each subscriber a bounded queue read
by a blocking ``get``. Five hundred phones each holding a thread would be five hundred
threads; instead one thread here follows the table, turns each entry into the message a
phone shows (the board after it, the entry in words) once, and keeps the last few
hundred messages in order. Each phone's stream, an ``asyncio`` task, sends the messages
after the last one it sent and then waits to be woken: the event loop is never blocked,
and a phone that stops reading only leaves its own task waiting on its own socket.

Messages are numbered like the record (the Server-Sent Events ``id``), so a phone that
reconnects with ``Last-Event-ID: N`` gets the messages after N. One that was away for
longer than the kept messages reach, or that sends a number this table never wrote, gets
a *reset*: the board now and the recent lines, the way the feed gives a snapshot to a
subscriber that fell behind.

In a burst (entries come faster than this thread tells them) only the last message
carries the board; the others carry their lines and ``"board": null``.

Two views of each message: the spectators' (what both players can see) and the
console's (refusals with their rulebook line, and the open questions).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from assistant.live.feed import Snapshot, Subscription, Update
from assistant.live.record import Entry
from assistant.live.table import Alert, LiveTable
from web.board import Resolve, board
from web.narrate import entry_lines

#: How many messages are kept for phones that reconnect.
KEEP = 512
#: How many recent lines a reset carries for the log.
RECENT = 30
#: Seconds between keep-alive comments on a quiet stream (proxies close silent ones).
KEEPALIVE = 10.0
#: The most entries told in one go when they come faster than they are told.
BATCH = 64
#: What a browser waits before reconnecting a dropped stream, in milliseconds.
RETRY_MS = 1000


def moves_cards(entry: Entry) -> bool:
    """Whether an entry can change the position: an action, a correction, a prize
    penalty. A question, an answer, a refusal, the clock leave every card where it was."""
    return entry.kind in ("action", "rewind") or (entry.kind == "penalty" and entry.body.get("kind") == "prize-penalty")


def sse(seq: int, data: dict[str, Any]) -> bytes:
    """One Server-Sent Events message with its id, encoded once for every phone."""
    return f"id: {seq}\ndata: {json.dumps(data, separators=(',', ':'), ensure_ascii=False)}\n\n".encode()


@dataclass(frozen=True, slots=True)
class Message:
    """One numbered message, rendered once for each view."""

    seq: int
    public: bytes
    console: bytes

    def text(self, console: bool) -> bytes:
        return self.console if console else self.public


class Broadcast:
    """Follows one table (from :meth:`start` to :meth:`close`) and serves its streams.

    ``extras(kind)`` adds to every board what the table does not hold (the match's
    round clock and score); ``kind`` is the kind of entry the board follows (None: a
    board from scratch), so that it can skip what that entry cannot change."""

    def __init__(self, table: LiveTable, resolve: Resolve, *,
                 extras: Callable[[str | None], dict[str, Any]] | None = None, keep: int = KEEP) -> None:
        self.table = table
        self.resolve = resolve
        self.extras = extras or (lambda kind: {})
        self._messages: deque[Message] = deque(maxlen=keep)
        self._lines = {view: deque[list[Any]](maxlen=RECENT) for view in (False, True)}  # console? -> [seq, line]
        self._base = 0  # messages after this number are all kept
        self._newest = -1  # the last message's number (-1: none since the last reset)
        self._board: dict[str, Any] | None = None
        self._questions: list[dict[str, Any]] = []
        # the board as of entry _exact_seq exactly, to name the Pokémon the next entry speaks of
        self._exact: dict[str, Any] | None = None
        self._exact_seq = -1
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake = asyncio.Event()
        self._subscription: Subscription | None = None
        self._thread: threading.Thread | None = None
        self.closed = False
        self._drops = 0
        #: The numbers reconnecting streams resumed after (the latest few), for the curious.
        self.resumed: deque[int] = deque(maxlen=100)

    # -- following the table (its own thread) ----------------------------------------

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Follow the table from a few entries back (so the log has its recent lines),
        waking this loop's streams."""
        self._loop = loop
        self._wake = asyncio.Event()
        self._base = max(0, self.table.seq - RECENT)
        self._subscription = self.table.subscribe(after=self._base)
        while (item := self._subscription.get(timeout=0)) is not None:
            self._take(item, board_after=False)
        snapshot = self.table.snapshot()
        self._board, self._questions = self._board_of(snapshot), list(snapshot.state.get("questions") or ())
        self._exact, self._exact_seq = self._board, snapshot.seq
        self._thread = threading.Thread(target=self._follow, name=f"broadcast-{self.table.game_id}", daemon=True)
        self._thread.start()

    def _follow(self) -> None:
        assert self._subscription is not None
        quiet_since = time.monotonic()
        while not self.closed:
            item = self._subscription.get(timeout=0.5)
            if item is None:
                if time.monotonic() - quiet_since >= KEEPALIVE:
                    quiet_since = time.monotonic()
                    self._notify()  # each stream finds nothing new and sends a keep-alive
                continue
            quiet_since = time.monotonic()
            # a burst is told in one go, with the board after its last entry only
            batch = [item]
            while len(batch) < BATCH and (more := self._subscription.get(timeout=0)) is not None:
                batch.append(more)
            for index, each in enumerate(batch):
                self._take(each, board_after=index == len(batch) - 1)
            self._notify()

    def _take(self, item: Update | Snapshot | None, *, board_after: bool = True) -> None:
        if isinstance(item, Snapshot):
            with self._lock:
                self._board, self._questions = self._board_of(item), list(item.state.get("questions") or ())
                self._exact, self._exact_seq = self._board, item.seq
                self._messages.clear()
                self._base, self._newest = item.seq, -1
            return
        if item is None:
            return
        entry = item.entry
        before = self._exact if self._exact is not None and self._exact_seq == entry.seq - 1 else None
        public, console = entry_lines(entry, before), entry_lines(entry, before, console=True)
        now, questions = None, None
        if board_after:
            snapshot = self.table.snapshot()
            now, questions = self._board_of(snapshot, entry.kind), list(snapshot.state.get("questions") or ())
        if now is not None and now["seq"] == entry.seq:
            self._exact, self._exact_seq = now, entry.seq
        elif before is not None and not moves_cards(entry):
            self._exact_seq = entry.seq
        else:
            self._exact = None
        alert = Alert.from_entry(entry).to_json() if entry.kind == "alert" else None
        shared = {"seq": entry.seq, "at": entry.at, "kind": entry.kind, "board": now}
        message = Message(entry.seq, sse(entry.seq, {**shared, "lines": public}),
                          sse(entry.seq, {**shared, "lines": console, "alert": alert, "questions": questions}))
        with self._lock:
            if len(self._messages) == self._messages.maxlen:
                self._base = self._messages[0].seq
            self._messages.append(message)
            self._newest = message.seq
            self._lines[False].extend([entry.seq, line] for line in public)
            self._lines[True].extend([entry.seq, line] for line in console)
            if now is not None and questions is not None:
                self._board, self._questions = now, questions

    def _board_of(self, snapshot: Snapshot, kind: str | None = None) -> dict[str, Any]:
        return {**board(snapshot, self.resolve), **self.extras(kind)}

    def _notify(self) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake_all)

    def _wake_all(self) -> None:
        self._wake.set()
        self._wake = asyncio.Event()

    def close(self) -> None:
        """Stop following; every open stream ends."""
        self.closed = True
        if self._subscription is not None:
            self._subscription.close()
        self._notify()

    def drop_streams(self) -> None:
        """End every open stream (browsers reconnect and resume): what a network drop
        does, on demand."""
        self._drops += 1
        self._notify()

    # -- what the streams send -------------------------------------------------------

    def board(self) -> dict[str, Any]:
        """The board now."""
        return self._board_of(self.table.snapshot())

    def since(self, after: int) -> list[Message] | None:
        """The messages after number ``after``; None when they are not all kept (a reset
        is due)."""
        if after == self._newest:
            return []  # the common case, a stream that is up to date: no lock needed
        with self._lock:
            # the board may be ahead of the last message while this thread catches up
            known = max(self._messages[-1].seq if self._messages else self._base,
                        self._board["seq"] if self._board else 0)
            if not self._base <= after <= known:
                return None
            newer: list[Message] = []
            for message in reversed(self._messages):  # a stream is mostly one or two behind
                if message.seq <= after:
                    break
                newer.append(message)
            return newer[::-1]

    def reset(self) -> Message:
        """The board as of the last message, with the recent lines: where a stream starts."""
        with self._lock:
            if self._board is None:
                raise RuntimeError("the broadcast has not started")
            seq, now, questions = self._board["seq"], self._board, self._questions
            public, console = list(self._lines[False]), list(self._lines[True])
        shared = {"seq": seq, "kind": "reset", "reset": True, "board": now}
        return Message(seq, sse(seq, {**shared, "recent": public}),
                       sse(seq, {**shared, "recent": console, "questions": questions}))

    async def stream(self, after: int | None, *, console: bool = False) -> AsyncIterator[bytes]:
        """One phone's stream: from ``after`` (its Last-Event-ID) when the messages
        since are kept, else from a reset; then each new message as it comes. What is
        due at once goes in one write: with hundreds of phones, a write each is what
        costs (a system call, the HTTP layer's bookkeeping), not the bytes. A stream
        waits without a timer of its own: the follower wakes every stream when the
        table has been quiet for ``KEEPALIVE`` seconds, and each sends a keep-alive."""
        yield f"retry: {RETRY_MS}\n\n".encode()
        pending = None
        if after is not None:
            self.resumed.append(after)
            pending = self.since(after)
        drops = self._drops
        while True:
            if pending is None:
                pending = [self.reset()]
            if pending:
                yield b"".join(message.text(console) for message in pending)
                after = pending[-1].seq
            wake = self._wake
            if self.closed or drops != self._drops:
                return
            assert after is not None
            pending = self.since(after)
            if pending is None or pending:
                continue
            await wake.wait()
            if drops != self._drops:
                return  # dropped: like a lost connection, it carries nothing sent since
            pending = self.since(after)
            if pending == [] and not self.closed:
                yield b": keep-alive\n\n"
