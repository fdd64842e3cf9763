"""Following a table: numbered updates, snapshots, and resuming after a disconnect.

Anything that shows the game (a spectator's phone, the judge's console, the LED
displays) subscribes to the table's feed. It receives each entry of the record as an
:class:`Update` numbered like the record, in order, exactly once; a subscriber that
lost its connection subscribes again with the last number it saw and continues from
there, the missed entries read back from the record.

One slow subscriber must never delay the table or another subscriber: each has a
bounded queue, and publishing never waits. A subscriber whose queue fills is marked
behind: its queue is dropped and its next item is a fresh :class:`Snapshot` of the
whole table, after which it continues with the updates that follow the snapshot.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from assistant.live.record import Entry

#: How many updates a subscriber may have waiting before it is given a snapshot instead.
DEFAULT_CAPACITY = 256


@dataclass(frozen=True, slots=True)
class Update:
    """One entry of the record, as subscribers receive it."""

    entry: Entry

    @property
    def seq(self) -> int:
        return self.entry.seq

    def to_json(self) -> dict[str, Any]:
        return {"type": "update", **self.entry.to_json()}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The whole table as of entry ``seq``: what a subscriber shows when it starts or
    has fallen behind."""

    seq: int
    state: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"type": "snapshot", "seq": self.seq, "state": self.state}


Item = Update | Snapshot


class Subscription:
    """One follower's queue. :meth:`get` is called by the follower's own thread."""

    def __init__(self, feed: Feed, capacity: int) -> None:
        self._feed = feed
        self._capacity = capacity
        self._queue: deque[Item] = deque()
        self._ready = threading.Condition()
        self._behind = False
        self._seen = 0  # the number of the last item handed out
        self.closed = False

    def _offer(self, item: Item) -> None:
        with self._ready:
            if self._behind:
                return
            if len(self._queue) >= self._capacity:
                self._queue.clear()
                self._behind = True
            else:
                self._queue.append(item)
            self._ready.notify()

    def get(self, timeout: float | None = None) -> Item | None:
        """The next item, waiting up to ``timeout`` seconds (None: no limit); None when
        nothing came in time or the subscription is closed."""
        with self._ready:
            if not self._ready.wait_for(lambda: self._queue or self._behind or self.closed, timeout):
                return None
            if self.closed:
                return None
            if not self._behind:
                item = self._queue.popleft()
                self._seen = item.seq
                return item
            self._behind = False
        # taken outside our own lock: the snapshot takes the table's lock, and the
        # table offers items under its lock
        snapshot = self._feed.snapshot()
        with self._ready:
            while self._queue and self._queue[0].seq <= snapshot.seq:
                self._queue.popleft()
            self._seen = snapshot.seq
        return snapshot

    @property
    def seen(self) -> int:
        return self._seen

    def close(self) -> None:
        with self._ready:
            self.closed = True
            self._ready.notify_all()
        self._feed.unsubscribe(self)


class Feed:
    """The subscriptions of one table. ``snapshot`` makes a :class:`Snapshot` of the
    table now; ``backlog(after)`` reads the record's entries after a number. Both, and
    :meth:`publish`, are called under the table's lock (``lock``), so a subscription
    starts exactly where the record stands: nothing missed, nothing twice."""

    def __init__(self, lock: threading.RLock, snapshot: Callable[[], Snapshot],
                 backlog: Callable[[int], list[Entry]], capacity: int = DEFAULT_CAPACITY) -> None:
        self._lock = lock
        self._snapshot = snapshot
        self._backlog = backlog
        self.capacity = capacity
        self._subscribers: list[Subscription] = []

    def subscribe(self, after: int | None = None) -> Subscription:
        """Follow the table. ``after=None`` starts with a snapshot; ``after=N`` resumes
        with the entries after N (a snapshot instead, if they are more than the queue
        holds)."""
        subscription = Subscription(self, self.capacity)
        with self._lock:
            if after is None:
                subscription._offer(self._snapshot())
            else:
                for entry in self._backlog(after):
                    subscription._offer(Update(entry))
            self._subscribers.append(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)

    def publish(self, entry: Entry) -> None:
        """Hand a committed entry to every subscriber; never waits for one."""
        update = Update(entry)
        for subscription in list(self._subscribers):
            subscription._offer(update)

    def snapshot(self) -> Snapshot:
        with self._lock:
            return self._snapshot()

    @property
    def subscribers(self) -> int:
        return len(self._subscribers)
