"""The camera view and the calibration of the mat's zones, for the judge.

``/camera`` (the console's token in its link) shows the camera's latest frame as vision
saw it: each card's outline, name and confidence, and the mat's zones the mirror uses
to tell whose card it is and whether it is Active or on the Bench. The frame itself is
``/api/console/camera.jpg``; a table without a camera (``serve``) answers 404, one
whose camera has sent no frame yet 503.

Calibration: ``/api/console/layout`` reads and changes the zones while the game runs.
Adjustable, each a fraction of the image:

- ``centre``: the line between the two players' halves (0.1–0.9 of the height);
- ``active_depth``: how far from that line each Active row reaches (0.02–0.5);
  beyond it lies that player's Bench;
- ``near``: how close an Energy card must lie to its Pokémon (0.01–1);
- ``a_at_bottom``: whether player A sits at the bottom of the image.

A change applies to the next picture the mirror looks at; the cards already on the
table keep the places the mirror gave them.

A mat without printed markers is fixed by hand: ``/api/console/corners`` takes the
mat's four corners as the judge tapped them on the picture (fractions of it, top-left
first, clockwise). The mirror then places cards on the mat through that homography, as
it does with markers, until the markers are seen or the corners are forgotten
(``DELETE``); the zones are drawn where they lie on the mat.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Query
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from assistant.quoting import quote
from assistant.table_layout import LayoutError, TableLayout

#: The latest annotated frame as JPEG, or None before the first.
Frames = Callable[[], bytes | None]
#: The latest frame's picture of the card read as a name, as JPEG; None if none reads so.
CardPictures = Callable[[str], bytes | None]


class MatCorners(BaseModel):
    """The mat's corners on the picture, as the judge tapped them."""

    model_config = ConfigDict(extra="forbid")

    corners: list[list[float]] = Field(
        max_length=16, description="four [across, down] points, fractions of the picture: the mat's top-left "
                                   "corner first (player B's side at the top), then clockwise")


class LayoutChange(BaseModel):
    """The fractions to change; those left out stay as they are."""

    model_config = ConfigDict(extra="forbid")

    centre: float | None = Field(None, description="the line between the halves, a fraction of the height")
    active_depth: float | None = Field(None, description="how far from the centre line the Active rows reach")
    near: float | None = Field(None, description="how close an Energy card lies to its Pokémon")
    a_at_bottom: bool | None = Field(None, description="whether player A sits at the bottom of the image")


def camera_router(frames: Frames | None, layout: TableLayout | None, console: Callable[..., None],
                  page: Callable[[str | None, Path], Any], static: Path,
                  cards: CardPictures | None = None) -> APIRouter:
    """The camera's routes. ``console`` is the token check of the console's API;
    ``page(token, path)`` serves a page to the token's holder (the locked page to
    anyone else); ``cards`` cuts a card's picture out of the latest frame."""
    router = APIRouter()
    guarded = [Depends(console)]

    @router.get("/camera", response_class=HTMLResponse, include_in_schema=False)
    def camera_page(token_query: str | None = Query(None, alias="token")) -> Any:
        return page(token_query, static / "camera.html")

    @router.get("/api/console/camera.jpg", tags=["camera"], dependencies=guarded, response_class=Response,
                responses={200: {"content": {"image/jpeg": {}}}, 404: {}, 503: {}})
    def camera_frame() -> Response:
        """The camera's latest frame with each card's outline, name and confidence and
        the mat's zones drawn on it (JPEG)."""
        if frames is None:
            raise HTTPException(404, "this table has no camera: it is kept by hand (table-assistant serve)")
        data = frames()
        if data is None:
            raise HTTPException(503, "the camera has sent no frame yet: check that it is connected",
                                headers={"Retry-After": "1"})
        return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    @router.get("/api/console/camera/card.jpg", tags=["camera"], dependencies=guarded, response_class=Response,
                responses={200: {"content": {"image/jpeg": {}}}, 404: {}})
    def card_picture(name: str = Query(min_length=1, max_length=200, description="the card's name as read"),
                     ) -> Response:
        """The camera's picture of the card read as ``name`` in its latest frame (JPEG):
        what a judge looks at before confirming what the camera asks."""
        if cards is None:
            raise HTTPException(404, "this table has no camera: it is kept by hand (table-assistant serve)")
        data = cards(name)
        if data is None:
            raise HTTPException(404, f"no card in the camera's latest frame reads as {quote(name)}")
        return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    def zones() -> TableLayout:
        if layout is None:
            raise HTTPException(404, "this table has no camera, so no zones to calibrate")
        return layout

    @router.get("/api/console/layout", tags=["camera"], dependencies=guarded)
    def get_layout() -> dict[str, Any]:
        """The mat's zones as fractions of the image (see the calibration page)."""
        return zones().fractions()

    @router.post("/api/console/layout", tags=["camera"], dependencies=guarded)
    def set_layout(change: LayoutChange) -> dict[str, Any]:
        """Move the zones: the centre line, the depth of the Active rows, ``near``, and
        which player sits at the bottom. A value out of range is a 400 and changes
        nothing. Answers the zones now."""
        current = zones()
        try:
            current.adjust(**change.model_dump(exclude_none=True))
        except LayoutError as error:
            raise HTTPException(400, str(error)) from None
        return current.fractions()

    @router.get("/api/console/corners", tags=["camera"], dependencies=guarded)
    def get_corners() -> dict[str, Any]:
        """The mat's corners the judge tapped (fractions of the picture), or null."""
        return _corners(zones())

    @router.post("/api/console/corners", tags=["camera"], dependencies=guarded)
    def set_corners(tapped: MatCorners) -> dict[str, Any]:
        """Fix the mat by its four corners on the picture: cards are placed on the mat
        through them (until its markers are seen). Not four points, a point off the
        picture, or corners out of order (a crossed shape) are a 400 and change nothing."""
        current = zones()
        try:
            current.set_corners(tapped.corners)
        except LayoutError as error:
            raise HTTPException(400, str(error)) from None
        return _corners(current)

    @router.delete("/api/console/corners", tags=["camera"], dependencies=guarded)
    def forget_corners() -> dict[str, Any]:
        """Forget the tapped corners: cards are placed in the picture again (or by the
        mat's markers, when they are seen)."""
        current = zones()
        current.set_corners(None)
        return _corners(current)

    return router


def _corners(layout: TableLayout) -> dict[str, Any]:
    return {"corners": None if layout.corners is None else [list(point) for point in layout.corners]}
