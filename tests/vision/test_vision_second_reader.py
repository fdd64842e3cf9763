"""The second card reader: a frame's jobs shared between the caller and a process, and
nothing lost when that process fails. The jobs here are small module-level functions
(the process imports them by name); the last tests read real cards."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_scenes import CLEAN, NAMES, scene

import vision.recognize
import vision.second_reader
from vision.card_reading import CardReading
from vision.finder import find_cards, finish_cards
from vision.names import NameMatcher
from vision.second_reader import SecondReader

#: How long a test lets a fresh process start (imports and all): generous for CI.
START_S = 60.0


def _pixel(engine: str, context: dict, frame: np.ndarray, y: int, x: int, pause: float) -> tuple[int, str, int]:
    """A job: the pixel at (y, x), who read it, and with what context."""
    time.sleep(pause)
    if context.get("die_in_process") and engine == "process":
        os._exit(3)
    if context.get("hang_in_process") and engine == "process":
        time.sleep(30)
    if context.get("fail_in_caller") and engine == "caller":
        raise ValueError("a card the caller cannot read")
    return int(frame[y, x]), engine, context["kept"].loads


class Kept:
    """An object the process keeps: counts how often the process had to unpickle one."""

    loads = 0

    def __init__(self) -> None:
        self.names = ["Pikachu"] * 100  # as a card database would be, only smaller

    def __setstate__(self, state: dict) -> None:
        Kept.loads += 1
        self.__dict__.update(state)


def _engine() -> str:
    """The engine a second reader makes, named for where it reads."""
    return "thread" if multiprocessing.parent_process() is None else "process"


def _frame(height: int = 60, width: int = 80) -> np.ndarray:
    return np.arange(height * width, dtype=np.int32).reshape(height, width) % 1000


def _jobs(frame: np.ndarray, pause: float = 0.02) -> list[tuple[int, int, float]]:
    h, w = frame.shape
    return [(k * 7 % h, k * 13 % w, pause) for k in range(12)]


def _all_read(results: list[tuple[int, str, int]], frame: np.ndarray, jobs: list[tuple[int, int, float]]) -> bool:
    """Whether every job's pixel came back, in job order."""
    return [value for value, _who, _loads in results] == [int(frame[y, x]) for y, x, _ in jobs]


def _readers(results: list[tuple[int, str, int]]) -> set[str]:
    return {who for _value, who, _loads in results}


def _loads_in_process(results: list[tuple[int, str, int]]) -> set[int]:
    return {loads for _value, who, loads in results if who == "process"}


def _started(reader: SecondReader) -> SecondReader:
    assert reader.wait_until_answering(START_S)
    return reader


@pytest.fixture
def reader():
    reader = SecondReader(_pixel, _engine)
    yield reader
    reader.close()


def test_both_readers_take_jobs_and_the_process_sees_the_frame(reader):
    _started(reader)
    kept = Kept()
    for frame in (_frame(), _frame(90, 120), _frame(30, 40)):  # the frame's memory grows, then is reused
        jobs = _jobs(frame)
        with reader.sharing(frame) as share:
            results = share.read_all(jobs, {"kept": kept}, "caller", keep=(kept,))
        assert _all_read(results, frame, jobs)
        assert _readers(results) == {"caller", "process"}
    # The kept object went to the process once; the caller's contexts named it.
    assert _loads_in_process(results) == {1}


def test_a_new_context_goes_to_the_process_but_what_it_keeps_does_not():
    reader = _started(SecondReader(_pixel, _engine))
    kept, frame = Kept(), _frame()
    try:
        for _ in range(2):
            with reader.sharing(frame) as share:
                results = share.read_all(_jobs(frame), {"kept": kept}, "caller", keep=(kept,))
            assert _loads_in_process(results) == {1}
        with reader.sharing(frame) as share:  # another object to keep: sent anew
            results = share.read_all(_jobs(frame), {"kept": Kept()}, "caller", keep=())
        assert _loads_in_process(results) == {2}
    finally:
        reader.close()


def test_a_process_that_dies_costs_no_job_and_is_started_again(reader):
    _started(reader)
    frame, kept = _frame(), Kept()
    jobs = _jobs(frame)
    with reader.sharing(frame) as share:
        results = share.read_all(jobs, {"kept": kept, "die_in_process": True}, "caller")
    assert _all_read(results, frame, jobs)
    assert _readers(results) == {"caller"}
    assert reader.failures == 1
    _started(reader)  # a new one
    with reader.sharing(frame) as share:
        results = share.read_all(jobs, {"kept": kept}, "caller")
    assert "process" in _readers(results)


def test_a_process_that_stops_answering_is_given_up(reader, monkeypatch):
    monkeypatch.setattr(vision.second_reader, "PATIENCE_S", 0.5)
    _started(reader)
    frame = _frame()
    jobs = _jobs(frame)
    with reader.sharing(frame) as share:
        results = share.read_all(jobs, {"kept": Kept(), "hang_in_process": True}, "caller")
    assert _all_read(results, frame, jobs)
    assert reader.failures == 1


def test_a_frame_left_on_an_error_does_not_leak_into_the_next(reader):
    _started(reader)
    frame = _frame()
    with pytest.raises(ValueError), reader.sharing(frame) as share:
        share.ahead(_corner, 1)
        share.read_all(_jobs(frame, pause=0.05), {"kept": Kept(), "fail_in_caller": True}, "caller")
    other = 7 + _frame()  # the process may still be reading the first frame's jobs
    with reader.sharing(other) as share:
        done = share.ahead(_corner, 2)
        results = share.read_all(_jobs(other), {"kept": Kept()}, "caller")
        assert done is not None and done() == int(other[-1, -1]) + 2
    assert _all_read(results, other, _jobs(other))
    assert reader.failures == 0


def test_without_a_process_a_thread_is_the_second_reader(monkeypatch):
    monkeypatch.setattr(vision.second_reader, "MAX_FAILURES", 0)
    reader = SecondReader(_pixel, _engine)
    frame = _frame()
    jobs = _jobs(frame)
    with reader.sharing(frame) as share:
        assert share.ahead(_corner, 1) is None  # nothing runs ahead on a thread
        results = share.read_all(jobs, {"kept": Kept()}, "caller")
    assert _all_read(results, frame, jobs)
    assert _readers(results) == {"caller", "thread"}
    reader.close()


def test_a_few_frames_are_read_with_a_thread_and_more_start_the_process():
    reader = SecondReader(_pixel, _engine)
    frame, context = _frame(), {"kept": Kept()}
    before = set(multiprocessing.active_children())
    try:
        for _ in range(vision.second_reader.THREAD_FRAMES):
            with reader.sharing(frame) as share:
                results = share.read_all(_jobs(frame), context, "caller")
            assert _readers(results) == {"caller", "thread"}
            assert set(multiprocessing.active_children()) == before  # none started
        with reader.sharing(frame) as share:  # started now; the thread reads meanwhile
            assert "process" not in _readers(share.read_all(_jobs(frame), context, "caller"))
        assert len(set(multiprocessing.active_children()) - before) == 1
        _started(reader)
        with reader.sharing(frame) as share:
            assert "process" in _readers(share.read_all(_jobs(frame), context, "caller"))
    finally:
        reader.close()
    assert set(multiprocessing.active_children()) == before  # and ended


def test_a_second_frame_at_once_is_read_by_its_caller_alone(reader):
    _started(reader)
    frame = _frame()
    with reader.sharing(frame) as first, reader.sharing(frame) as second:
        results = second.read_all(_jobs(frame), {"kept": Kept()}, "caller")
        assert _readers(results) == {"caller"}
        assert "process" in _readers(first.read_all(_jobs(frame), {"kept": Kept()}, "caller"))


def _corner(frame: np.ndarray, add: int) -> int:
    if add < 0:
        raise ValueError("a task that fails")
    return int(frame[-1, -1]) + add


def test_a_task_runs_ahead_on_the_process_and_a_failed_one_gives_none(reader):
    _started(reader)
    frame = _frame()
    with reader.sharing(frame) as share:
        done = share.ahead(_corner, 5)
        failed = share.ahead(_corner, -1)
        never_waited_for = share.ahead(_corner, 7)
        assert failed is not None and failed() is None  # asked for out of turn
        assert done is not None and done() == int(frame[-1, -1]) + 5
        assert never_waited_for is not None
        results = share.read_all(_jobs(frame), {"kept": Kept()}, "caller")
    assert _all_read(results, frame, _jobs(frame))
    assert reader.failures == 0


def test_the_finder_uses_the_cards_finished_ahead_when_its_last_look_adds_none():
    sc = scene(NAMES[:6], seed=4)
    given = []

    def ahead(found):
        given.append(found)
        return lambda: finish_cards(sc.image, found)

    plain = find_cards(sc.image)
    assert len(plain) == 6
    with_ahead = find_cards(sc.image, ahead=ahead)
    assert len(given) == 1 and len(given[0]) == 6
    assert all(np.array_equal(a, b) for a, b in zip(plain, with_ahead, strict=True))
    # What was finished ahead is the result (here: shown by finishing nothing ahead).
    assert find_cards(sc.image, ahead=lambda found: lambda: []) == []
    # And a finish that failed (None) is done by the finder itself.
    again = find_cards(sc.image, ahead=lambda found: lambda: None)
    assert all(np.array_equal(a, b) for a, b in zip(plain, again, strict=True))


def test_the_second_reader_reads_what_the_caller_alone_reads(monkeypatch, recognizer):
    sc = scene(NAMES[:8], seed=6, style=CLEAN)
    assert recognizer.warm_up(START_S)
    shared = [r.to_json() for r in recognizer.recognize(sc.image)]
    assert len(shared) == 8
    monkeypatch.setattr(vision.recognize, "SECOND_READER", False)
    assert [r.to_json() for r in recognizer.recognize(sc.image)] == shared
    assert vision.recognize.second_reader().failures == 0


def _read_by_name_of_reader(engine, matcher, frame, quad, hint, lean, blur=None) -> CardReading:
    """A way of reading a card that names it after who read it, a little slowly (so the
    process takes its share of a frame's cards)."""
    time.sleep(0.05)
    return CardReading(quad, 0, _engine(), None, 1.0)


def test_a_recognizer_reads_cards_its_own_way_on_both_cores():
    sc = scene(NAMES[:6], seed=6, style=CLEAN)
    recognizer = vision.recognize.Recognizer(NameMatcher(NAMES), read=_read_by_name_of_reader)
    assert recognizer.warm_up(START_S)
    try:
        names = [r.name for r in recognizer.recognize(sc.image)]
        assert len(names) == 6 and set(names) == {"thread", "process"}  # read here, and by the process
        # Read the usual way, the same frame is named.
        assert {r.name for r in vision.recognize.Recognizer(NameMatcher(NAMES)).recognize(sc.image)} == {
            name for name, _id in NAMES[:6]}
    finally:
        vision.recognize.second_reader(vision.recognize.Tesseract, _read_by_name_of_reader).close()


def test_a_deck_matcher_shares_the_database_and_reads_the_deck(recognizer):
    deck = [("Pikachu", "sv4pt5-131"), ("Ralts", "sv1-84")]
    matcher = recognizer.matcher.with_deck(deck)
    assert matcher.all is recognizer.matcher.all
    assert matcher.deck is not None and set(matcher.deck.names) == {"Pikachu", "Ralts"}
    assert NameMatcher(NAMES, deck).match(["Pikachu"]).name == matcher.match(["Pikachu"]).name == "Pikachu"


def test_a_script_without_a_main_guard_runs_once(tmp_path):
    # A spawned Python imports the caller's main module again, which would run an
    # unguarded script's top level a second time (and fail to start its own reader).
    script = tmp_path / "count_cards.py"
    script.write_text(
        "import numpy as np\n"
        "import vision.recognize\n"
        "from vision.names import NameMatcher\n"
        "print('top level', flush=True)\n"
        "recognizer = vision.recognize.Recognizer(NameMatcher([('Pikachu', 'a')]))\n"
        "print('answering', recognizer.warm_up(60), flush=True)\n"
        "print('cards', len(recognizer.recognize(np.zeros((1080, 1920, 3), np.uint8))), flush=True)\n")
    root = Path(vision.recognize.__file__).resolve().parents[1]
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(root)})
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["top level", "answering True", "cards 0"]


def test_the_command_line_reads_each_image_once(cli, tmp_path):
    # The second reader is a spawned Python, which imports the command's __main__ again:
    # unguarded, that would run the command a second time, into the same output. (Enough
    # frames for it to start, and to answer.)
    paths = []
    for k in range(vision.second_reader.THREAD_FRAMES + 6):
        path = tmp_path / f"table-{k}.png"
        cv2.imwrite(str(path), scene(NAMES[k:k + 4], seed=20 + k).image)
        paths.append(str(path))
    run = cli("recognize", *paths, "--json")
    assert run.returncode == 0, run.stderr
    assert [json.loads(line)["image"] for line in run.stdout.splitlines()] == paths
    assert "Traceback" not in run.stderr and "leaked" not in run.stderr


@pytest.fixture
def fresh_second_reader(monkeypatch):
    """``vision.recognize``'s second reader, a new one for this test (and answering)."""
    monkeypatch.setattr(vision.recognize, "_second_readers", {})
    reader = vision.recognize.second_reader()
    assert reader.wait_until_answering(START_S)
    yield reader
    reader.close()


def _finder_with_last_look(monkeypatch, image: np.ndarray, last_look) -> list[bool]:
    """``recognize``'s finder, made to hand the second reader the cards it finds before
    its last look (to refine, and judge their layout, meanwhile), then return what
    ``last_look(cards, reader)`` makes of the cards (``reader`` None when there was no
    process to hand them to). Whether it could, frame by frame."""
    found: list[np.ndarray] = []
    find_cards(image, ahead=lambda cards: found.append(cards))
    cards = finish_cards(image, found[0])
    handed: list[bool] = []

    def find(frame, config=None, ahead=None):
        if ahead is None:  # the caller alone: no last look to wait for
            return last_look(cards, None)
        handed.append(ahead(found[0]) is not None)
        return last_look(cards, vision.recognize.second_reader() if handed[-1] else None)

    monkeypatch.setattr(vision.recognize, "find_cards", find)
    return handed


def _alone(monkeypatch, recognizer, image: np.ndarray) -> list[dict]:
    with monkeypatch.context() as alone:
        alone.setattr(vision.recognize, "SECOND_READER", False)
        return [r.to_json() for r in recognizer.recognize(image)]


def test_a_card_the_last_look_moved_is_read_from_where_it_is(monkeypatch, recognizer, fresh_second_reader):
    # What the second reader made of the cards before the last look (their layout's
    # lean) counts only for a card whose quad is exactly the one it was made for.
    sc = scene(NAMES[:6], seed=6, style=CLEAN)

    def moved_one(cards, reader):
        if reader is not None:
            time.sleep(0.5)  # the second reader is done meanwhile
        return [cards[0] + np.float32([2.0, 1.0]), *cards[1:]]

    handed = _finder_with_last_look(monkeypatch, sc.image, moved_one)
    shared = [r.to_json() for r in recognizer.recognize(sc.image)]
    assert handed == [True] and len(shared) == 6
    assert shared == _alone(monkeypatch, recognizer, sc.image)  # the moved card's own quad and name
    assert fresh_second_reader.failures == 0


@pytest.mark.parametrize("after_s", [0.0, 0.3])  # refining the cards, or done
def test_a_second_reader_that_dies_mid_frame_loses_no_card(monkeypatch, recognizer, fresh_second_reader, after_s):
    sc = scene(NAMES[:6], seed=7, style=CLEAN)

    def killed(cards, reader):
        if reader is not None:
            time.sleep(after_s)
            process = reader._process._process
            process.kill()
            process.join(START_S)
        return cards

    handed = _finder_with_last_look(monkeypatch, sc.image, killed)
    alone = _alone(monkeypatch, recognizer, sc.image)
    assert len(alone) == 6
    assert [r.to_json() for r in recognizer.recognize(sc.image)] == alone
    assert handed == [True]
    # The next frame is read as well (by a thread, then a new process).
    assert [r.to_json() for r in recognizer.recognize(sc.image)] == alone
