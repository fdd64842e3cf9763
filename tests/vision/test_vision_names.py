"""Name matching: right names, honest nulls, the right ids."""

from vision.names import ACCEPT, DOUBTED_BELOW, NameMatcher
from vision.ocr import Glyph, LineRead

CARDS = [("Miraidon ex", "sv1-81"), ("Miraidon ex", "sv1-244"), ("Miraidon", "sv8-76"),
         ("Charmander", "sv3pt5-4"), ("Charmander", "sv4pt5-7"), ("Flittle", "sv1-100"),
         ("Professor's Research (Professor Turo)", "sv1-190"),
         ("Professor's Research (Professor Sada)", "sv1-189"), ("Skwovet", "sv1-151")]


def test_a_misread_title_still_finds_its_card():
    m = NameMatcher(CARDS)
    hit = m.decide(m.match(["Flittie"]))
    assert hit.name == "Flittle" and hit.card_id == "sv1-100"
    assert hit.confidence >= ACCEPT


def test_garbage_is_not_sure():
    m = NameMatcher(CARDS)
    assert m.decide(m.match(["ee | A", "=<"])).name is None


def test_a_suffix_the_ocr_cannot_see_makes_it_unsure_without_decks():
    m = NameMatcher(CARDS)
    assert m.decide(m.match(["Miraidon"])).name is None


def test_deck_lists_settle_what_the_text_alone_cannot():
    m = NameMatcher(CARDS, deck=[("Miraidon ex", "sv1-81")])
    hit = m.decide(m.match(["Miraidon"]))
    assert hit.name == "Miraidon ex" and hit.card_id == "sv1-81"


def test_id_only_when_the_printing_is_unambiguous():
    m = NameMatcher(CARDS)
    hit = m.decide(m.match(["Charmander"]))
    assert hit.name == "Charmander" and hit.card_id is None
    assert m.decide(m.match(["Skwovet"])).card_id == "sv1-151"


def test_subtitled_trainers_need_the_deck_to_say_which():
    m = NameMatcher(CARDS)
    assert m.decide(m.match(["Professor's Research"])).name is None
    m = NameMatcher(CARDS, deck=[("Professor's Research (Professor Turo)", "sv1-190")])
    assert m.decide(m.match(["Professor’s Research"])).name == \
        "Professor's Research (Professor Turo)"


def test_the_table_hint_breaks_a_near_tie():
    cards = [("Kirlia", "a"), ("Kirlla", "b")]
    m = NameMatcher(cards)
    assert m.decide(m.match(["Kirlia"], hint=["Kirlia"])).name == "Kirlia"


def test_matching_twenty_thousand_printings_is_possible():
    cards = [(f"Name{i:05d}", f"x-{i}") for i in range(20000)] + CARDS
    m = NameMatcher(cards)
    assert m.decide(m.match(["Flittle"])).name == "Flittle"


def test_a_three_letter_read_needs_the_deck_to_be_trusted():
    cards = CARDS + [("Bea", "swsh9-147"), ("Muk", "sv1-57")]
    m = NameMatcher(cards)
    assert m.decide(m.match(["Bea"])).name is None
    m = NameMatcher(cards, deck=[("Muk", "sv1-57")])
    assert m.decide(m.match(["Muk"])).name == "Muk"
    assert m.decide(m.match(["Bea"])).name is None


def test_a_tag_or_swoosh_read_with_the_title_still_names_it():
    m = NameMatcher(CARDS)
    hit = m.decide(m.match(["= BASIC Skwovet"]))
    assert hit.name == "Skwovet" and hit.confidence >= ACCEPT


def test_a_basic_energy_read_is_honestly_null():
    # Its type is an icon between "Basic" and "Energy": the text cannot say which.
    cards = CARDS + [("Basic Fighting Energy", "sve-6"), ("Rescue Energy", "x-1"), ("Cheryl", "x-2")]
    m = NameMatcher(cards)
    for read in ("Bas » Energy", "| Rese + Energy", "PaNt # CHergy"):
        assert m.decide(m.match([read])).name is None
    assert m.decide(m.match(["Rescue Energy"])).name == "Rescue Energy"


def test_similarity_tells_a_title_from_noise():
    m = NameMatcher(CARDS)
    assert m.match(["Flittie"]).similarity > m.match(["ee | A"]).similarity


def test_reads_added_one_by_one_name_the_card_as_all_at_once():
    m = NameMatcher(CARDS, deck=[("Flittle", "sv1-100"), ("Skwovet", "sv1-151")])
    reads = ["ee | A", "Flittie", "= BASIC Skwovet", "Flittle"]
    best = m.match([])
    for text in reads:
        best = m.add(best, text)
    whole = m.match(reads)
    assert (best.name, best.card_id, best.text) == (whole.name, whole.card_id, whole.text)
    assert best.similarity == whole.similarity and best.name is not None


def _glyphs(*letters: str | dict[str, float]) -> tuple[Glyph, ...]:
    """A read's glyphs: a plain letter is a sure read, a dict lists the runners-up."""
    return tuple(Glyph({ch: 1.0}, True) if isinstance(ch, str) else Glyph(ch, True) for ch in letters)


def test_runners_up_name_a_deck_card_its_text_alone_cannot():
    deck = [("Wiglett", "sv1-49"), ("Wugtrio", "sv2-56"), ("Wingull", "sv1-65")]
    m = NameMatcher(CARDS + deck, deck=deck)
    assert m.decide(m.match(["Wiglerr"])).name is None
    read = LineRead("Wiglerr", 0.6, _glyphs("w", "i", "g", "l", "e", {"r": 1.0, "t": 30.0},
                                            {"r": 1.0, "t": 28.0}))
    assert m.decide(m.match([read])).name == "Wiglett"


def test_a_card_outside_the_deck_lists_is_not_named_as_a_deck_card():
    deck = [("Klawf", "sv2-105"), ("Riolu", "sv1-113")]
    m = NameMatcher(CARDS + deck + [("Kiawe", "sm4-96")], deck=deck)
    assert m.decide(m.match(["Kiawe"])).name is None


def test_a_basic_energy_is_named_when_the_decks_hold_one_type_only():
    fighting = ("Basic Fighting Energy", "sve-6")
    m = NameMatcher(CARDS + [fighting], deck=[fighting, ("Riolu", "sv1-113")])
    assert m.decide(m.match(["Basic Energy"])).name == "Basic Fighting Energy"
    both = [fighting, ("Basic Psychic Energy", "sve-5"), ("Riolu", "sv1-113")]
    m = NameMatcher(CARDS + both, deck=both)
    assert m.decide(m.match(["Basic Energy"])).name is None
    assert m.decide(m.match(["Basic Psychic Energy"])).name == "Basic Psychic Energy"


def test_with_deck_lists_similarity_still_ranks_reads_too_poor_to_name_a_card():
    # An unnamed card's way up is the end whose reads came closer to a deck name.
    m = NameMatcher(CARDS, deck=[("Flittle", "sv1-100"), ("Skwovet", "sv1-151")])
    near, noise = m.match(["Fxitxie"]), m.match(["ee | A"])
    assert m.decide(near).name is None and near.similarity > noise.similarity


OINKOLOGNE = [("Oinkologne", "sv1-158"), ("Oinkologne ex", "sv1-159"), ("Skwovet", "sv1-151")]
OINKOLOGNE_HP = {"Oinkologne": {130}, "Oinkologne ex": {260}, "Skwovet": {60}}


def test_a_title_two_deck_names_share_waits_for_the_hp():
    m = NameMatcher(OINKOLOGNE, deck=OINKOLOGNE, hit_points=OINKOLOGNE_HP)
    tie = m.match(["Oinkologne"])
    assert m.decide(tie).name is None  # the "ex" is a logo: the text cannot tell
    assert m.hit_points_may_tell(tie)
    # The HP corner's digits, with a stray one from the type symbol beside the figure.
    settled = m.decide(m.by_hit_points(tie, "2608"))
    assert settled.name == "Oinkologne ex" and settled.card_id == "sv1-159"
    assert m.decide(m.by_hit_points(tie, "1304")).name == "Oinkologne"


def test_an_hp_read_that_fits_neither_or_both_settles_nothing():
    m = NameMatcher(OINKOLOGNE, deck=OINKOLOGNE, hit_points=OINKOLOGNE_HP)
    tie = m.match(["Oinkologne"])
    for digits in ("", "80", "1302608"):
        assert m.decide(m.by_hit_points(tie, digits)).name is None


def test_without_the_deck_cards_hp_a_tie_stays_unsure():
    m = NameMatcher(OINKOLOGNE, deck=OINKOLOGNE, hit_points={"Oinkologne": {130}})
    tie = m.match(["Oinkologne"])
    assert not m.hit_points_may_tell(tie)
    assert m.decide(m.by_hit_points(tie, "260")).name is None


ROTOM = [("Rotom", "sv1-69"), ("Rotom V", "swsh11-58"), ("Rotom ex", "me2-29"), ("Skwovet", "sv1-151")]
ROTOM_HP = {"Rotom": {60}, "Rotom V": {190}, "Rotom ex": {190}, "Skwovet": {60}}


def test_rivals_sharing_an_hp_leave_the_one_hp_no_other_has_to_settle_it():
    # Rotom V and Rotom ex are both 190 HP: a read of 60 still names Rotom, a read of 190
    # cannot tell the two suffixed cards apart.
    m = NameMatcher(ROTOM, deck=ROTOM, hit_points=ROTOM_HP)
    tie = m.match(["Rotom"])
    assert m.decide(tie).name is None and m.hit_points_may_tell(tie)
    assert m.decide(m.by_hit_points(tie, "60")).name == "Rotom"
    assert m.decide(m.by_hit_points(tie, "190")).name is None


PAWMOT = [("Pawmo", "sv1-75"), ("Pawmot", "sv1-76"), ("Skwovet", "sv1-151")]
PAWMOT_HP = {"Pawmo": {80}, "Pawmot": {130}, "Skwovet": {60}}


def test_marks_where_a_longer_deck_name_goes_on_may_be_its_last_letters():
    # A real Pawmot read "Pawmo." (the "t" came out as a mark): with both in the deck, the
    # read is as much Pawmot as Pawmo, and the HP settles it. Without the mark, or with
    # one mark where the longer name needs two letters, it names Pawmo.
    m = NameMatcher(PAWMOT, deck=PAWMOT, hit_points=PAWMOT_HP)
    tie = m.match(["Pawmo."])
    assert m.decide(tie).name is None and set(tie.rivals) | {tie.name} == {"Pawmo", "Pawmot"}
    assert m.decide(m.by_hit_points(tie, "130")).name == "Pawmot"
    assert m.decide(m.by_hit_points(tie, "80")).name == "Pawmo"
    assert m.decide(m.match(["Pawmo"])).name == "Pawmo"
    longer = [("Pawmo", "sv1-75"), ("Pawmotto", None), ("Skwovet", "sv1-151")]  # 3 letters on
    m = NameMatcher(longer, deck=longer)
    assert m.decide(m.match(["Pawmo."])).name == "Pawmo"


def test_a_read_far_closer_to_one_deck_name_than_to_any_other_names_it():
    # "GardGoir es" fits Gardevoir ex at ~14 per letter: too loose to name it beside a
    # deck name almost as close (Gardevoir-GX, ~20), named when every other is far off.
    alone = [("Gardevoir ex", "sv1-86"), ("Skwovet", "sv1-151"), ("Riolu", "sv1-113")]
    m = NameMatcher(alone, deck=alone)
    assert m.decide(m.match(["GardGoir es"])).name == "Gardevoir ex"
    rival = [("Gardevoir ex", "sv1-86"), ("Gardevoir-GX", "sm3-93"), ("Skwovet", "sv1-151")]
    m = NameMatcher(rival, deck=rival)
    assert m.decide(m.match(["GardGoir es"])).name is None
    # However far ahead, a read that fits its name this badly stays unsure.
    m = NameMatcher(alone, deck=alone)
    assert m.decide(m.match(["Ganderor"])).name is None


def test_a_clean_read_of_a_tie_outranks_junk_read_first():
    m = NameMatcher(OINKOLOGNE, deck=OINKOLOGNE, hit_points=OINKOLOGNE_HP)
    junk = m.add(m.match([]), "Skw")  # leans a little towards Skwovet
    assert junk.name == "Skwovet" and 0 < junk.confidence < ACCEPT
    tie = m.add(junk, "Oinkologne")
    assert m.hit_points_may_tell(tie)  # the clean read is kept: its HP can settle it
    assert m.decide(m.by_hit_points(tie, "260")).name == "Oinkologne ex"


TRAINER_AND_POKEMON = [("Penny", "sv1-183"), ("Riolu", "sv1-113"), ("Skwovet", "sv1-151")]
TRAINER_AND_POKEMON_HP = {"Riolu": {70}, "Skwovet": {60}}


def test_a_trainer_named_only_just_is_refuted_by_an_hp_figure():
    # A blurred "Riolu" read "Pemny" names Penny, only just: a Trainer prints no HP, and
    # the corner shows one (with a stray digit beside it).
    m = NameMatcher(TRAINER_AND_POKEMON, deck=TRAINER_AND_POKEMON, hit_points=TRAINER_AND_POKEMON_HP)
    penny = m.match(["Pemny"])
    assert penny.name == "Penny" and m.hit_points_may_refute(penny)
    assert m.decide(m.refuted_by_hit_points(penny, "706")).name is None
    # A corner with no figure a card prints leaves it named.
    for digits in ("", "1", "7", "10"):
        assert m.decide(m.refuted_by_hit_points(penny, digits)).name == "Penny"


def test_a_pokemon_a_sure_name_or_a_deck_without_hp_is_not_checked():
    m = NameMatcher(TRAINER_AND_POKEMON, deck=TRAINER_AND_POKEMON, hit_points=TRAINER_AND_POKEMON_HP)
    # Blur makes up which figure it is ("80" for 60), not that there is one: a Pokémon's
    # name read this well is not refuted by a figure it does not print.
    riolu = m.match(["Riclu"])
    assert riolu.name == "Riolu" and riolu.confidence >= ACCEPT and not m.hit_points_may_refute(riolu)
    assert m.decide(m.refuted_by_hit_points(riolu, "60")).name == "Riolu"
    sure = m.match(["Penny"])
    assert not m.hit_points_may_refute(sure)
    assert m.decide(m.refuted_by_hit_points(sure, "70")).name == "Penny"
    # Without the HP of the deck's cards, a name without one may be a Pokémon all the same.
    m = NameMatcher(TRAINER_AND_POKEMON, deck=TRAINER_AND_POKEMON)
    assert m.decide(m.refuted_by_hit_points(m.match(["Pemny"]), "70")).name == "Penny"


def _blurred(text: str, at: int, runner_up: str) -> LineRead:
    """A read of ``text`` whose letter ``at`` had ``runner_up`` behind it, far behind:
    a blurred title, which names its card only just."""
    glyphs = list(Glyph.of_text(text))
    glyphs[at] = Glyph({text[at].lower(): 1.0, runner_up: 20.0}, True)
    return LineRead(text, 0.5, tuple(glyphs))


def test_a_pokemon_named_barely_is_refuted_by_a_figure_it_is_not_printed_with():
    # Junk read from a blurred title names a Pokémon only just as often as a real title
    # does: the HP corner showing one figure the name is not printed with refutes it.
    m = NameMatcher(TRAINER_AND_POKEMON, deck=TRAINER_AND_POKEMON, hit_points=TRAINER_AND_POKEMON_HP)
    riolu = m.match([_blurred("Rnolv", 4, "u")])
    assert riolu.name == "Riolu" and ACCEPT <= riolu.confidence < DOUBTED_BELOW
    assert m.hit_points_may_refute(riolu)
    assert m.decide(m.refuted_by_hit_points(riolu, "60")).name is None  # Skwovet's HP
    # Its own figure, no figure, or two (a stray digit: which one is the HP?) leave it named.
    for digits in ("70", "706", "", "1", "6070"):
        assert m.decide(m.refuted_by_hit_points(riolu, digits)).name == "Riolu"


def test_a_trainer_named_barely_is_refuted_by_any_digit_in_its_corner():
    # A Trainer prints no digit where a Pokémon prints its HP; blur turns "70" into "7".
    m = NameMatcher(TRAINER_AND_POKEMON, deck=TRAINER_AND_POKEMON, hit_points=TRAINER_AND_POKEMON_HP)
    penny = m.match([_blurred("Pcnmy", 1, "e")])
    assert penny.name == "Penny" and ACCEPT <= penny.confidence < DOUBTED_BELOW
    for digits in ("7", "1", "10"):
        assert m.decide(m.refuted_by_hit_points(penny, digits)).name is None
    assert m.decide(m.refuted_by_hit_points(penny, "")).name == "Penny"


def test_a_text_spells_a_name_exactly_only_when_no_other_name_reads_alike():
    cards = [("Jacq", "sv1-175"), ("Pokégear 3.0", "sv1-186"), ("PokéGear", "hgss1-95"),
             ("Professor's Research", "swsh1-178"), ("Professor's Research (Professor Sada)", "sv1-189"),
             ("Professor's Research (Professor Turo)", "sv1-190")]
    matcher = NameMatcher(cards)
    assert matcher.spelled("JACQ") == ["Jacq"] and matcher.spelled("Jacq.") == ["Jacq"]
    assert matcher.spelled("Jac") == []
    # A name may be a part read of a longer one with its base: digits, a subtitle unread.
    assert matcher.spelled("PokéGear") == [] and matcher.spelled("Pokégear 3.0") == ["Pokégear 3.0"]
    assert matcher.spelled("Professor's Research") == []
    assert matcher.subtitled("Professor's Research") == [
        "Professor's Research (Professor Sada)", "Professor's Research (Professor Turo)"]
    assert matcher.subtitled("Jacq") == []
