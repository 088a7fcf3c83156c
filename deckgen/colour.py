"""Colour contrast as WCAG 2 defines it: relative luminance and the contrast ratio. Pure; the
deck, the handout and the charts all judge text against its ground with these."""

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
