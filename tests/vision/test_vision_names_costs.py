"""The glyph costs of deck names: the vectorised edit distance is the plain one."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from vision.names import (
    EXTRA_LETTER,
    EXTRA_MARK,
    LEFT_LETTER,
    LEFT_MARK,
    MISSING,
    UNSEEN,
    NameMatcher,
    _Spellings,
    spellings,
)
from vision.ocr import Glyph, LineRead

NAMES = ["Pawmo", "Pawmot", "Dondozo", "Basic Fighting Energy", "Professor's Research (Professor Sada)",
         "Miraidon ex", "Muk", "Pokégear 3.0"]


def plain_cost(key: str, glyphs: list[Glyph]) -> float:
    """The cheapest cost of lining ``key`` up with a run of ``glyphs``, one cell at a time:
    glyphs before and after the run are left out, a glyph in the run is one of the key's
    letters (what Tesseract thought of that letter there) or an extra one, and a letter
    of the key may have no glyph."""
    n = len(key)
    row = [j * MISSING for j in range(n + 1)]  # no glyph yet: letters missing
    best, lead = row[n], 0.0
    for glyph in glyphs:
        left = LEFT_LETTER if glyph.letter else LEFT_MARK
        extra = EXTRA_LETTER if glyph.letter else EXTRA_MARK
        lead += left
        new = [lead] + [0.0] * n
        for j in range(1, n + 1):
            new[j] = min(row[j - 1] + glyph.choices.get(key[j - 1], UNSEEN), row[j] + extra, new[j - 1] + MISSING)
        row = new
        best = min(best + left, row[n])
    return best / n


glyph = st.builds(Glyph, st.dictionaries(st.sampled_from("abcdeikmnoprstuwz0123"),
                                         st.floats(0.5, 70.0), min_size=1, max_size=4), st.booleans())


@settings(max_examples=150, deadline=None)
@given(st.lists(glyph, max_size=24), st.lists(st.sampled_from(NAMES), min_size=1, max_size=6, unique=True))
def test_costs_are_the_plain_edit_distance(glyphs, names):
    costs = _Spellings(names).costs(glyphs)
    for name, cost in zip(names, costs, strict=True):
        expected = min(plain_cost(key, glyphs) for key in spellings(name))
        assert math.isclose(cost, expected, rel_tol=1e-9, abs_tol=1e-9)


def test_a_name_with_no_glyphs_costs_every_letter_missing():
    assert list(_Spellings(["Muk", "Pawmot"]).costs([])) == [MISSING, MISSING]


def test_near_names_are_rivals_in_order():
    # "Pawmo." (a last letter read as a mark): Pawmot is as close as Pawmo, a tie for the
    # HP to settle; Dondozo is no rival.
    deck = [(name, None) for name in ("Dondozo", "Pawmot", "Pawmo")]
    match = NameMatcher(deck, deck).match([LineRead("Pawmo.", 0.9, Glyph.of_text("Pawmo."))])
    assert {match.name, *match.rivals} == {"Pawmo", "Pawmot"}
