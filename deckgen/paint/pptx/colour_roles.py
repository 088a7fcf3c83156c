"""The story's colour roles (text, muted, accent, background, rule) as the theme's own colour
slots, so a template's theme colours carry through: as python-pptx's theme colours and as
DrawingML; and a tint kept readable on a dark background.

python-pptx only."""

from __future__ import annotations

from pptx.enum.dml import MSO_THEME_COLOR

SCHEME = {"text": "tx1", "muted": "tx2", "accent": "accent1", "background": "bg1", "rule": "bg2"}
THEME_COLOUR = {"text": MSO_THEME_COLOR.TEXT_1, "muted": MSO_THEME_COLOR.TEXT_2,
                "accent": MSO_THEME_COLOR.ACCENT_1, "background": MSO_THEME_COLOR.BACKGROUND_1,
                "rule": MSO_THEME_COLOR.BACKGROUND_2}


def colour_xml(role: str, brightness: float = 0.0) -> str:
    """A solid fill in a role's theme colour, lightened (brightness above 0) or darkened."""
    mods = ""
    if brightness > 0:
        mods = (f'<a:lumMod val="{round((1 - brightness) * 100000)}"/>'
                f'<a:lumOff val="{round(brightness * 100000)}"/>')
    elif brightness < 0:
        mods = f'<a:lumMod val="{round((1 + brightness) * 100000)}"/>'
    return f'<a:solidFill><a:schemeClr val="{SCHEME[role]}">{mods}</a:schemeClr></a:solidFill>'


def on_ground(fill: tuple[str, float] | None, dark: bool) -> tuple[str, float] | None:
    """A tint (a colour lightened) as a shade (darkened as much) on a dark background, so the
    light text on it keeps its contrast."""
    return (fill[0], -fill[1]) if fill and dark and fill[1] > 0 else fill


def is_dark(colour: str) -> bool:
    """Whether a '#RRGGBB' background is dark enough for light text."""
    h = colour.lstrip("#")
    if len(h) != 6:
        return False
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 100

