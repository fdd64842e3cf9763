"""Image files as ``recognize`` is given them: a photo, a frame, or a folder of them.

A file is judged by its header before it is decoded: what it is (Pillow reads the
header only), and how big. A picture smaller than ``MIN_SIDE`` a side cannot show a
card anyone could read; one of more than ``MAX_PIXELS`` is refused before its pixels
are decoded, so a 12000 × 12000 file (432 MB decoded) or a forged header never takes
the machine's memory. What passes is decoded by OpenCV, as frames from a camera are;
a file whose header is sound but whose data ends early (a copy cut short) decodes to
nothing and is reported as damaged.

Every refusal is an :class:`ImageError` whose message is one line saying why, without
the path (the caller names the file).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import cv2
import numpy as np

#: The smallest side, in pixels, of an image worth reading: a card's title needs a
#: card of about 150 px, and a thumbnail under this holds none.
MIN_SIDE = 64
#: The most pixels decoded: 50 megapixels takes a 48 MP phone photo (8000 × 6000,
#: ~144 MB decoded) and refuses anything larger before decoding it.
MAX_PIXELS = 50_000_000
#: What a folder's images are named (as for ``run --camera FOLDER``).
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})


class ImageError(ValueError):
    """An input that is not a readable image; the message says why in one line."""


def image_paths(paths: list[str]) -> list[tuple[str, ImageError | None]]:
    """``paths`` with each folder replaced by its images (sorted by name), each paired
    with the error that already rules it out (a folder with no images in it), or None."""
    out: list[tuple[str, ImageError | None]] = []
    for path in paths:
        folder = Path(path)
        try:
            if not folder.is_dir():
                out.append((path, None))  # a file, or nothing: reading it will say
                continue
            images = sorted(str(p) for p in folder.iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        except OSError as error:  # a name too long for the system, a folder not ours to list
            out.append((path, ImageError(error.strerror or str(error))))
            continue
        if not images:
            suffixes = ", ".join(sorted(IMAGE_SUFFIXES))
            out.append((path, ImageError(f"the folder holds no images ({suffixes})")))
        out.extend((image, None) for image in images)
    return out


def check_header(path: str) -> tuple[int, int, str]:
    """(width, height, format) of the image file at ``path`` from its header alone;
    :class:`ImageError` when it is not an image or its size is out of bounds."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():  # Pillow warns of a big header; the check below says more
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                width, height = image.size
                kind = image.format or "image"
                _check_size(width, height)
                damaged = _damaged(image)
    except ImageError:
        raise
    except UnidentifiedImageError:
        raise ImageError("not an image (no image format recognised in it)") from None
    except Image.DecompressionBombError:  # Pillow's own limit, far above ours
        raise ImageError(f"too large: more than {MAX_PIXELS // 1_000_000} megapixels") from None
    except IsADirectoryError:
        raise ImageError("a folder, not an image") from None
    except OSError as error:
        raise ImageError(error.strerror or str(error)) from None
    except (ValueError, SyntaxError) as error:  # a header Pillow's parsers reject outright
        raise ImageError(f"not an image ({error})") from None
    if damaged:
        raise _damaged_error(kind, width, height)
    return width, height, kind


def _check_size(width: int, height: int) -> None:
    if min(width, height) < MIN_SIDE:
        raise ImageError(f"too small to show a card: {width}×{height} px (at least {MIN_SIDE} px a side)")
    if width * height > MAX_PIXELS:
        raise ImageError(f"too large: {width}×{height} px is {width * height / 1e6:.0f} megapixels "
                         f"(at most {MAX_PIXELS // 1_000_000}); scale it down first")


def _damaged(image) -> bool:
    """Whether Pillow's check of a just-opened file's structure fails (a PNG cut short:
    its chunks' checksums; OpenCV's PNG decoder would print libpng's complaint first)."""
    try:
        image.verify()
    except Exception:  # noqa: BLE001 - Pillow raises many kinds for damaged data
        return True
    return False


def _damaged_error(kind: str, width: int, height: int) -> ImageError:
    return ImageError(f"a damaged or truncated {kind} file: its {width}×{height} px header "
                      "is there but its data cannot be decoded")


def read_image(path: str) -> np.ndarray:
    """The image at ``path`` as BGR, checked by :func:`check_header` before it is
    decoded; :class:`ImageError` says why it cannot be read."""
    width, height, kind = check_header(path)
    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as error:
        raise ImageError(error.strerror or str(error)) from None
    frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if frame is None:
        raise _damaged_error(kind, width, height)
    return frame
