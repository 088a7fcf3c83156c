"""The deck writer's name for the chart pictures, until it takes `ChartPictures` itself.

The writer still asks the object it is handed for kept slides and for what an earlier deck
in the process measured; nothing is kept any more, so each answer is "none".
"""

from __future__ import annotations

from typing import Any

from deckgen.chart_pictures import ChartPictures


class _Nothing:
    """No lines measured before, no deck deflated before, no slide code to key slides by."""

    def __init__(self) -> None:
        self.deflated: dict[bytes, tuple[int, bytes]] = {}

    def lines(self, body_font: str, heading_font: str) -> dict[Any, Any]:
        return {}

    def deck_code(self) -> str:
        return ""


class Cache:
    """`pictures` (a `ChartPictures`), answering the deck writer's older questions too."""

    def __init__(self, pictures: ChartPictures | None = None) -> None:
        self.pictures = pictures if pictures is not None else ChartPictures()
        self.memory = _Nothing()

    def render(self, *args: Any, **kwargs: Any) -> bytes:
        return self.pictures.render(*args, **kwargs)

    def slide(self, key: str, parse: Any) -> Any:
        return None

    def keep_slide(self, key: str, slide: Any) -> None:
        pass
