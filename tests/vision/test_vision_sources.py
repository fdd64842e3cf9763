"""Frame sources: folders, and an HTTP MJPEG camera that stalls and drops."""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cv2
import numpy as np

from vision.sources import FolderSource, HttpSource, open_source


def test_folder_in_name_order(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), np.full((8, 8, 3), i * 50, np.uint8))
    (tmp_path / "notes.txt").write_text("x")
    src = open_source(str(tmp_path))
    assert isinstance(src, FolderSource)
    values = [int(f.image[0, 0, 0]) for f in src]
    assert values == [0, 50, 100]


class _Camera(BaseHTTPRequestHandler):
    """Connection 1 sends 3 frames then stalls; later connections stream freely."""

    connections = 0

    def log_message(self, *args):
        pass

    def do_GET(self):
        type(self).connections += 1
        first = type(self).connections == 1
        self.send_response(200)
        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        self.end_headers()
        jpeg = cv2.imencode(".jpg", np.full((16, 16, 3), 200, np.uint8))[1].tobytes()
        try:
            for _ in range(3 if first else 50):
                self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\n\r\n" + jpeg + b"\r\n")
                self.wfile.flush()
                time.sleep(0.01)
            if first:
                time.sleep(3)  # stall
        except OSError:
            pass


def test_http_stall_is_reported_and_reconnected():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Camera)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/video"
        src = HttpSource(url, timeout=0.5, retry=0.1)
        got = 0
        deadline = time.monotonic() + 8
        while got < 8 and time.monotonic() < deadline:
            if src.read() is not None:
                got += 1
            else:
                time.sleep(0.02)
        src.close()
        assert got >= 8
        assert any("stalled" in e for e in src.events)
        assert sum("connected" in e and "cannot" not in e for e in src.events) >= 2
    finally:
        server.shutdown()
        server.server_close()


def test_unreachable_stream_is_reported_not_raised():
    src = HttpSource("http://127.0.0.1:9/none", timeout=0.2, retry=0.05)
    assert src.read() is None
    assert any("cannot connect" in e for e in src.events)
