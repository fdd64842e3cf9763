"""Frame sources behind one interface: camera index, video file, image folder, and
HTTP (MJPEG or snapshot JPEG) or RTSP streams such as a phone camera app.

``read()`` never raises for a source that stalls or drops: it returns ``None``, records
what happened in ``events`` (and calls ``on_event``), and the next calls reconnect with
a growing pause.
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


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    index: int
    t: float  # seconds into the source (file/folder: by frame rate; live: wall clock)


class FrameSource:
    """Base: ``read()`` gives the next frame or None; ``finished`` is True at the end of
    a file or folder (live sources never finish)."""

    finished = False

    def __init__(self, on_event: Callable[[str], None] | None = None) -> None:
        self.events: list[str] = []
        self.on_event = on_event
        self.index = 0

    def _event(self, message: str) -> None:
        self.events.append(message)
        if self.on_event:
            self.on_event(message)

    def read(self) -> Frame | None:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __iter__(self):
        while not self.finished:
            frame = self.read()
            if frame is not None:
                yield frame
            else:
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
        self.live = live
        self.reconnect = Reconnect(retry)
        self._start = time.monotonic()
        self.cap: cv2.VideoCapture | None = None
        self.fps = 30.0
        self._open()

    def _open(self) -> None:
        self.cap = cv2.VideoCapture(self.target)
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
            self._event(f"reconnecting to {self.target}")
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

    def __init__(self, url: str, timeout: float = 2.0, retry: float = 0.5, **kw) -> None:
        super().__init__(**kw)
        self.url = url
        self.timeout = timeout
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


def open_source(spec: str | int, on_event: Callable[[str], None] | None = None
                ) -> FrameSource:
    """The source ``spec`` names: a camera index, an image folder, an http(s) URL, an
    rtsp URL or a video file."""
    if isinstance(spec, int) or str(spec).isdigit():
        return CaptureSource(int(spec), live=True, on_event=on_event)
    text = str(spec)
    if text.startswith(("http://", "https://")):
        return HttpSource(text, on_event=on_event)
    if text.startswith(("rtsp://", "rtsps://")):
        return CaptureSource(text, live=True, on_event=on_event)
    if Path(text).is_dir():
        return FolderSource(text, on_event=on_event)
    return CaptureSource(text, live=False, on_event=on_event)
