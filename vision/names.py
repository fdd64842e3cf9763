"""Match OCR text to card names, narrowed by deck lists and the table.

Candidates arrive as plain data: ``(name, card_id)`` pairs for every known printing,
optionally the subset the declared deck lists hold, and a hint (names the table makes
likely, such as the evolutions of Pokémon in play). Names are deduplicated before
matching (~7,000 names for ~20,000 printings), so a full-database match stays fast.

The confidence is built to be *calibrated against wrong names*: it needs both a close
match and a clear margin over the next distinct name, and names that differ only by a
suffix the OCR cannot see (``Miraidon`` / ``Miraidon ex``) count as one ambiguous pair.

Two ways of matching, by how many names are possible:

- With deck lists (a few dozen names), every name is scored against the read's
  *glyphs*: each character Tesseract read with the runners-up it weighed. A read
  "Dondoro" whose "r" had "z" as runner-up costs Dondozo little and every other name
  much, so the deck name wins where plain text similarity would stay unsure.
- Without them (~7,000 names), the read's text is compared with every name by
  rapidfuzz.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
from rapidfuzz import fuzz, process

from vision.hit_points import hit_point_figures, single_figure
from vision.ocr import Glyph, LineRead

_SUFFIX = re.compile(r"\s+(ex|EX|GX|V|VMAX|VSTAR|V-UNION|BREAK|LV\.X|δ|Prime|LEGEND|◇|☆)$")
#: Below this confidence the reader says ``null`` (chosen on the tune split so wrong
#: names stay under 0.5%; see bench/vision).
ACCEPT = 0.5


def normalise(text: str) -> str:
    """Lower case, accents and punctuation removed, spaces collapsed."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[^0-9a-zA-Z ]+", "", text.replace("’", "'").replace("'", ""))
    return " ".join(text.lower().split())


def base_name(name: str) -> str:
    """What the OCR can be sure to see of a name: without the rule-box suffix drawn as a
    logo (``ex``, ``V``, ``GX``…), a subtitle in brackets (``(Professor Turo)``) and
    digits (``Pokégear 3.0``; digits are dropped from reads with the HP figure)."""
    name = re.sub(r"\s*\(.*?\)", "", name)
    name = _SUFFIX.sub("", name)
    return " ".join(re.sub(r"[0-9]", " ", normalise(name)).split())


def _spans(text: str, max_words: int = 5) -> list[tuple[str, int]]:
    """The read and its runs of whole words, each with how many words it leaves out: a
    line read as "basic pineco" or "= riolu" still holds the name as a run of words."""
    words = text.split()[:max_words]
    spans = [(" ".join(words[i:j]), len(words) - (j - i))
             for i in range(len(words)) for j in range(i + 1, len(words) + 1)]
    return [(s, d) for s, d in spans if len(s) >= 2]


def _energy(text: str) -> str | None:
    """``basic`` for a read like "basic energy" (the type between is an icon), ``special``
    for another line ending in "energy" (a written-out type included), else None: such a
    read names an Energy card or nothing, never the Trainer whose name it happens to
    resemble ("chergy": Cheryl)."""
    words = text.split()
    if len(words) < 2 or fuzz.ratio(words[-1], "energy") < 60:
        return None
    if len(words) > 2:
        return "special"  # a type written out ("Basic Psychic Energy") is read as a name
    return "basic" if fuzz.ratio(words[0], "basic") >= 60 or words[0].startswith("bas") else "special"


@dataclass(frozen=True)
class NameMatch:
    name: str | None
    card_id: str | None
    confidence: float
    text: str = ""
    #: The best fuzzy score (0..100) of the text against any name, whether or not it is
    #: sure: a real title read the wrong way up scores far lower than one read upright.
    similarity: float = 0.0
    #: With deck lists: how well the read fits the name alone (the confidence is also
    #: held down by how close the next name comes), and the deck names that came as
    #: close as this one (a tie: "Oinkologne" and "Oinkologne ex" read alike).
    closeness: float = 0.0
    rivals: tuple[str, ...] = ()


def _rank(match: NameMatch) -> tuple[bool, float, float]:
    """Which of two matches of one card's reads to keep: a sure one by its confidence;
    below that, the one that fits its names closest. A clean read of a tie ("Toxicroak":
    Toxicroak and Toxicroak ex alike, confidence 0 but closeness ~1) must not lose to
    junk that leans a little towards one name ("TNT," as Armaldo ex at 0.04): only the
    clean read can be settled by its HP or subtitle (tune split, decoy names in the deck
    lists, true outlines: 93-96% -> 97-98% named by Tesseract, no name wrong)."""
    sure = match.confidence >= ACCEPT
    return sure, match.confidence if sure else match.closeness, match.confidence


class _Pool:
    """Distinct names of one candidate set, ready for rapidfuzz."""

    def __init__(self, cards: Iterable[tuple[str, str | None]]) -> None:
        ids: dict[str, list[str]] = defaultdict(list)
        for name, cid in cards:
            if name:
                ids[name].extend([cid] if cid else [])
        self.ids = dict(ids)
        self.names = list(ids)
        self.keys = [normalise(n) for n in self.names]
        self.bases = [base_name(n) for n in self.names]
        self.spelled: dict[str, list[str]] = defaultdict(list)
        self.subtitled: dict[str, list[str]] = defaultdict(list)
        self.longest: dict[str, int] = defaultdict(int)  # per base, its names' longest key
        for name, key, base in zip(self.names, self.keys, self.bases, strict=True):
            self.spelled[key].append(name)
            self.longest[base] = max(self.longest[base], len(key))
            if subtitle(name):
                self.subtitled[normalise(title_of(name))].append(name)

    def top(self, text: str, limit: int = 6) -> list[tuple[int, float]]:
        """(index, score) of the best names, scores 0..100."""
        if not self.names:
            return []
        hits = process.extract(text, self.keys, scorer=fuzz.ratio, processor=None,
                               limit=limit, score_cutoff=45)
        by_base = process.extract(text, self.bases, scorer=fuzz.ratio, processor=None,
                                  limit=limit, score_cutoff=45)
        best: dict[int, float] = {}
        for _key, score, i in hits:
            best[i] = max(best.get(i, 0.0), score)
        for _key, score, i in by_base:
            # Reading only the base of a suffixed name is a weaker hint for it.
            best[i] = max(best.get(i, 0.0), score - 8)
        return sorted(best.items(), key=lambda item: -item[1])


#: Costs of lining a name up with a read's glyphs (Tesseract's cost scale, ~1 for a sure
#: character): a name's letter the glyph did not consider at all, a name's letter with
#: no glyph, a glyph inside the name that is none of its letters, and a glyph left out
#: before or after the name. Marks (a swoosh read as "|") and digits cost little to
#: leave out, letters more: a name must account for the letters of the word it is in.
#: Chosen on the tune split (bench/vision/names.py).
UNSEEN, MISSING, EXTRA_LETTER, EXTRA_MARK, LEFT_LETTER, LEFT_MARK = 60.0, 45.0, 35.0, 4.0, 8.0, 2.0
#: Per-letter costs at which a deck match is as unsure as it can be while still named
#: (:data:`ACCEPT`): the best name's cost, and its lead over the next name. (Tune split,
#: the finder's outlines, 12 frames per height band: 13 named 1/1/0 cards more than 12
#: and none wrongly, with 2% fewer OCR calls; 13.5 or 14 named a Katy "Wugtrio".)
SURE_COST, SURE_LEAD = 13.0, 3.0
#: A read far closer to one deck name than to any other may fit that name less well and
#: still name it: each point of its lead (per letter) over the next name beyond
#: ``WIDE_LEAD``, up to ``FULL_LEAD``, takes ``LEAD_CREDIT`` off its cost, so a name
#: ahead by 14 is named at up to 17 per letter ("GardGoir es": Gardevoir ex). The
#: finder's outlines, 12 frames per height band, 200-260 / 260-330 / 330-440 px: tune
#: 105 / 112 / 71 -> 105 / 113 / 71 cards named, holdout 111 / 113 / 74 -> 113 / 114 /
#: 74, 4% fewer OCR calls, no name wrong (a credit of 0.7 from a lead of 4 named one
#: card wrongly on each split).
LEAD_CREDIT, WIDE_LEAD, FULL_LEAD = 0.5, 6.0, 14.0
#: A deck name that prints no HP (a Trainer, an Energy), named with less confidence than
#: this, is not taken when the card's HP corner shows an HP figure
#: (``NameMatcher.refuted_by_hit_points``). Junk read from a blurred title leans past
#: :data:`ACCEPT` by chance, most often towards a short Trainer's name (Riolu, Medicham
#: named Penny; Rotom, Shroomish named Arven), and mostly on an end's first read: a
#: higher bar, a bar rising with the reads made, or a second read asked to agree, each
#: lost about as many right names as it saved wrong ones (tune split, every read of
#: 2,380 true outlines logged and the policies replayed: a second read asked to agree
#: below 0.7, 14 -> 3 wrong for 30 right names fewer). A figure in the corner says the
#: card is a Pokémon, and blur does not make one up. Which figure it is, blur does make
#: up ("80" for 60): refuting a Pokémon's name by a figure it does not print saved 3
#: more wrong names and lost 4 right ones on true outlines, 5 right ones and no wrong
#: one on whole motion-blurred frames, so a Pokémon's name is checked only when less
#: sure (``DOUBTED_BELOW``). Tune split, plain, decoys, motion and focus blur, glare,
#: both readers, true outlines: 200-260 px
#: 855 right / 14 wrong -> 855 / 9, 260-330 px 950 / 10 -> 950 / 9, ~0.5% more OCR calls;
#: below 0.7 one wrong name more, below any bar (every name checked) a Katy lost.
CHECKED_BELOW = 0.8
#: A name named less surely than this is a near miss that junk read from a blurred title
#: reaches by chance about as often as a real title does, and it is not taken when the
#: card's HP corner contradicts it: a Pokémon's name when the corner holds one HP figure
#: it is not printed with, a Trainer's or an Energy's when the corner holds any digit
#: (it prints none there; blur turns a Pokémon's "70" into "1" or "7", which no card
#: prints). Above the bar blur's made-up figures cost more right names than the check
#: saves wrong ones (see ``CHECKED_BELOW``). Tune split, whole frames of
#: ``bench.vision.conditions`` (deck lists, both readers, three height bands), every
#: named card's reads logged: of 24 wrong names under motion and focus blur and in the
#: table mix, 20 were named below 0.62 (as were 91 of 1,364 right ones), all from outlines
#: whose IoU with the card was 0.72-0.98, none by the text finder. Replayed on the logs
#: with the HP corner read, the check refutes 11 wrong and 6 right names below 0.6, 13
#: and 8 below 0.62, 13 and 11 below 0.65. Measured at 0.6 (2,142 cards): 24 -> 12 wrong,
#: 1,364 -> 1,356 right; plain frames and decoys (1,428 cards) unchanged, 1,367 right
#: and 2 wrong.
DOUBTED_BELOW = 0.6
#: A name the table makes likely (an evolution of a Pokémon in play) costs this much less.
HINT_COST = 1.5
_ALPHABET = {ch: i for i, ch in enumerate("abcdefghijklmnopqrstuvwxyz0123456789")}
_ENERGY = re.compile(r"^basic (\w+) energy$")


def spellings(name: str) -> set[str]:
    """What a title may show of ``name``, letters only: the whole name, its base without
    a suffix logo or subtitle, and for a Basic Energy "basic energy" and "<type> energy"
    (newer cards draw the type as an icon between the words)."""
    out = {normalise(name).replace(" ", ""), base_name(name).replace(" ", "")}
    if energy := _ENERGY.match(base_name(name)):
        out |= {"basicenergy", energy.group(1) + "energy"}
    return {key for key in out if key}


class _Spellings:
    """Every spelling of a small pool's names as padded letter codes, scored against a
    read's glyphs all at once."""

    def __init__(self, names: Sequence[str]) -> None:
        keys = [(i, key) for i, name in enumerate(names) for key in sorted(spellings(name))]
        self.count = len(names)
        self.owner = np.array([i for i, _ in keys], dtype=np.intp)
        self.lengths = np.array([len(key) for _, key in keys], dtype=np.intp)
        width = int(self.lengths.max()) if keys else 1
        pad = len(_ALPHABET)  # a slot no glyph offers: costs UNSEEN, never used by a key
        self.codes = np.full((len(keys), width), pad, dtype=np.intp)
        for row, (_, key) in enumerate(keys):
            self.codes[row, :len(key)] = [_ALPHABET.get(ch, pad) for ch in key]

    def costs(self, glyphs: Sequence[Glyph]) -> np.ndarray:
        """Per name, the cheapest per-letter cost of lining one of its spellings up with a
        run of the glyphs (an edit distance whose substitutions cost what Tesseract
        thought of that letter there).

        The table of costs is kept less ``MISSING`` per letter of the name (a name's
        letter without a glyph then costs nothing more along a row, and the running
        minimum takes them all in one call), and every glyph's substitution costs are
        looked up at once: ~7 numpy calls per glyph, not ~14 (a 12-glyph read against 34
        deck names: 0.59 -> 0.37 ms; a title read, ~4 glyphs: 0.22 -> 0.19 ms)."""
        keys, width = self.codes.shape
        if not glyphs:  # every letter of every name missing
            return self._per_name(np.full(keys, MISSING))
        table = np.full((len(glyphs), len(_ALPHABET) + 1), UNSEEN)
        for row, glyph in enumerate(glyphs):
            for ch, cost in glyph.choices.items():
                if ch in _ALPHABET:
                    table[row, _ALPHABET[ch]] = cost
        # Each glyph against each spelling's k-th letter, less MISSING (the shift of one
        # step along the name). Rows are positions along the names, columns spellings:
        # the running minimum then runs down rows, one vectorised pass per position.
        substituted = table[:, self.codes.T] - MISSING
        ends = self.lengths * keys + np.arange(keys)  # each spelling's last letter, flat
        shifted = np.zeros((width + 1, keys))  # lined up to no glyph yet: only MISSING letters
        step = np.empty_like(shifted)
        spare = np.empty((width, keys))
        best = np.zeros(keys)
        lead = 0.0
        for row, glyph in enumerate(glyphs):
            left = LEFT_LETTER if glyph.letter else LEFT_MARK
            lead += left
            step[0] = lead
            np.add(shifted[:-1], substituted[row], out=step[1:])
            np.add(shifted[1:], EXTRA_LETTER if glyph.letter else EXTRA_MARK, out=spare)
            np.minimum(step[1:], spare, out=step[1:])
            # Letters of the name missing from the read: a running minimum along the name.
            np.minimum.accumulate(step, axis=0, out=shifted)
            np.minimum(best + left, shifted.ravel()[ends], out=best)
        return self._per_name((best + self.lengths * MISSING) / self.lengths)

    def _per_name(self, per_letter: np.ndarray) -> np.ndarray:
        """The cheapest of each name's spellings' ``per_letter`` costs."""
        out = np.full(self.count, np.inf)
        np.minimum.at(out, self.owner, per_letter)
        return out


def _sureness(costs: np.ndarray) -> tuple[np.ndarray, float, float]:
    """Names (by index) from the cheapest per-letter cost (``_Spellings.costs``) up, the
    confidence of the first (how well it fits, and its lead over the next) and how well
    it fits alone (its closeness, see ``NameMatch``)."""
    order = np.argsort(costs)
    first = float(costs[order[0]])
    second = float(costs[order[1]]) if len(order) > 1 else np.inf
    credit = LEAD_CREDIT * (min(max(second - first, WIDE_LEAD), FULL_LEAD) - WIDE_LEAD)
    closeness = min(1.0, max(0.0, 1.0 - (first - credit) / (2 * SURE_COST)))
    lead = min(1.0, max(0.0, (second - first) / (2 * SURE_LEAD)))
    return order, round(min(closeness, lead), 3), round(closeness, 3)


def title_of(name: str) -> str:
    """``name`` without its subtitle: "Professor's Research" of "Professor's Research
    (Professor Sada)"."""
    return name[:name.rindex("(")].strip() if subtitle(name) else name


def subtitle(name: str) -> str:
    """The subtitle in brackets that ends a name, "" for none: "Professor Sada" of
    "Professor's Research (Professor Sada)". It is printed small, in italics, at the right
    end of the title line, apart from the title (which reads the same on every such
    card)."""
    found = re.search(r"\(([^()]*)\)\s*$", name)
    return found.group(1).strip() if found else ""


#: A deck name "goes on" from another for at most this many letters (``_longer_names``).
LONGER_BY = 2


def _longer_names(names: Sequence[str]) -> dict[int, list[tuple[int, int]]]:
    """Per name (by index), the names that spell it and go on by 1 to ``LONGER_BY``
    letters (Pawmo: Pawmot), with how many."""
    keys = [spellings(name) for name in names]
    longer: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for i, short in enumerate(keys):
        for j, long in enumerate(keys):
            if i == j:
                continue
            extra = min((len(b) - len(a) for a in short for b in long
                         if 0 < len(b) - len(a) <= LONGER_BY and b.startswith(a)), default=None)
            if extra is not None:
                longer[i].append((j, extra))
    return dict(longer)


class NameMatcher:
    """Turns title reads into a card name, an id and a confidence."""

    def __init__(self, cards: Sequence[tuple[str, str]],
                 deck: Sequence[tuple[str, str | None]] = (),
                 hit_points: Mapping[str, Iterable[int]] | None = None,
                 types: Mapping[str, Iterable[str]] | None = None,
                 attacks: Mapping[str, Iterable[str]] | None = None) -> None:
        """``hit_points``: the HP each deck name is printed with (a name may have several
        printings), which settles a tie between names whose titles read alike. ``types``:
        the Pokémon types each deck name is printed with, none for a Trainer or an Energy
        (``vision.type_colour``: the card's colour may refute a name; a name left out is
        not checked). ``attacks``: the names of each deck name's attacks and Abilities,
        which name a card whose title is hidden (``vision.attack_names``)."""
        self.all = _Pool(cards)
        self._declare(deck, hit_points, types, attacks)

    def with_deck(self, deck: Sequence[tuple[str, str | None]],
                  hit_points: Mapping[str, Iterable[int]] | None = None,
                  types: Mapping[str, Iterable[str]] | None = None,
                  attacks: Mapping[str, Iterable[str]] | None = None) -> NameMatcher:
        """A matcher for other deck lists that shares this one's names of every card (they
        take ~50 ms to prepare for ~20,000 printings, and the second card reader keeps
        them from frame to frame)."""
        matcher = NameMatcher.__new__(NameMatcher)
        matcher.all = self.all
        matcher._declare(deck, hit_points, types, attacks)
        return matcher

    def _declare(self, deck: Sequence[tuple[str, str | None]],
                 hit_points: Mapping[str, Iterable[int]] | None,
                 types: Mapping[str, Iterable[str]] | None = None,
                 attacks: Mapping[str, Iterable[str]] | None = None) -> None:
        self.deck = _Pool(deck) if deck else None
        self._spellings = _Spellings(self.deck.names) if self.deck else None
        self._longer = _longer_names(self.deck.names) if self.deck else {}
        self.hit_points = {name: frozenset(hps) for name, hps in (hit_points or {}).items()}
        self.types = {name: frozenset(kinds) for name, kinds in (types or {}).items()}
        self.attacks = {name: frozenset(normalise(a) for a in names) for name, names in (attacks or {}).items()
                        if names}

    def _judge(self, pool: _Pool, text: str, hint: set[str]) -> tuple[float, int | None, float]:
        scores: dict[int, float] = {}
        spans: dict[int, str] = {}
        for span, dropped in _spans(text):
            for i, s in pool.top(span):
                # Each word left out (a tag, the swoosh read as "=") costs a little, so
                # the whole read wins a tie.
                if s - 3.0 * dropped > scores.get(i, -1.0):
                    scores[i], spans[i] = s - 3.0 * dropped, span
        ranked = sorted(((i, s + (6 if pool.names[i] in hint else 0)) for i, s in scores.items()),
                        key=lambda item: -item[1])
        if not ranked:
            return 0.0, None, 0.0
        i1, s1 = ranked[0]
        rival = next((s for i, s in ranked[1:]), 0.0)
        same_base = [s for i, s in ranked[1:] if pool.bases[i] == pool.bases[i1]]
        if same_base and abs(s1 - same_base[0]) < 20:
            rival = max(rival, s1)  # cannot tell "X" from "X ex" by the text alone
        closeness = min(1.0, max(0.0, (s1 - 62.0) / 30.0))
        margin = min(1.0, max(0.0, (s1 - rival) / 18.0))
        # Two or three letters match too much by chance: a short read is trusted only
        # when the deck lists make it likely (Muk), not against the whole database.
        span = spans[i1]
        length = min(1.0, (len(span) - 1) / 4.0)
        if len(span) < 4:
            length *= 0.8
        return closeness * margin ** 0.5 * length, i1, max(scores.values())

    def _match_all(self, read: LineRead, hint: set[str]) -> NameMatch:
        """The read's text against every name of the database."""
        text = normalise(read.text)
        if len(text) < 2:
            return NameMatch(None, None, 0.0)
        energy = _energy(text)
        if energy and re.search(r"\s[^\w\s]+\s+\S+\s*$", read.text):
            energy = "basic"  # "Basic <icon> Energy" with "Basic" misread
        if energy == "basic":
            return NameMatch(None, None, 0.0)  # the type is an icon: the text cannot say which
        conf, i, similarity = self._judge(self.all, text, hint)
        if i is None or (energy and "energy" not in self.all.keys[i]):
            return NameMatch(None, None, 0.0, similarity=similarity)
        # The whole database matches noise more often (tune split: every wrong name
        # below 0.76): the power puts 0.76 at the ACCEPT line.
        name = self.all.names[i]
        return NameMatch(name, self.id_for(name, False), round(conf ** 2.5, 3), read.text, similarity)

    def _match_deck(self, read: LineRead, hint: set[str]) -> NameMatch:
        """The read's glyphs against every name of the deck lists. A card outside them is
        never named: with deck lists given it is far likelier a misread (Klawf read
        "Kiawe") than an undeclared card, and at worst it is reported as unsure."""
        assert self.deck is not None and self._spellings is not None
        glyphs = read.glyphs or Glyph.of_text(read.text)
        if not glyphs:
            return NameMatch(None, None, 0.0)
        costs = self._spellings.costs(glyphs)
        if hint:
            costs -= np.array([HINT_COST if name in hint else 0.0 for name in self.deck.names])
        marks = next((k for k, glyph in enumerate(reversed(glyphs)) if glyph.letter), len(glyphs))
        if marks:
            # The last letters of a title may come out as marks or digits ("Pawmot" read
            # "Pawmo."): a deck name that goes on where the best one ends, by no more
            # letters than the read has marks there, is as likely (a tie the HP can settle).
            best = int(np.argmin(costs))
            for longer, extra in self._longer.get(best, ()):
                if extra <= marks:
                    costs[longer] = min(costs[longer], costs[best])
        order, confidence, closeness = _sureness(costs)
        first = float(costs[order[0]])
        name = self.deck.names[int(order[0])]
        behind = order[1:]
        rivals = tuple(self.deck.names[int(i)] for i in behind[costs[behind] < first + 2 * SURE_LEAD])
        return NameMatch(name, self.id_for(name, True), confidence, read.text,
                         max(0.0, 100.0 - 2.0 * first), closeness, rivals)

    def match(self, reads: Sequence[str | LineRead], hint: Iterable[str] = ()) -> NameMatch:
        """The best name for any of ``reads`` (several OCR'd lines or frames; a plain
        string is a read without runners-up)."""
        best = NameMatch(None, None, 0.0)
        for read in reads:
            best = self.add(best, read, hint)
        return best

    def add(self, best: NameMatch, read: str | LineRead, hint: Iterable[str] = ()) -> NameMatch:
        """``match([*reads, read])`` given ``best = match(reads)``, matching ``read`` only:
        a reader adding its reads one by one pays for each once."""
        if isinstance(read, str):
            read = LineRead(read, 1.0)
        hint_set = set(hint)
        new = self._match_deck(read, hint_set) if self.deck else self._match_all(read, hint_set)
        top = new if _rank(new) > _rank(best) else best
        return replace(top, similarity=max(best.similarity, new.similarity))

    def spelled(self, text: str) -> list[str]:
        """The names (of the deck lists when given, else of every card) that ``text``
        spells exactly, but for case, accents and punctuation; none when a longer name
        shares their base (``base_name``), of which ``text`` may be a part read: a
        suffix logo, a subtitle on a line of its own, digits ("PokéGear" may be
        "Pokégear 3.0" whose "3.0" was not read; "Pokégear 3.0" is not "PokéGear")."""
        pool = self.deck if self.deck is not None else self.all
        key = normalise(text)
        names = pool.spelled.get(key, [])
        return [] if any(pool.longest[base_name(name)] > len(key) for name in names) else list(names)

    def subtitled(self, title: str) -> list[str]:
        """The names (of the deck lists when given, else of every card) printed with the
        title ``title`` spells and a subtitle: "Professor's Research (Professor Sada)"."""
        pool = self.deck if self.deck is not None else self.all
        return list(pool.subtitled.get(normalise(title), ()))

    def hit_points_may_tell(self, match: NameMatch) -> bool:
        """Whether an HP read could settle ``match``: its title was read well, but deck
        names as close as its own (Lugia V and Lugia VSTAR, X and X ex: the suffix is a
        logo OCR does not read) all have known HP, and one of them an HP no other has
        (Rotom 60 against Rotom V and Rotom ex, both 190: a read of 60 settles it, a read
        of 190 does not, see ``by_hit_points``)."""
        if match.confidence >= ACCEPT or not match.rivals or match.closeness < ACCEPT:
            return False
        group = [self.hit_points.get(name) for name in (match.name, *match.rivals)]
        if not all(group):
            return False
        return any(hps - frozenset().union(*group[:k], *group[k + 1:]) for k, hps in enumerate(group))

    def by_hit_points(self, match: NameMatch, digits: str) -> NameMatch:
        """``match`` settled by the digits read in the HP corner: the one name of the tie
        whose HP figure is among them. Unchanged when none or several fit (a stray digit
        beside the figure must not pick 60 over 160)."""
        if not digits or not self.hit_points_may_tell(match):
            return match
        group = (match.name, *match.rivals)
        fits = [name for name in group if any(str(hp) in digits for hp in self.hit_points[name])]
        if len(fits) != 1:
            return match
        return replace(match, name=fits[0], card_id=self.id_for(fits[0], True),
                       confidence=match.closeness, rivals=())

    def hit_points_may_refute(self, match: NameMatch) -> bool:
        """Whether ``match`` names its card only just (from :data:`ACCEPT`), the HP of the
        deck's Pokémon being known, so that a read of the HP corner may show it wrong
        (``refuted_by_hit_points``): a deck name that prints no HP below
        :data:`CHECKED_BELOW`, a Pokémon's below :data:`DOUBTED_BELOW`."""
        if self.deck is None or not self.hit_points or match.name is None:
            return False
        bar = DOUBTED_BELOW if match.name in self.hit_points else CHECKED_BELOW
        return ACCEPT <= match.confidence < bar

    def refuted_by_hit_points(self, match: NameMatch, digits: str) -> NameMatch:
        """``match`` made unsure (its confidence 0, its closeness kept) when it may be
        refuted (``hit_points_may_refute``) and the digits read in the HP corner say the
        card is not the one named: a Trainer or Energy named, and they hold an HP figure a
        card could print (``vision.hit_points.hit_point_figures``), or any digit below
        :data:`DOUBTED_BELOW`; a Pokémon named, and they hold one figure
        (``vision.hit_points.single_figure``) it is not printed with. Unchanged otherwise (no
        digits, or several figures: a stray digit beside the figure)."""
        if not self.hit_points_may_refute(match):
            return match
        printed = self.hit_points.get(match.name or "")
        if printed is None:
            refuted = bool(hit_point_figures(digits)) or (
                match.confidence < DOUBTED_BELOW and any(ch.isdigit() for ch in digits))
        else:
            figure = single_figure(digits)
            refuted = figure is not None and figure not in printed
        return replace(match, confidence=0.0) if refuted else match

    def subtitle_may_tell(self, match: NameMatch) -> bool:
        """Whether a read of the subtitle could settle ``match``: its title was read well,
        but deck names as close as its own differ from it by their subtitles alone
        (Professor's Research (Professor Sada) and (Professor Turo))."""
        if match.confidence >= ACCEPT or not match.rivals or match.closeness < ACCEPT:
            return False
        group = (match.name or "", *match.rivals)
        subtitles = {subtitle(name) for name in group}
        titles = {title_of(name) for name in group}
        return "" not in subtitles and len(subtitles) == len(group) and len(titles) == 1

    def by_subtitle(self, match: NameMatch, read: str | LineRead) -> NameMatch:
        """``match`` settled by a read of the subtitle: the one name of the tie whose
        subtitle the read's glyphs fit, as surely as a deck name must fit a title's
        (their shared words cost every name alike, so the words that differ decide).
        Unchanged when none is that sure."""
        if not self.subtitle_may_tell(match):
            return match
        if isinstance(read, str):
            read = LineRead(read, 1.0)
        glyphs = read.glyphs or Glyph.of_text(read.text)
        if not glyphs:
            return match
        group = (match.name or "", *match.rivals)
        order, confidence, _closeness = _sureness(_Spellings([subtitle(name) for name in group]).costs(glyphs))
        if confidence < ACCEPT:
            return match
        name = group[int(order[0])]
        return replace(match, name=name, card_id=self.id_for(name, True),
                       confidence=min(match.closeness, confidence), rivals=())

    def printings(self, name: str) -> list[str]:
        """The ids ``name`` may be printed as: the deck lists' printings of it when they
        list any, else every known printing."""
        in_deck = self.deck.ids.get(name) if self.deck is not None else None
        return sorted(set(in_deck or self.all.ids.get(name, [])))

    def id_for(self, name: str, in_deck: bool = True) -> str | None:
        """The id of ``name`` when it has one printing: in the deck lists (``in_deck``,
        when they list it), else among every known card; None when it has several (the
        collector number tells them apart: ``vision.identity``)."""
        if in_deck and self.deck is not None:
            ids = sorted(set(self.deck.ids.get(name, [])))
            if len(ids) == 1:
                return ids[0]
        ids = sorted(set(self.all.ids.get(name, [])))
        return ids[0] if len(ids) == 1 else None

    def decide(self, match: NameMatch) -> NameMatch:
        """``null`` name and id when the confidence is too low to act on."""
        if match.name is None or match.confidence >= ACCEPT:
            return match
        return NameMatch(None, None, match.confidence, match.text, match.similarity)
