"""Keeping freed memory for the next frame.

Finding cards allocates and frees tens of megabytes of short-lived arrays per frame
(gradient images, snapping grids). With the C library's default, freed memory at the top
of the heap beyond ~128 KB goes back to the system and is mapped afresh on the next
frame, and on this project's machine (a virtual machine) every 4 KB page mapped afresh
costs ~4 µs: ~4,700 page faults per 1080p frame of the tune split, ~15-20 ms of its
~150 ms of finding. Asking glibc to keep ``TOP_PAD`` bytes spare at the top of the heap
leaves the next frame's arrays on pages already mapped: a few hundred faults per frame,
and the whole of finding ~13% faster (process CPU time, interleaved with the same code
without it). The whole process gains alike: reading cards churns arrays too.
"""

from __future__ import annotations

import ctypes
import sys

#: glibc's ``mallopt`` parameters: the spare bytes kept at the heap's top, and the size
#: from which a block is mapped on its own (and unmapped when freed).
M_TOP_PAD, M_MMAP_THRESHOLD = -2, -3

#: Spare bytes kept: more than one frame's churn of freed arrays (a 1080p frame's
#: search and refinement copies and their gradients).
TOP_PAD = 64 << 20

#: Blocks this big or bigger are mapped on their own: glibc's own ceiling when it
#: adapts the threshold, which setting any of these options stops it doing (a 1080p
#: frame's biggest arrays are ~8 MB; a huge image still goes back to the system).
MMAP_THRESHOLD = 32 << 20


def keep_freed_memory() -> bool:
    """Ask the C library to keep ``TOP_PAD`` bytes of freed memory for reuse instead of
    returning it to the system (process-wide; glibc on Linux only). Whether it agreed:
    elsewhere, nothing changes."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1 and mallopt(M_TOP_PAD, TOP_PAD) == 1
