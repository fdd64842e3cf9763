"""Rule editions ("eras"), one per official rulebook.

| era                  | rulebook                                                  |
|----------------------|-----------------------------------------------------------|
| expedition-2002      | 003, Pokémon: Expedition advanced rulebook (2002)         |
| platinum-2009        | 004, Diamond & Pearl / Platinum rulebook (2009)           |
| black-white-2011     | 000, Black & White rulebook (2011)                        |
| mega-evolution-2025  | 001, Mega Evolution—Phantasmal Flames rulebook (2025)     |

``standard`` is an alias of the newest era (SPEC §1). Rulebook 002 is an unofficial
summary: it never decides a rule.
"""

from __future__ import annotations

EXPEDITION_2002 = "expedition-2002"
PLATINUM_2009 = "platinum-2009"
BLACK_WHITE_2011 = "black-white-2011"
MEGA_EVOLUTION_2025 = "mega-evolution-2025"

ERAS = (EXPEDITION_2002, PLATINUM_2009, BLACK_WHITE_2011, MEGA_EVOLUTION_2025)
DEFAULT_ERA = MEGA_EVOLUTION_2025
ALIASES = {"standard": MEGA_EVOLUTION_2025}

RULEBOOKS = {
    EXPEDITION_2002: "003_b55862cc83f9dac9.txt",
    PLATINUM_2009: "004_0163ba3d06595167.txt",
    BLACK_WHITE_2011: "000_f5f923b195869c83.txt",
    MEGA_EVOLUTION_2025: "001_75e061fbe3c8e794.txt",
}


class UnknownEra(ValueError):
    """An era name that is not one of :data:`ERAS` or their aliases."""


def canonical_era(name: str | None) -> str:
    """The era's canonical name; ``None`` means the default era. Read an era through
    :func:`assistant.editions.edition`, which calls this once and hands back the
    :class:`~assistant.editions.Edition` the rest of the program passes down."""
    if name is None:
        return DEFAULT_ERA
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in ERAS:
        raise UnknownEra(f"unknown era {name!r}; choose one of {', '.join(ERAS)} (or 'standard')")
    return key
