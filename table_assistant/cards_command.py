"""``table-assistant cards import PATH``: fill the local card database.

The summary goes to standard output; every file or record that could not be read goes
to standard error, named. Exit 0 when cards were imported (whatever was skipped), 2 when
nothing could be: a bad path, or a folder whose every file is unreadable.
"""

from __future__ import annotations

from typing import TextIO

from assistant.carddb import CardDatabase, ImportError_
from assistant.quoting import quote
from table_assistant.messages import cut_short


def import_cards(path: str, *, out: TextIO, err: TextIO | None = None) -> int:
    err = err or out
    with CardDatabase() as database:
        try:
            report = database.import_path(path)
        except ImportError_ as error:
            print(f"cards import: {cut_short(str(error))}", file=err)
            return 2
        except OSError as error:  # a name too long to look up, a file that may not be read
            where = quote(error.filename) if error.filename else quote(path)
            print(f"cards import: cannot read {where}: {error.strerror or error}; nothing was imported", file=err)
            return 2
        for problem in report.problems:
            print(f"cards import: skipped {cut_short(problem)}", file=err)
        print(
            f"imported {report.cards} cards from {report.files} files, {report.sets} sets, "
            f"{len(report.problems)} problems, in {report.seconds:.1f} s; "
            f"the database holds {database.count()} cards ({database.path})",
            file=out,
        )
    skipped = len(report.problems)
    if report.cards == 0:
        why = f"{skipped} unreadable (listed above)" if skipped else "no card records in them"
        print(f"cards import: nothing imported from {quote(path)}: {report.files} card files, {why}",
              file=err)
        return 2
    if skipped:
        print(f"cards import: {skipped} files or records could not be read and were skipped "
              f"(listed above); the other {report.cards} cards are imported", file=err)
    return 0
