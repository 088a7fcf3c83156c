"""The placed deck's colours as DrawingML: a role as the theme's own colour slot (so a
template's theme colours carry through), lightened or darkened as placed; any other colour as
its value.

python-pptx only."""

from __future__ import annotations

from pptx.enum.dml import MSO_THEME_COLOR

from deckgen.plan.placed import Colour

SCHEME = {"text": "tx1", "muted": "tx2", "accent": "accent1", "background": "bg1", "rule": "bg2"}
THEME_COLOUR = {"text": MSO_THEME_COLOR.TEXT_1, "muted": MSO_THEME_COLOR.TEXT_2,
                "accent": MSO_THEME_COLOR.ACCENT_1, "background": MSO_THEME_COLOR.BACKGROUND_1,
                "rule": MSO_THEME_COLOR.BACKGROUND_2}


def colour_xml(colour: Colour) -> str:
    """A solid fill of `colour`: its role's theme slot, lightened (brightness above 0) or
    darkened, or its value."""
    if not colour.role:
        return f'<a:solidFill><a:srgbClr val="{colour.value.lstrip("#").upper()}"/></a:solidFill>'
    mods = ""
    if colour.brightness > 0:
        mods = (f'<a:lumMod val="{round((1 - colour.brightness) * 100000)}"/>'
                f'<a:lumOff val="{round(colour.brightness * 100000)}"/>')
    elif colour.brightness < 0:
        mods = f'<a:lumMod val="{round((1 + colour.brightness) * 100000)}"/>'
    return (f'<a:solidFill><a:schemeClr val="{SCHEME[colour.role]}">{mods}</a:schemeClr>'
            "</a:solidFill>")
