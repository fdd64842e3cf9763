"""``table-assistant cards import PATH``: fill the local card database."""

from __future__ import annotations

from typing import TextIO

from assistant.carddb import CardDatabase, ImportError_


def import_cards(path: str, *, out: TextIO) -> int:
    with CardDatabase() as database:
        try:
            report = database.import_path(path)
        except ImportError_ as error:
            print(f"cards import: {error}", file=out)
            return 2
        for problem in report.problems:
            print(f"skipped: {problem}", file=out)
        print(
            f"imported {report.cards} cards from {report.files} files, {report.sets} sets, "
            f"{len(report.problems)} problems, in {report.seconds:.1f} s; "
            f"the database holds {database.count()} cards ({database.path})",
            file=out,
        )
    return 0
