"""``table-assistant run --camera SRC [--serial PORT|auto|sim|none] [--deck-a F] [--deck-b F] [--era ERA]``:
the live table fed by a camera, with the dashboard (SPEC §1).

Two threads share the work so that a slow frame never holds up an answer:

- the vision worker reads frames (a camera index, a video file, an image folder or a
  stream URL; a live source that stalls is reopened, and given up after ``--timeout``),
  tracks and names the cards, and shows each settled picture of the table to the
  camera link (:mod:`assistant.live.camera`), which turns what changed into the live
  table's commands;
- the web server (the scoreboard, the judge's console and the API) answers people.

The table starts from the first settled picture (the mirror joins a game in progress)
and is recorded in the game record (``--db``, default ``$TABLE_ASSISTANT_HOME/games.sqlite``);
the dashboard's addresses are printed then. With ``--serial`` the coin device and the
damage displays follow the table (:mod:`hardware.driver`; ``sim`` is a simulated board).
Each command the camera sends is printed as
a line. With ``--once`` the command ends when the source does (for a video file);
otherwise it serves until Ctrl-C.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from assistant.editions import Edition
from assistant.live.camera import CameraLink
from assistant.live.record import Record, RecordError, default_record_path
from assistant.live.table import LiveTable, Reply
from assistant.mat_layout import MatLayout
from assistant.mirror import TableLayout, TableMirror
from assistant.paths import StorageError
from table_assistant.serve_command import announce, listen, no_lookup, serve_app

if TYPE_CHECKING:
    from hardware.driver import Attachment
    from table_assistant.camera_view import CameraView

#: Seconds the coin device has to flip before the question is left to the console.
COIN_PATIENCE_S = 5.0


def run(source: str, deck_files: Sequence[str], rules: Edition, *, serial: str, host: str, port: int,
        db: str | None, token: str | None, once: bool, give_up: float | None, out: TextIO, err: TextIO,
        mat: MatLayout | None = None) -> int:
    """0 at the end (``--once``) or on Ctrl-C; 2 for a source, deck list or record that
    cannot be used. ``mat``: the mat's zones (the usual playmat by default)."""
    from table_assistant.camera_view import CameraView
    from table_assistant.mirror_command import settled_pictures
    from table_assistant.recognize_command import candidate_names

    candidates = candidate_names(list(deck_files), err)
    if not candidates.ok:
        return 2
    try:
        record = Record(Path(db) if db else default_record_path())
    except (RecordError, StorageError) as error:
        print(f"run: {error}", file=err)
        return 2
    layout = TableLayout.for_mat(mat)
    view = CameraView(layout)
    started = threading.Event()

    def start(state: dict[str, Any]) -> LiveTable:
        table = LiveTable.start(record, rules, state, no_lookup, title=f"camera: {source}")
        started.set()
        return table

    link = CameraLink(TableMirror(rules, layout), start)
    outcome: dict[str, int] = {}

    def watch() -> None:
        def shown(frame: Any, snapshot: list[Any]) -> None:
            for reply in link.see(snapshot):
                out.write(reply_line(reply, frame.index, frame.t))
                out.flush()

        outcome["code"] = settled_pictures(source, candidates, layout, lambda: link.table is not None, shown,
                                           give_up=give_up, err=err, command="run",
                                           watch=lambda frame, tracked, fix: view.show(frame.image, tracked, fix))
        started.set()  # a source that ends before the table starts ends the command

    worker = threading.Thread(target=watch, name="vision", daemon=True)
    worker.start()
    try:
        started.wait()
        if link.table is None:
            worker.join()
            code = outcome.get("code", 2)
            if code == 0:
                print(f"run: {source}: the table never held still long enough to start a game", file=err)
            return code or 2
        device = _device(link.table, serial, err)
        try:
            if once:
                _announce(link.table, out)
                worker.join()
                return outcome.get("code", 0)
            return _serve(link.table, host, port, token, out, err, view)
        finally:
            if device is not None:
                device.stop()
    except KeyboardInterrupt:
        return 0
    finally:
        link.close()
        record.close()


def _device(table: LiveTable, serial: str, err: TextIO) -> Attachment | None:
    """The coin device and damage displays (``--serial``), following the table; None
    for ``none``. A coin the device does not flip in time is left to the console."""
    if serial == "none":
        return None
    from hardware.driver import attach

    device = attach(table, serial, fallback="console", coin_timeout=COIN_PATIENCE_S)
    print(f"run: following the table on the serial device {serial!r}", file=err)
    return device


def _serve(table: LiveTable, host: str, port: int, token: str | None, out: TextIO, err: TextIO,
           view: CameraView) -> int:
    from web.app import create_app

    try:
        listening = listen(host, port)
    except OSError as error:
        print(f"run: cannot listen on {host}:{port} ({error.strerror or error}); choose another --port", file=err)
        return 2
    token = token or secrets.token_urlsafe(12)
    _announce(table, out)
    announce(host, port, token, out)
    serve_app(create_app(table, token=token, camera=view.jpeg, cards=view.card_jpeg, layout=view.layout), listening)
    return 0


def _announce(table: LiveTable, out: TextIO) -> None:
    print(f"game {table.game_id} ({table.edition.era}) started from the camera, in {table.record.path}",
          file=out, flush=True)


def reply_line(reply: Reply, frame: int, t: float) -> str:
    """What the camera's command came to, for the log."""
    entry = reply.entries[0] if reply.entries else None
    body = entry.body if entry is not None else {}
    options = [option for option in (body.get("options") or {}).values() if option]
    action = body.get("action") or (options[0] if options else {})
    what = " ".join(f"{k}={v}" for k, v in action.items() if k not in ("type", "player"))
    if reply.accepted:
        verdict = "accepted"
    elif reply.alert is not None:
        verdict = reply.alert.reason
    elif reply.questions:
        verdict = f"question {reply.questions[0].id}"
    else:
        verdict = "recorded"
    subject = f"{action.get('player', '?')} {action.get('type', entry.kind if entry else '?')}"
    return f"frame {frame} ({t:.2f} s): {subject} {what}: {verdict}\n".replace("  ", " ")
