"""Colour contrast as WCAG 2 defines it: relative luminance and the contrast ratio, and a colour
made to reach TEXT_CONTRAST on its grounds. Pure; the deck, the handout and the charts all judge
text against its ground with these."""

from __future__ import annotations

TEXT_CONTRAST = 4.5  # WCAG AA for text


def channel_luminance(value: float) -> float:
    """One sRGB channel (0 to 1) as linear light."""
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def luminance_rgb(red: float, green: float, blue: float) -> float:
    """The relative luminance (0 to 1) of a colour given as sRGB channels from 0 to 1."""
    return (0.2126 * channel_luminance(red) + 0.7152 * channel_luminance(green)
            + 0.0722 * channel_luminance(blue))


def luminance(hex_colour: str) -> float:
    """The relative luminance (0 to 1) of a '#RRGGBB' colour."""
    h = hex_colour.lstrip("#")
    red, green, blue = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return luminance_rgb(red, green, blue)


def ratio(first: float, second: float) -> float:
    """The contrast ratio (1 to 21) of two relative luminances."""
    light, dark = max(first, second), min(first, second)
    return (light + 0.05) / (dark + 0.05)


def contrast(a: str, b: str) -> float:
    """The contrast ratio (1 to 21) of two '#RRGGBB' colours."""
    return ratio(luminance(a), luminance(b))


def mix(a: str, b: str, k: float) -> str:
    """`a` mixed with `k` of `b`."""
    ca = [int(a.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
    cb = [int(b.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(x + (y - x) * k):02X}" for x, y in zip(ca, cb, strict=True))


def best_of_black_and_white(grounds: list[str]) -> str:
    """Black or white, whichever has the more contrast on the worst of `grounds`."""
    return max(("#000000", "#FFFFFF"), key=lambda c: min(contrast(c, g) for g in grounds))


def passing(colour: str, grounds: list[str]) -> str:
    """`colour` darkened (or lightened) in small steps, keeping its hue, until it has
    TEXT_CONTRAST on every one of `grounds`; black or white, the better, when none does."""
    h = colour.lstrip("#")
    rgb = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    for step in range(1, 21):
        k = step / 20
        for mixed in ([round(c * (1 - k)) for c in rgb],
                      [round(c + (255 - c) * k) for c in rgb]):
            candidate = "#" + "".join(f"{c:02X}" for c in mixed)
            if all(contrast(candidate, g) >= TEXT_CONTRAST for g in grounds):
                return candidate
    return best_of_black_and_white(grounds)
