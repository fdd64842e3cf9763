"""``table-assistant demo [--host H] [--port P] [--once]``: the whole product on a filmed game.

The demo video (:mod:`vision.demo_video`: our own proxy cards of the two embedded decks,
a scripted game of :mod:`assistant.live.demo_script`, rendered on first run and kept
under ``$TABLE_ASSISTANT_HOME/demo/``) is played in real time through what
``table-assistant run`` uses at a real table: vision finds, reads and tracks the cards,
the table mirror turns what changed into actions, the live table judges them and
records the game (``$TABLE_ASSISTANT_HOME/demo/games.sqlite``), the simulated coin
device follows it, and the dashboard serves the scoreboard and the judge's console.

What a camera cannot see is entered as a person at the console would, at the moment
the script does it: each attack, the end of each turn, and the answer to each question
the camera asks (two Pokémon changed places: a retreat or a Switch? a Pokémon turned
sideways: Asleep or Paralyzed?).

The game ends with a winner, and the video there; the demo serves until Ctrl-C, or with
``--once`` it ends with the game.
"""

from __future__ import annotations

import contextlib
import math
import secrets
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from assistant.editions import edition
from assistant.live.camera import CameraLink
from assistant.live.demo_script import SCRIPT, Say, Seen, Step, seen_steps
from assistant.live.record import Record, RecordError
from assistant.live.table import LiveTable, Reply
from assistant.mat_layout import MatLayout
from assistant.mirror import TableLayout, TableMirror
from assistant.paths import StorageError, usable_home
from table_assistant.run_command import reply_line
from table_assistant.serve_command import announce, listen, no_lookup

if TYPE_CHECKING:
    from table_assistant.camera_view import CameraView
    from table_assistant.recognize_command import Candidates
    from vision.demo_video import DemoVideo


def demo(*, host: str, port: int, era: str, out: TextIO, err: TextIO | None = None, once: bool = False,
         speed: float = 1.0, mat: MatLayout | None = None) -> int:
    """0 at the end (``--once``) or on Ctrl-C; 2 when the demo's folder, the port or
    the video cannot be used. ``speed``: the video's pace (0: as fast as vision reads);
    ``mat``: the mat's zones (the usual playmat, as the video is filmed, by default)."""
    from table_assistant.camera_view import CameraView
    from table_assistant.mirror_command import settled_pictures

    err = err or sys.stderr
    try:
        folder = usable_home() / "demo"
        listening = listen(host, port)  # before anything is made: a port in use is said at once
        port = listening.getsockname()[1]  # --port 0: the free port the system chose
    except StorageError as error:
        print(f"demo: {error}", file=err)
        return 2
    except OSError as error:
        print(f"demo: cannot listen on {host}:{port} ({error.strerror or error}); choose another --port", file=err)
        return 2
    try:
        prepared = _prepare(folder, out, err)
        record = Record(folder / "games.sqlite") if prepared is not None else None
    except (RecordError, StorageError, OSError) as error:
        print(f"demo: {error}", file=err)
        prepared = record = None
    if prepared is None or record is None:
        listening.close()
        return 2
    candidates, video = prepared
    rules = edition(era)
    layout = TableLayout.for_mat(mat)
    view = CameraView(layout)
    started = threading.Event()

    def start(state: dict[str, Any]) -> LiveTable:
        table = LiveTable.start(record, rules, state, no_lookup, title="the demo game")
        started.set()
        return table

    # The script's person ends each turn at the console: a play out of turn is an alert.
    link = CameraLink(TableMirror(rules, layout, turns_from_table=False), start)

    def said(reply: Reply, frame: int) -> None:
        out.write("console " + reply_line(reply, frame, frame / video.fps))

    director = Director(video, SCRIPT, link, speed, said=said)
    server: dict[str, Any] = {}
    outcome: dict[str, int] = {}

    def watch() -> None:
        def shown(frame: Any, snapshot: list[Any]) -> None:
            replies = link.see(snapshot)
            for reply in replies:
                out.write(reply_line(reply, frame.index, frame.t))
            out.flush()
            director.answer(replies)

        try:
            outcome["code"] = settled_pictures(str(video.path), candidates, layout, director.tick, shown,
                                               give_up=None, err=err, command="demo",
                                               watch=lambda frame, tracked, fix: view.show(frame.image, tracked, fix))
        except GameOver:
            outcome["code"] = 0
        director.finish()
        result = link.table.result if link.table is not None else None
        if result is not None:
            print(f"demo: the game is over: {winner_words(result)}", file=out, flush=True)
        else:
            print("demo: the video has ended", file=out, flush=True)
        if not once:
            print("demo: serving until Ctrl-C", file=out, flush=True)
        started.set()
        if once and "uvicorn" in server:
            server["uvicorn"].should_exit = True

    worker = threading.Thread(target=watch, name="vision", daemon=True)
    try:
        worker.start()
        started.wait()
        if link.table is None:
            worker.join()
            print("demo: the video never held still long enough to start a game", file=err)
            return 2
        return _serve(link.table, listening, server, worker, once, outcome, out, err, host, port, view)
    except KeyboardInterrupt:
        return 0
    finally:
        link.close()
        record.close()
        listening.close()


def _prepare(folder: Path, out: TextIO, err: TextIO) -> tuple[Candidates, DemoVideo] | None:
    """The names vision may read (both embedded decks) and the demo video, rendered on
    first use; None when a deck list cannot be read (said on ``err``)."""
    from assistant.embedded import embedded_deck_paths
    from table_assistant.recognize_command import candidate_names
    from vision.demo_video import demo_video

    candidates = candidate_names([str(path) for path in embedded_deck_paths().values()], err)
    if not candidates.ok:
        return None
    print(f"demo: the demo video is kept in {folder} (rendered on first run)", file=out, flush=True)
    return candidates, demo_video(folder, demo_hit_points())


def demo_hit_points() -> dict[str, int]:
    """The HP printed on each Pokémon's proxy in the demo video, from the card catalog."""
    from assistant.catalog import default_catalog

    catalog = default_catalog()
    names = {card.name for _, _, table in seen_steps() for card in table.cards.values() if not card.face_down}
    return {name: card.hp for name in names if (card := catalog.resolve(name)) is not None and card.hp}


def _serve(table: LiveTable, listening: Any, server: dict[str, Any], worker: threading.Thread, once: bool,
           outcome: dict[str, int], out: TextIO, err: TextIO, host: str, port: int, view: CameraView) -> int:
    """The coin device and the dashboard, until Ctrl-C (``once``: until the video ends)."""
    import uvicorn

    from hardware.driver import attach
    from web.app import create_app

    device = attach(table, "sim", fallback="console")
    print("demo: the simulated coin device follows the table", file=err)
    token = secrets.token_urlsafe(12)
    print(f"game {table.game_id} ({table.edition.era}): the demo game, in {table.record.path}", file=out)
    announce(host, port, token, out)
    app = create_app(table, token=token, camera=view.jpeg, cards=view.card_jpeg, layout=view.layout)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
    server["uvicorn"] = uvicorn.Server(config)
    if once and not worker.is_alive():
        server["uvicorn"].should_exit = True
    try:
        with contextlib.suppress(KeyboardInterrupt):
            server["uvicorn"].run(sockets=[listening])
        if once:
            worker.join()
        return outcome.get("code", 0) if once else 0
    finally:
        device.stop()


#: Why a game was won, in words (the engine's ``win_reasons``).
WHY = {"prizes": "took the last Prize card", "no-pokemon": "the opponent has no Pokémon in play",
       "deck-out": "the opponent could not draw"}


def winner_words(result: dict[str, Any]) -> str:
    """A live table's result as a sentence: "Player A wins: the opponent has no Pokémon
    in play"."""
    winner = result.get("winner")
    why = "; ".join(WHY.get(reason, reason) for reason in result.get("why") or ())
    head = f"Player {winner} wins" if winner in ("A", "B") else f"{winner}"
    return f"{head}: {why}" if why else head


class GameOver(Exception):
    """The table has a winner: the rest of the video holds nothing more to judge."""


class Director:
    """Plays the person's part of the script: each console step at its moment, each
    answer to the camera's questions, and the video's pace.

    A console step waits for its moment in the video and until the camera has inferred
    the actions the script shows before it (the end of a turn must not overtake the
    turn's last play), but no later than the frame where the next card is moved, so a
    missed reading never stalls the demo."""

    def __init__(self, video: DemoVideo, script: Sequence[Step], link: CameraLink, speed: float = 1.0, *,
                 said: Callable[[Reply, int], None] | None = None, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.link = link
        self.said = said
        self.fps = video.fps
        self.speed = speed
        self.clock, self.sleep = clock, sleep
        self.frame = -1
        self.inferred = 0
        self._began: float | None = None
        self._answers = deque(step.answer for step in script if isinstance(step, Seen) and step.answer)
        # Per console step: the camera's inferences expected before it, its moment in the
        # video, and its deadline.
        self._due: deque[tuple[int, int, float, dict[str, Any]]] = deque()
        expected = 0
        for k, step in enumerate(script):
            if isinstance(step, Seen) and step.expect:
                expected += 1
            elif isinstance(step, Say):
                later = [video.schedule[j] for j in range(k + 1, len(script)) if isinstance(script[j], Seen)]
                self._due.append((expected, video.schedule[k], later[0] if later else math.inf, step.action))

    def tick(self) -> bool:
        """Called once per frame (as ``settled_pictures``'s ``started``): keep to the
        video's pace, play what is due; whether the table has started. Raises
        :class:`GameOver` once the table has a winner, which ends the demo's video."""
        self.frame += 1
        if self.speed > 0:
            now = self.clock()
            self._began = now if self._began is None else self._began
            wait = self._began + self.frame / (self.fps * self.speed) - now
            if wait > 0:
                self.sleep(wait)
        self._play(final=False)
        if self.link.table is not None and self.link.table.result is not None:
            raise GameOver
        return self.link.table is not None

    def answer(self, replies: list[Reply]) -> None:
        """Answer the camera's questions as the script's person does."""
        # A refusal is no play of the script's: it must not let a console step overtake one.
        self.inferred += sum(reply.alert is None for reply in replies)
        table = self.link.table
        for reply in replies:
            for question in reply.questions:
                if table is not None and self._answers:
                    table.answer(question.id, self._answers.popleft(), source="console")

    def finish(self) -> None:
        """The video ended: play the console steps left."""
        self._play(final=True)

    def _play(self, *, final: bool) -> None:
        table = self.link.table
        while table is not None and self._due:
            expected, moment, deadline, action = self._due[0]
            if not (final or (self.inferred >= expected and self.frame >= moment) or self.frame >= deadline):
                return
            self._due.popleft()
            reply = table.propose(action, source="console")
            if self.said is not None:
                self.said(reply, self.frame)
