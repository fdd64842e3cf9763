"""Match OCR text to card names, narrowed by deck lists and the table.

Candidates arrive as plain data: ``(name, card_id)`` pairs for every known printing,
optionally the subset the declared deck lists hold, and a hint (names the table makes
likely, such as the evolutions of Pokémon in play). Names are deduplicated before
matching (~7,000 names for ~20,000 printings), so a full-database match stays fast.

The confidence is built to be *calibrated against wrong names*: it needs both a close
match and a clear margin over the next distinct name, and names that differ only by a
suffix the OCR cannot see (``Miraidon`` / ``Miraidon ex``) count as one ambiguous pair.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from rapidfuzz import fuzz, process

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


class NameMatcher:
    """Turns title reads into a card name, an id and a confidence."""

    def __init__(self, cards: Sequence[tuple[str, str]],
                 deck: Sequence[tuple[str, str | None]] = ()) -> None:
        self.all = _Pool(cards)
        self.deck = _Pool(deck) if deck else None

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
        if pool is self.all and len(span) < 4:
            length *= 0.8
        return closeness * margin ** 0.5 * length, i1, max(scores.values())

    def match(self, texts: Sequence[str], hint: Iterable[str] = ()) -> NameMatch:
        """The best name for any of ``texts`` (several OCR'd lines or frames)."""
        hint_set = set(hint)
        best = NameMatch(None, None, 0.0)
        similarity = 0.0
        for raw in texts:
            text = normalise(raw)
            if len(text) < 2:
                continue
            energy = _energy(text)
            if energy and re.search(r"\s[^\w\s]+\s+\S+\s*$", raw):
                energy = "basic"  # "Basic <icon> Energy" with "Basic" misread
            if energy == "basic":
                continue  # a Basic Energy's type is an icon: the text cannot say which
            for pool, in_deck in ((self.deck, True), (self.all, False)):
                if pool is None:
                    continue
                conf, i, sim = self._judge(pool, text, hint_set)
                similarity = max(similarity, sim)
                if i is None or (energy and "energy" not in pool.keys[i]):
                    continue
                if in_deck:
                    conf = min(1.0, conf * 1.15)
                elif self.deck is not None:
                    # With deck lists given, a card outside them is far likelier a misread
                    # (Klawf read "Kiawe"): never named, only reported as unsure.
                    conf *= 0.45
                else:
                    # The whole database matches noise more often (tune split: every wrong
                    # name below 0.76): the power puts 0.76 at the ACCEPT line.
                    conf **= 2.5
                if conf > best.confidence:
                    name = pool.names[i]
                    cid = self._id_for(name, in_deck)
                    best = NameMatch(name, cid, round(conf, 3), raw)
                if in_deck and conf >= ACCEPT:
                    break  # a clear deck match wins over the whole database
        return replace(best, similarity=similarity)

    def add(self, best: NameMatch, text: str, hint: Iterable[str] = ()) -> NameMatch:
        """``match([*texts, text])`` given ``best = match(texts)``, matching ``text`` only:
        a reader adding its reads one by one pays for each once."""
        new = self.match([text], hint)
        top = new if new.confidence > best.confidence else best
        return replace(top, similarity=max(best.similarity, new.similarity))

    def _id_for(self, name: str, in_deck: bool) -> str | None:
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
