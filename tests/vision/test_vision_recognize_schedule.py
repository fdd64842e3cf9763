"""Where a frame's work is done: what the second reader does ahead while the finder
takes its last look is what the caller would have done, and nothing is done twice."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from vision_scenes import NAMES, scene

import vision.card_reading
import vision.recognize
from vision.card_judge import Kind, judge_all
from vision.card_reading import SURE_LEAN, read_card
from vision.finder import find_cards, fine_copy, finish_cards
from vision.layout import lean as layout_lean
from vision.names import NameMatcher
from vision.ocr import Glyph, LineRead
from vision.recognize import _JudgedAhead, finish_and_judge, judged

SCENE = scene(NAMES[:5], seed=11)


def _found_before_last_look(image: np.ndarray) -> np.ndarray:
    """The quads (search copy's pixels) the finder hands ``ahead`` before its last look."""
    found: list[np.ndarray] = []
    find_cards(image, ahead=lambda cards: found.append(cards))
    return found[0]


class _SameThread:
    """A frame share whose tasks ahead run at once, here (``FrameShare.ahead``)."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame

    def ahead(self, task, *args):
        result = task(self.frame, *args)
        return lambda: result


def test_the_work_ahead_judges_each_outline_as_the_caller_would():
    found = _found_before_last_look(SCENE.image)
    # An outline of bare mat beside the cards (the frame's top left corner): no card.
    mat = np.float32([[2, 2], [40, 2], [40, 56], [2, 56]])
    ahead = finish_and_judge(SCENE.image, np.concatenate([found, mat[None]]), vision.recognize.FinderConfig())
    quads = [np.asarray(q, np.float32) for q in finish_cards(SCENE.image, np.concatenate([found, mat[None]]))]
    kinds = judge_all(SCENE.image, quads)
    assert [kind for _q, kind, _lean in ahead] == kinds
    assert Kind.FACE in kinds and Kind.NOT_A_CARD in kinds
    for (quad, kind, lean), own in zip(ahead, quads, strict=True):
        assert np.array_equal(quad, own)
        # Only faces are read, so only faces get the layout's lean.
        assert lean == (layout_lean(SCENE.image, own) if kind is Kind.FACE else None)


@settings(max_examples=25, deadline=None)
@given(st.floats(200, 1700), st.floats(150, 900), st.floats(60, 400), st.floats(-45, 45),
       st.lists(st.floats(-6, 6), min_size=8, max_size=8))
def test_judging_on_the_finders_halved_frame_equals_judging_on_the_frame(x, y, height, angle, jitter):
    # The work ahead judges on the finder's fine copy (the frame halved once for both):
    # the same kinds as judging the frame, which halves it itself.
    box = cv2.boxPoints(((x, y), (height * 0.716, height), angle)).astype(np.float32)
    quad = box + np.float32(jitter).reshape(4, 2)
    fine, scale = fine_copy(SCENE.image)
    assert scale == 0.5
    assert judge_all(fine, [quad * np.float32(scale)]) == judge_all(SCENE.image, [quad])


def test_what_the_last_look_left_as_it_was_is_not_judged_again(monkeypatch):
    ahead = _JudgedAhead(_SameThread(SCENE.image), vision.recognize.FinderConfig())
    refined = ahead(_found_before_last_look(SCENE.image))()
    assert refined
    judged_now: list[int] = []
    leaned_now: list[bytes] = []

    def judged_here(frame, quads):
        judged_now.append(len(quads))
        return judge_all(frame, quads)

    def leaned_here(frame, quad):
        leaned_now.append(quad.tobytes())
        return layout_lean(frame, quad)

    monkeypatch.setattr(vision.recognize, "judge_all", judged_here)
    monkeypatch.setattr(vision.recognize, "layout_lean", leaned_here)
    # The last look added nothing: the work ahead is the result.
    faces, leans, backs = ahead.judged(SCENE.image, refined)
    assert judged_now == [] and leaned_now == []
    own_faces, own_backs = judged(SCENE.image, refined)
    assert all(np.array_equal(a, b) for a, b in zip(faces, own_faces, strict=True))
    assert leans == [layout_lean(SCENE.image, q) for q in own_faces] and backs == own_backs == []
    # It moved a card: all are judged again together (the judge weighs an outline among
    # the others), and only the moved card is leaned again.
    final = [refined[0] + np.float32([2.0, 1.0]), *refined[1:]]
    judged_now.clear()
    leaned_now.clear()
    faces, leans, _backs = ahead.judged(SCENE.image, final)
    assert judged_now == [len(final)] and leaned_now == [final[0].tobytes()]
    own_faces, _own_backs = judged(SCENE.image, final)
    assert all(np.array_equal(a, b) for a, b in zip(faces, own_faces, strict=True))
    assert leans == [layout_lean(SCENE.image, q) for q in own_faces]


class _Scripted:
    backend = "scripted"

    def __init__(self, text: str) -> None:
        self.text = text

    def read_line(self, image: np.ndarray, either_way: bool = True) -> LineRead:
        return LineRead(self.text, 0.9, Glyph.of_text(self.text))


def test_the_learned_look_reads_the_band_its_end_straightened(monkeypatch):
    # A card only the learned reader names: its likelier end's band is straightened once,
    # for Tesseract's reads and the learned reader's alike (~1.6 ms a band).
    straightened: list[bytes] = []
    title_band = vision.card_reading.title_band

    def counted(frame, quad):
        straightened.append(np.asarray(quad, np.float32).tobytes())
        return title_band(frame, quad)

    monkeypatch.setattr(vision.card_reading, "title_band", counted)
    monkeypatch.setattr(vision.card_reading, "learned_or", lambda fallback: _Scripted("Pikachu"))
    monkeypatch.setattr(vision.card_reading, "learned_reader_available", lambda: True)
    deck = [("Pikachu", "sv4pt5-131"), ("Arven", "sv1-166")]
    frame = np.full((1080, 1920, 3), 200, np.uint8)
    quad = np.float32([[800, 300], [1050, 300], [1050, 650], [800, 650]])
    reading = read_card(_Scripted("Pika"), NameMatcher(deck, deck), frame, quad, (), SURE_LEAN)
    assert reading is not None and reading.name == "Pikachu"
    assert len(straightened) == len(set(straightened))


def test_frames_found_on_two_threads_at_once_come_out_as_found_alone():
    # The finder hands its segment detector to one side thread shared by all callers. Two
    # frames found at once (the tracker and a benchmark, say) must neither wait on each
    # other for good nor swap their segments.
    other = scene(NAMES[5:9], seed=12).image
    alone = [find_cards(image) for image in (SCENE.image, other)]
    with ThreadPoolExecutor(2) as pool:
        for _round in range(3):
            at_once = [pool.submit(find_cards, image) for image in (SCENE.image, other)]
            for found, expected in zip(at_once, alone, strict=True):
                quads = found.result(timeout=60)
                assert len(quads) == len(expected) > 0
                assert all(np.array_equal(q, e) for q, e in zip(quads, expected, strict=True))
