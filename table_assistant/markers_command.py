"""``table-assistant markers OUT.png``: the playmat's four corner markers, to print.

Lay each printed marker at the corner of the mat its label names, its outer corner on
the mat's corner; vision then places cards on the mat itself rather than in the
camera's picture, so a nudged camera moves no card from its zone (:mod:`vision.markers`).
``OUT`` ends in ``.png`` or ``.pdf``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from assistant.quoting import quote

KINDS = (".png", ".pdf")


def write_markers(out_path: str, out: TextIO, err: TextIO) -> int:
    """0 once the sheet is written (its path said on ``out``); 2, said on ``err``, for
    a name that is not a PNG or PDF or a place that cannot be written."""
    from vision.markers import marker_sheet

    path = Path(out_path)
    if path.suffix.lower() not in KINDS:
        print(f"markers: {quote(out_path)} must end in .png or .pdf", file=err)
        return 2
    if path.is_dir():
        print(f"markers: {quote(out_path)} is a folder; name the file to write", file=err)
        return 2
    try:
        marker_sheet(path)
    except OSError as error:
        print(f"markers: cannot write {quote(out_path)}: {error.strerror or error}", file=err)
        return 2
    print(f"wrote the four corner markers to {path}; print it and lay each marker at the mat corner "
          "its label names", file=out)
    return 0
