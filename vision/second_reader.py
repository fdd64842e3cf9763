"""A frame's work on both cores: the caller's thread and a second reader.

Reading a card is Tesseract, which releases the GIL, and about as much again of Python,
numpy and OpenCV work that holds it. Two reader threads of one process therefore wait
for each other a good part of the time; a second *process* has an interpreter of its
own. Per frame (``SecondReader.sharing``):

1. the caller copies the frame into shared memory, once;
2. it may hand the process a task ahead of the reading (``FrameShare.ahead``: the finder
   has the process refine the cards it found while it looks for more);
3. it sends the process the reading jobs (one per card, in the order they are best
   taken) and the context reading needs: the name matcher, whose card database the
   process keeps from frame to frame (sent once, then named by reference);
4. both take the next job from a shared counter until none is left, so a card that costs
   a dozen OCR calls does not hold the others up; the process sends back what it read.

The process starts with the frame after ``THREAD_FRAMES``: it takes ~0.8 s of CPU to
import, load its Tesseract and warm up, on the core a second reader thread would use, so
a few frames are read sooner by the thread alone. Until the process answers, that thread
is the second reader, as it is for good once the process has failed ``MAX_FAILURES``
times. A process that dies or stops answering costs no card: the caller reads whatever
it did not send back.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import logging
import multiprocessing as mp
import pickle
import sys
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing import shared_memory
from multiprocessing.connection import Connection
from typing import Any

import cv2
import numpy as np

log = logging.getLogger(__name__)

#: ``read(engine, context, frame, *job)``: one job's result. A module-level function (the
#: process imports it by name); ``new_engine()`` makes the engine a reader passes it, and
#: the process runs ``warm_up(engine)`` before it answers (first calls that build tables).
Read = Callable[..., Any]

#: Frames read with a thread before the process is started (the command line on 6-card
#: frames: the first five took ~240 ms longer in all when it started with the second).
THREAD_FRAMES = 4
#: How long the caller waits for an answer from the process once it has nothing else to
#: do, before it gives up on the process and does the work itself. A card takes ~10-100 ms.
PATIENCE_S = 10.0
#: After this many failures no process is started again (the thread reads instead).
MAX_FAILURES = 3


class SecondReader:
    """Shares frames' work between the caller's thread and a second reader (see above)."""

    def __init__(self, read: Read, new_engine: Callable[[], Any], warm_up: Callable[[Any], None] | None = None
                 ) -> None:
        self._read, self._new_engine, self._warm_up = read, new_engine, warm_up
        self._lock = threading.Lock()
        self._thread: ThreadPoolExecutor | None = None
        self._thread_engine: Any = None
        self._process: _Process | None = None
        self._frames = 0
        self.failures = 0

    @contextlib.contextmanager
    def sharing(self, frame: np.ndarray) -> Iterator[FrameShare]:
        """One frame's work shared for the length of the block. The second reader takes
        one frame at a time: another thread's frame meanwhile is done by its caller alone."""
        if not self._lock.acquire(blocking=False):
            yield FrameShare(self, frame, alone=True)
            return
        try:
            self._frames += 1
            yield FrameShare(self, frame, alone=False)
        finally:
            self._lock.release()

    def wait_until_answering(self, timeout: float) -> bool:
        """Start the process if there is none and wait up to ``timeout`` seconds for it to
        answer (a benchmark waits, so its first frames are timed as later ones are)."""
        with self._lock:
            if self._answering_process(start=True) is None and self._process is not None:
                self._process.wait_ready(timeout)
            return self._answering_process(start=True) is not None

    def close(self) -> None:
        with self._lock:
            self._drop_process(failed=False)
            if self._thread is not None:
                self._thread.shutdown()
                self._thread = None

    def _answering_process(self, start: bool) -> _Process | None:
        """The process if it has answered; with ``start``, one started (in the background)
        if there is none."""
        if self._process is not None and self._process.dead():
            log.warning("the second card reader has ended")
            self._drop_process(failed=True)
        if self._process is None:
            if not start or self.failures >= MAX_FAILURES:
                return None
            try:
                self._process = _Process(self._read, self._new_engine, self._warm_up)
            except OSError as error:  # no processes left on this machine
                log.warning("cannot start the second card reader (%s); a thread reads instead", error)
                self.failures = MAX_FAILURES
                return None
        return self._process if self._process.wait_ready(0.0) else None

    def _drop_process(self, failed: bool) -> None:
        if self._process is not None:
            self._process.close()
            self._process = None
            self.failures += failed

    def _failed(self, failure: _Failed) -> None:
        log.warning("the second card reader failed (%s); its work was done here", failure)
        self._drop_process(failed=True)

    def _read_with_thread(self, frame: np.ndarray, jobs: Sequence[tuple], context: Any, engine: Any
                          ) -> list[Any]:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="card-reader")
        next_job = itertools.count().__next__  # atomic under the GIL: each job goes to one thread

        def share(reader_engine: Any) -> dict[int, Any]:
            return _read_share(self._read, reader_engine, context, frame, jobs, next_job, {})

        theirs = self._thread.submit(lambda: share(self._engine_of_thread()))
        results = share(engine)
        results.update(theirs.result())
        return [results[k] for k in range(len(jobs))]

    def _engine_of_thread(self) -> Any:
        if self._thread_engine is None:
            self._thread_engine = self._new_engine()
        return self._thread_engine


class FrameShare:
    """One frame's work shared with the second reader (``SecondReader.sharing``)."""

    def __init__(self, reader: SecondReader, frame: np.ndarray, alone: bool) -> None:
        self._reader, self._frame, self._alone = reader, frame, alone
        self._process = None if alone else reader._answering_process(start=reader._frames > THREAD_FRAMES)
        self._frame_sent = False

    def ahead(self, task: Callable[..., Any], *args: Any) -> Callable[[], Any] | None:
        """Start ``task(frame, *args)`` (a module-level function) on the process; how to
        wait for its result (None if it failed). None when there is no process to run it."""
        process = self._sent_frame()
        if process is None:
            return None
        try:
            request = process.request("ahead", task, args)
        except _Failed as failure:
            self._give_up(failure)
            return None

        def result() -> Any:
            if self._process is not process:
                return None  # the process failed meanwhile
            try:
                return process.answer(request)
            except _Failed as failure:
                self._give_up(failure)
                return None

        return functools.cache(result)

    def read_all(self, jobs: Sequence[tuple], context: Any, engine: Any, keep: Sequence[object] = ()
                 ) -> list[Any]:
        """``read(engine, context, frame, *job)`` for every job, in job order. ``keep``:
        objects inside ``context`` for the process to hold from frame to frame. Both go
        to the process only when they are other objects than last time: change neither
        in place."""
        read, frame = self._reader._read, self._frame
        if len(jobs) < 2 or self._alone:
            return [read(engine, context, frame, *job) for job in jobs]
        process = self._sent_frame()
        if process is None:
            return self._reader._read_with_thread(frame, jobs, context, engine)
        results: dict[int, Any] = {}
        try:
            request = process.send_jobs(jobs, context, keep)
            _read_share(read, engine, context, frame, jobs, process.next_job, results)
            results.update(process.answer(request))
        except _Failed as failure:
            self._give_up(failure)
        # Jobs the process took and did not read (it failed) are read here.
        return [results[k] if k in results else read(engine, context, frame, *job) for k, job in enumerate(jobs)]

    def _sent_frame(self) -> _Process | None:
        """The process, with this frame in its memory; None if there is none (any more)."""
        if self._process is not None and not self._frame_sent:
            try:
                self._process.put_frame(self._frame)
                self._frame_sent = True
            except _Failed as failure:
                self._give_up(failure)
        return self._process

    def _give_up(self, failure: _Failed) -> None:
        self._reader._failed(failure)
        self._process = None


def _read_share(read: Read, engine: Any, context: Any, frame: np.ndarray, jobs: Sequence[tuple],
                next_job: Callable[[], int], results: dict[int, Any]) -> dict[int, Any]:
    """One reader's share of ``jobs``, each the next one nobody has taken, read into
    ``results`` (which keeps what was read should a job fail)."""
    while (k := next_job()) < len(jobs):
        results[k] = read(engine, context, frame, *jobs[k])
    return results


def _next_of(shared: Any) -> int:
    """The next job from a counter in shared memory (``multiprocessing.Value``)."""
    with shared.get_lock():
        k = shared.value
        shared.value = k + 1
    return k


class _Failed(Exception):
    """The process could not be reached, or did not answer."""


class _Process:
    """The second reader as a process: a spawned Python (a fork would copy locks that
    other threads hold) serving one frame at a time."""

    def __init__(self, read: Read, new_engine: Callable[[], Any], warm_up: Callable[[Any], None] | None) -> None:
        spawn = mp.get_context("spawn")
        self._next = spawn.Value("i", 0)
        self._conn, theirs = spawn.Pipe()
        self._process = spawn.Process(target=_serve, name="card-reader", daemon=True,
                                      args=(theirs, self._next, read, new_engine, warm_up, cv2.getNumThreads()))
        with _main_module_hidden():
            self._process.start()
        theirs.close()
        self._ready = False
        self._requests = 0  # numbered: the process's answers name theirs
        self._answers: dict[int, Any] = {}  # answers this frame got before they were asked for
        self._memory: list[shared_memory.SharedMemory] = []  # the frame's, once there is one
        self._kept: dict[int, object] = {}  # id -> object: alive as long as the process holds it
        self._context: Any = None
        self._stop = weakref.finalize(self, _stop, self._process, self._conn, self._memory)

    def wait_ready(self, timeout: float) -> bool:
        """Whether the process has answered, waiting up to ``timeout`` s for it to."""
        if not self._ready:
            with contextlib.suppress(EOFError, OSError):  # it died: dead() tells
                self._ready = self._conn.poll(timeout) and self._conn.recv() == "ready"
        return self._ready

    def dead(self) -> bool:
        return not self._process.is_alive()

    def put_frame(self, frame: np.ndarray) -> None:
        frame = np.ascontiguousarray(frame)
        try:
            if not self._memory or self._memory[0].size < frame.nbytes:
                _free(self._memory)
                self._memory.append(shared_memory.SharedMemory(create=True, size=frame.nbytes))
            np.ndarray(frame.shape, frame.dtype, buffer=self._memory[0].buf)[...] = frame
        except OSError as error:  # no shared memory left
            raise _Failed(f"no memory to share the frame: {error}") from error
        self._answers.clear()
        self._send(("frame", self._memory[0].name, frame.shape, frame.dtype.str))

    def send_jobs(self, jobs: Sequence[tuple], context: Any, keep: Sequence[object]) -> int:
        """The request to read ``jobs``, sent (the process takes its share of them)."""
        if {id(obj) for obj in keep} != set(self._kept):
            self._kept = {id(obj): obj for obj in keep}
            self._send(("keep", self._kept))
        new_context = None
        if context is not self._context:
            buffer = io.BytesIO()
            _KeptByReference(buffer, self._kept).dump(context)
            new_context, self._context = buffer.getvalue(), context
        with self._next.get_lock():
            self._next.value = 0
        return self.request("read", new_context, list(jobs))

    def next_job(self) -> int:
        return _next_of(self._next)

    def request(self, kind: str, *body: Any) -> int:
        """A request sent, by its number (``answer`` waits for the process's answer)."""
        self._requests += 1
        self._send((kind, self._requests, *body))
        return self._requests

    def _send(self, message: tuple) -> None:
        try:
            self._conn.send_bytes(pickle.dumps(message, protocol=5))
        except (OSError, ValueError, pickle.PicklingError) as error:
            raise _Failed(f"it cannot be sent work: {error}") from error

    def answer(self, request: int) -> Any:
        """The process's answer to a request of this frame. Those to requests nobody
        waited for (a task ahead not needed, a frame the caller left on an error) are
        passed over; another of this frame's is kept until it is asked for."""
        while request not in self._answers:
            try:
                if not self._conn.poll(PATIENCE_S):
                    raise _Failed(f"no answer in {PATIENCE_S:.0f} s")
                number, value = pickle.loads(self._conn.recv_bytes())
            except (EOFError, OSError, pickle.UnpicklingError) as error:
                raise _Failed(f"it stopped ({type(error).__name__}: {error})") from error
            self._answers[number] = value
        return self._answers.pop(request)

    def close(self) -> None:
        self._stop()


@contextlib.contextmanager
def _main_module_hidden() -> Iterator[None]:
    """A spawned Python first imports the caller's main module again (as "__mp_main__"),
    which runs a script's top level a second time unless it is guarded by ``if __name__
    == "__main__"``. The process needs nothing from it, so while it is started the main
    module does not say where it came from (multiprocessing then leaves it alone)."""
    main = sys.modules["__main__"]
    saved = {key: main.__dict__[key] for key in ("__spec__", "__file__") if key in main.__dict__}
    main.__spec__ = None
    main.__dict__.pop("__file__", None)
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


def _free(memory: list[shared_memory.SharedMemory]) -> None:
    while memory:
        block = memory.pop()
        block.close()
        block.unlink()


def _stop(process: mp.process.BaseProcess, conn: Connection, memory: list[shared_memory.SharedMemory]) -> None:
    """End the process (hanging up ends its loop) and free the frame's memory."""
    conn.close()
    process.join(timeout=1.0)
    if process.is_alive():
        process.terminate()
        process.join(timeout=1.0)
    _free(memory)


class _KeptByReference(pickle.Pickler):
    """Pickles a context with the objects the process keeps named by their keys."""

    def __init__(self, file: io.BytesIO, kept: dict[int, object]) -> None:
        super().__init__(file, protocol=5)
        self._kept = kept

    def persistent_id(self, obj: object) -> int | None:
        key = id(obj)
        return key if key in self._kept and self._kept[key] is obj else None


class _FromKept(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, kept: dict[int, object]) -> None:
        super().__init__(file)
        self._kept = kept

    def persistent_load(self, key: int) -> object:
        return self._kept[key]


def _serve(conn: Connection, next_job: Any, read: Read, new_engine: Callable[[], Any],
           warm_up: Callable[[Any], None] | None, cv_threads: int) -> None:
    """The process's loop, until the caller hangs up. A task or job that fails is logged
    and left to the caller, which does it again and meets the error itself."""
    cv2.setNumThreads(cv_threads)
    engine = new_engine()
    if warm_up is not None:
        warm_up(engine)
    kept: dict[int, object] = {}
    context: Any = None
    memory: shared_memory.SharedMemory | None = None
    frame: np.ndarray | None = None
    try:
        conn.send("ready")
    except OSError:  # the caller ended while this process warmed up: nothing to serve
        return
    while True:
        try:
            message = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            break
        kind, *body = message
        if kind == "keep":
            kept = body[0]
        elif kind == "frame":
            name, shape, dtype = body
            if memory is None or memory.name != name:
                frame = None
                if memory is not None:
                    memory.close()
                memory = shared_memory.SharedMemory(name=name)
            frame = np.ndarray(shape, np.dtype(dtype), buffer=memory.buf)
        elif kind == "ahead":
            request, task, args = body
            try:
                result = task(frame, *args)
            except Exception:  # noqa: BLE001
                log.exception("a task ahead of the reading failed")
                result = None
            conn.send_bytes(pickle.dumps((request, result), protocol=5))
        elif kind == "read":
            request, new_context, jobs = body
            if new_context is not None:
                context = _FromKept(io.BytesIO(new_context), kept).load()
            results: dict[int, Any] = {}
            try:
                _read_share(read, engine, context, frame, jobs, lambda: _next_of(next_job), results)
            except Exception:  # noqa: BLE001
                log.exception("reading a card failed")
            conn.send_bytes(pickle.dumps((request, results), protocol=5))
    frame = None
    if memory is not None:
        memory.close()
