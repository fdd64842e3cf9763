"""How many OCR calls a card costs: reads that cannot help are not made."""

import numpy as np

from vision.card_reading import LEARNED_READS, SURE_LEAN, read_card
from vision.names import NameMatcher
from vision.ocr import Glyph, LineRead

#: A name and its suffixed twin print the same title (the "ex" is a logo): a title read
#: well is a tie, unnamed, but close to a deck name. No HP is known to settle it.
TWINS = [("Pikachu", "sv4pt5-131"), ("Pikachu ex", "sv8-57")]
#: A blank frame: each end of the card offers one title image (its fixed crop), so each
#: end read costs one OCR call.
FRAME = np.full((1080, 1920, 3), 200, np.uint8)
QUAD = np.float32([[800, 300], [1050, 300], [1050, 650], [800, 650]])


class Scripted:
    """A line reader that reads ``texts`` in turn (the last one from then on), counting."""

    backend = "scripted"

    def __init__(self, *texts: str) -> None:
        self.texts, self.calls = list(texts), 0

    def read_line(self, image: np.ndarray, either_way: bool = True) -> LineRead:
        text = self.texts[min(self.calls, len(self.texts) - 1)]
        self.calls += 1
        return LineRead(text, 0.9, Glyph.of_text(text))


def test_a_title_read_clearly_but_tied_costs_one_read():
    # The likelier end read "Pikachu" well: the title is there, only tied between the
    # twins. Neither the other end (the card's bottom, the lean being sure) nor the same
    # title read from past the edge can settle that: one OCR call, not three.
    engine = Scripted("Pikachu")
    reading = read_card(engine, NameMatcher(TWINS, TWINS), FRAME, QUAD, (), SURE_LEAN)
    assert reading is not None and reading.name is None
    assert engine.calls == 1


def test_a_title_read_poorly_still_gets_a_look_past_the_edge():
    # "Pika": close to a deck name (the title is at this end) but not sure of it; the
    # outline may have cut the title, and the look past the edge reads it whole.
    deck = [("Pikachu", "sv4pt5-131"), ("Arven", "sv1-166")]
    engine = Scripted("Pika", "Pikachu")
    reading = read_card(engine, NameMatcher(deck, deck), FRAME, QUAD, (), SURE_LEAN)
    assert reading is not None and reading.name == "Pikachu"
    assert engine.calls == 2


def test_the_look_past_the_edge_is_at_the_end_taken_as_the_top():
    # The layout barely leans; its likelier end reads nothing like a name, the other end
    # "Pika", close to one: that end is the card's top, and the look past an edge is
    # taken there, naming the card that way up (upside down: Confused).
    deck = [("Pikachu", "sv4pt5-131"), ("Arven", "sv1-166")]
    engine = Scripted("~ |", "Pika", "Pikachu")
    reading = read_card(engine, NameMatcher(deck, deck), FRAME, QUAD, (), 0.01)
    assert reading is not None and reading.name == "Pikachu"
    assert reading.rotation == 180


def test_a_sure_lean_whose_end_shows_no_title_still_looks_at_the_other_end():
    # Nothing like a name at the likelier end: the lean may be wrong (a card turned the
    # wrong way up reads as Confused), and the other end's title names the card and
    # turns it.
    deck = [("Pikachu", "sv4pt5-131"), ("Arven", "sv1-166")]
    engine = Scripted("~ |", "Pikachu")
    reading = read_card(engine, NameMatcher(deck, deck), FRAME, QUAD, (), SURE_LEAN)
    assert reading is not None and reading.name == "Pikachu"
    assert engine.calls == 2
    assert reading.rotation == 180  # the other end was the top


def test_without_deck_lists_a_sure_lean_still_looks_at_the_other_end():
    # Against every name of the database noise comes close to some name: a near miss
    # says nothing there, and the other end gets its look.
    engine = Scripted("Pikachu")
    read_card(engine, NameMatcher(TWINS), FRAME, QUAD, (), SURE_LEAN)
    assert engine.calls == 2  # one read per end; past the edge only with deck lists


def test_a_name_only_just_sure_that_its_hp_corner_refutes_is_left_unsure(monkeypatch):
    # "Pemny" names Penny only just; the HP corner reads 70 (Riolu's): a Trainer prints no
    # HP, so the card is left unsure rather than named wrongly. One HP read, however many
    # title reads follow.
    import vision.card_reading

    deck = [("Penny", "sv1-183"), ("Riolu", "sv1-113"), ("Skwovet", "sv1-151")]
    matcher = NameMatcher(deck, deck, hit_points={"Riolu": {70}, "Skwovet": {60}})
    engine = Scripted("Pemny", "70", "Pemny")
    monkeypatch.setattr(vision.card_reading, "learned_or", lambda fallback: fallback)
    reading = read_card(engine, matcher, FRAME, QUAD, (), SURE_LEAN)
    assert reading is not None and reading.name is None
    # Where the corner shows no figure, the name stands.
    engine = Scripted("Pemny", "")
    reading = read_card(engine, matcher, FRAME, QUAD, (), SURE_LEAN)
    assert reading is not None and reading.name == "Penny"


def _learned_reader(monkeypatch, *texts: str) -> Scripted:
    """The learned reader (PP-OCR) replaced by one reading ``texts``."""
    import vision.card_reading

    learned = Scripted(*texts)
    monkeypatch.setattr(vision.card_reading, "learned_or", lambda fallback: learned)
    monkeypatch.setattr(vision.card_reading, "learned_reader_available", lambda: True)
    return learned


def test_a_card_no_read_names_gets_the_learned_readers_reads_of_its_title_row(monkeypatch):
    # Tesseract's line reads come near a name but never name it (a white title blurred
    # into its dark bar): the learned reader reads the likelier end's title row whole, and
    # names the card the way up the layout leaned. It stops at the read that names it.
    deck = [("Pikachu", "sv4pt5-131"), ("Arven", "sv1-166")]
    learned = _learned_reader(monkeypatch, "Pikachu")
    reading = read_card(Scripted("Pika"), NameMatcher(deck, deck), FRAME, QUAD, (), SURE_LEAN)
    assert reading is not None and reading.name == "Pikachu" and reading.rotation == 0
    assert learned.calls == 1
    # Where it reads nothing either, the card is left unsure after LEARNED_READS reads.
    learned = _learned_reader(monkeypatch, "~ |")
    reading = read_card(Scripted("Pika"), NameMatcher(deck, deck), FRAME, QUAD, (), SURE_LEAN)
    assert reading is not None and reading.name is None
    assert learned.calls == LEARNED_READS
    # A card its title reads name gets none; nor an end whose reads came nowhere near a
    # name (a quad that is no card, an unreadable blur): a whole-row read costs four lines.
    for tesseract_reads, name in (("Pikachu", "Pikachu"), ("~ |", None)):
        learned = _learned_reader(monkeypatch, "Arven")
        reading = read_card(Scripted(tesseract_reads), NameMatcher(deck, deck), FRAME, QUAD, (), SURE_LEAN)
        assert reading is not None and reading.name == name
        assert learned.calls == 0
