"""Frame sources behind one interface: camera index, video file, image folder, and
HTTP (MJPEG or snapshot JPEG) or RTSP streams such as a phone camera app.

``read()`` never raises for a source that stalls or drops: it returns ``None``, records
what happened in ``events`` (and calls ``on_event``), and the next calls reconnect with
a growing pause. Iterating is what gives up: a live source that yields no frame for
``give_up`` seconds (no camera at that index, a stream address that does not answer)
raises :class:`SourceTimeout`, after calling ``on_wait`` once when the wait began so a
person knows the program is waiting rather than stuck.
"""

from __future__ import annotations

import contextlib
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}
#: How long iteration pauses when a live source has no frame yet (reconnecting).
IDLE_WAIT = 0.02
#: How long a live source may go without a frame before iteration gives up (seconds):
#: a camera takes a second or two to start, a phone on Wi-Fi a few more.
GIVE_UP = 10.0


class SourceTimeout(Exception):
    """A live source gave no frame for its ``give_up`` seconds: which source (as the
    user named it), how long it waited, and what it last tried."""

    def __init__(self, name: str, waited: float, last_event: str | None) -> None:
        self.name = name
        self.waited = waited
        self.last_event = last_event
        super().__init__(f"no frame from {name} for {waited:.0f} s"
                         + (f" ({last_event})" if last_event else ""))


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    index: int
    t: float  # seconds into the source (file/folder: by frame rate; live: wall clock)


class FrameSource:
    """Base: ``read()`` gives the next frame or None; ``finished`` is True at the end of
    a file or folder. Live sources (a camera, a stream) never finish: iterating one
    waits for its frames, and gives up after ``give_up`` seconds without one."""

    finished = False
    live = False

    def __init__(self, on_event: Callable[[str], None] | None = None, give_up: float = GIVE_UP,
                 on_wait: Callable[[], None] | None = None) -> None:
        self.events: list[str] = []
        self.on_event = on_event
        self.give_up = give_up
        self.on_wait = on_wait
        self.index = 0
        #: The source as the user named it, for messages.
        self.name = "source"

    def _event(self, message: str) -> None:
        self.events.append(message)
        if self.on_event:
            self.on_event(message)

    def _wait_begins(self) -> bool:
        if self.on_wait is not None:
            self.on_wait()
        return True

    def read(self) -> Frame | None:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __iter__(self):
        """The frames; ``on_wait`` is called when a wait begins: before a live source's
        first frame (opening a camera or a stream takes a while, and may block), and
        after each drop."""
        last_frame = time.monotonic()
        waiting = False
        while not self.finished:
            if self.live and self.index == 0 and not waiting:
                waiting = self._wait_begins()
            frame = self.read()
            if frame is not None:
                waiting = False
                yield frame
                last_frame = time.monotonic()  # the consumer's time with a frame is no wait
                continue
            if self.finished:
                break
            waiting = waiting or self._wait_begins()
            waited = time.monotonic() - last_frame
            if waited >= self.give_up:
                raise SourceTimeout(self.name, waited, self.events[-1] if self.events else None)
            # A live source waiting to reconnect: don't spin a core while it waits.
            time.sleep(IDLE_WAIT)


class Reconnect:
    """When a dropped live source may try again: waits ``retry`` seconds after the
    first failure, doubling after each further one up to ``longest``, and starts over
    once a connection works."""

    def __init__(self, retry: float, longest: float = 10.0) -> None:
        self.retry = retry
        self.longest = longest
        self._pause = retry
        self._next_try = 0.0

    def due(self) -> bool:
        return time.monotonic() >= self._next_try

    def failed(self) -> None:
        self._next_try = time.monotonic() + self._pause
        self._pause = min(self._pause * 2, self.longest)

    def succeeded(self) -> None:
        self._pause = self.retry


class FolderSource(FrameSource):
    """Every image of a folder in name order, at ``fps`` for timestamps."""

    def __init__(self, folder: str | Path, fps: float = 10.0, **kw) -> None:
        super().__init__(**kw)
        self.paths = sorted(p for p in Path(folder).iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES)
        self.fps = fps

    def read(self) -> Frame | None:
        while self.index < len(self.paths):
            path = self.paths[self.index]
            self.index += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                self._event(f"unreadable image {path.name}")
                continue
            return Frame(image, self.index - 1, (self.index - 1) / self.fps)
        self.finished = True
        return None


class CaptureSource(FrameSource):
    """OpenCV capture: a video file (finishes at its end), a camera index or an RTSP
    URL (reconnects when it drops)."""

    def __init__(self, target: str | int, live: bool, retry: float = 0.5, **kw) -> None:
        super().__init__(**kw)
        self.target = target
        self.name = str(target)
        self.live = live
        self.reconnect = Reconnect(retry)
        self._start = time.monotonic()
        self.cap: cv2.VideoCapture | None = None
        self.fps = 30.0
        if not live:
            self._open()  # a live target is opened by the first read, inside the wait

    def _open(self) -> None:
        self.cap = _capture(self.target, self.give_up if self.live else None)
        if not self.cap.isOpened():
            self._event(f"cannot open {self.target}")
            self.cap = None
        else:
            self.reconnect.succeeded()
            self.fps = self.cap.get(cv2.CAP_PROP_FPS) or 30.0

    def read(self) -> Frame | None:
        if self.cap is None:
            if not self.live:
                self.finished = True
                return None
            if not self.reconnect.due():
                return None
            self._event(f"{'reconnecting to' if self.index else 'opening'} {self.target}")
            self._open()
            if self.cap is None:
                self.reconnect.failed()
                return None
        ok, image = self.cap.read()
        if not ok or image is None:
            if not self.live:
                self.finished = True
                return None
            self._event(f"lost {self.target}")
            self.cap.release()
            self.cap = None
            self.reconnect.failed()
            return None
        t = (time.monotonic() - self._start) if self.live else self.index / self.fps
        self.index += 1
        return Frame(image, self.index - 1, t)

    def close(self) -> None:
        if self.cap is not None:
            self.cap.release()


class HttpSource(FrameSource):
    """An HTTP camera: an MJPEG stream (multipart JPEGs) or a URL that answers one JPEG
    per request. A read that waits longer than ``timeout`` counts as a stall."""

    live = True

    def __init__(self, url: str, timeout: float = 2.0, retry: float = 0.5, **kw) -> None:
        super().__init__(**kw)
        self.url = url
        self.name = url
        self.timeout = min(timeout, self.give_up)  # one attempt may not outlast giving up
        self.reconnect = Reconnect(retry)
        self._stream = None
        self._buffer = b""
        self._snapshot = False
        self._start = time.monotonic()

    def _connect(self) -> bool:
        try:
            self._stream = urllib.request.urlopen(self.url, timeout=self.timeout)  # noqa: S310
        except OSError as error:
            self._event(f"cannot connect to {self.url}: {error}")
            self._stream = None
            return False
        kind = self._stream.headers.get("Content-Type", "")
        self._snapshot = kind.startswith("image/")
        self._buffer = b""
        self._event(f"connected to {self.url}")
        self.reconnect.succeeded()
        return True

    def _drop(self, why: str) -> None:
        self._event(why)
        if self._stream is not None:
            with contextlib.suppress(OSError):
                self._stream.close()
        self._stream = None
        self.reconnect.failed()

    def _next_jpeg(self) -> bytes | None:
        assert self._stream is not None
        if self._snapshot:
            data = self._stream.read()
            self._stream.close()
            self._stream = None  # the next read asks for a fresh snapshot
            return data or None
        while True:
            start = self._buffer.find(b"\xff\xd8")
            end = self._buffer.find(b"\xff\xd9", start + 2) if start >= 0 else -1
            if start >= 0 and end >= 0:
                jpeg = self._buffer[start:end + 2]
                self._buffer = self._buffer[end + 2:]
                return jpeg
            chunk = self._stream.read1(65536) if hasattr(self._stream, "read1") \
                else self._stream.read(4096)
            if not chunk:
                return None
            self._buffer += chunk
            if len(self._buffer) > 16_000_000:
                self._buffer = self._buffer[-1_000_000:]

    def read(self) -> Frame | None:
        if self._stream is None:
            if not self.reconnect.due():
                return None
            if not self._connect():
                self.reconnect.failed()
                return None
        try:
            jpeg = self._next_jpeg()
        except TimeoutError:
            self._drop(f"stalled: no frame from {self.url} for {self.timeout:.1f} s")
            return None
        except OSError as error:
            self._drop(f"lost {self.url}: {error}")
            return None
        if jpeg is None:
            self._drop(f"stream ended: {self.url}")
            return None
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            self._event("undecodable frame skipped")
            return None
        self.index += 1
        return Frame(image, self.index - 1, time.monotonic() - self._start)

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None


def _capture(target: str | int, give_up: float | None) -> cv2.VideoCapture:
    """OpenCV's capture of ``target``, quietly: a missing camera is reported through
    the source's events, not OpenCV's own warnings on every retry. A live target's
    open and reads wait at most ``give_up`` seconds (FFmpeg would wait 30 s)."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        if give_up is None or isinstance(target, int):
            return cv2.VideoCapture(target)
        ms = max(1, int(give_up * 1000))
        return cv2.VideoCapture(target, cv2.CAP_ANY,
                                [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms])
    finally:
        cv2.utils.logging.setLogLevel(level)


def _is_folder(path: str) -> bool:
    """Whether ``path`` is a folder; False for a name the system cannot even look up
    (too long, say): opening it as a file then fails with a clear message."""
    try:
        return Path(path).is_dir()
    except OSError:
        return False


def open_source(spec: str | int, on_event: Callable[[str], None] | None = None,
                give_up: float = GIVE_UP, on_wait: Callable[[], None] | None = None) -> FrameSource:
    """The source ``spec`` names: a camera index, an image folder, an http(s) URL, an
    rtsp URL or a video file. A live one (camera, URL) gives up after ``give_up``
    seconds without a frame, and calls ``on_wait`` when it starts waiting."""
    kw = {"on_event": on_event, "give_up": give_up, "on_wait": on_wait}
    if isinstance(spec, int) or str(spec).isdigit():
        return CaptureSource(int(spec), live=True, **kw)
    text = str(spec)
    if text.startswith(("http://", "https://")):
        return HttpSource(text, **kw)
    if text.startswith(("rtsp://", "rtsps://")):
        return CaptureSource(text, live=True, **kw)
    if _is_folder(text):
        return FolderSource(text, **kw)
    return CaptureSource(text, live=False, **kw)
