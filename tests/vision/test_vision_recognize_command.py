"""``table-assistant recognize --json`` per SPEC §2."""

import io
import json

import cv2
from vision_scenes import scene

from table_assistant.recognize_command import recognize


def _names_from_catalog():
    from assistant.catalog import default_catalog

    return [(n, i) for n, i in default_catalog().all_names()][:6]


def test_json_lines_in_input_order_and_unreadable_input(tmp_path, capsys):
    sc = scene(_names_from_catalog(), 11)
    first = tmp_path / "a.png"
    cv2.imwrite(str(first), sc.image)
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), sc.image[:200, :200] * 0 + 128)
    out = io.StringIO()
    code = recognize([str(first), str(tmp_path / "missing.jpg"), str(empty)], [], True, out)
    assert code == 2
    assert "missing.jpg" in capsys.readouterr().err
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [rec["image"] for rec in lines] == [str(first), str(empty)]
    rec = lines[0]
    assert (rec["width"], rec["height"]) == (1920, 1080)
    assert isinstance(rec["ms"], float)
    assert rec["cards"], "cards expected on the table frame"
    for card in rec["cards"]:
        assert set(card) == {"name", "id", "confidence", "quad", "rotation"}
        assert card["rotation"] in (0, 90, 180, 270)
        assert len(card["quad"]) == 4 and all(len(p) == 2 for p in card["quad"])
        assert 0.0 <= card["confidence"] <= 1.0
    truth = {c.name for c in sc.cards}
    assert all(c["name"] in truth for c in rec["cards"] if c["name"] is not None)
    assert lines[1]["cards"] == []


def test_plain_output_and_clean_exit(tmp_path):
    sc = scene(_names_from_catalog()[:2], 12)
    path = tmp_path / "b.jpg"
    cv2.imwrite(str(path), sc.image)
    out = io.StringIO()
    assert recognize([str(path)], [], False, out) == 0
    assert str(path) in out.getvalue()
