"""Device CMYK inks by the plain formula, for print-shop files: no ICC profile, black on K alone.

K comes from the darkest channel, so every grey (text black included) is K only and no small glyph
turns into rich black on a shop's converter. The total ink of a colour is held to `MAX_INK` (240 %,
what DriveThruCards allows, docs/printing.md) by thinning its C, M and Y, never its K.
"""

from __future__ import annotations

MAX_INK = 2.4  # total area coverage, C + M + Y + K


def rgb_to_cmyk(r: float, g: float, b: float, max_ink: float = MAX_INK) -> tuple[float, float, float, float]:
    """CMYK (0 to 1 each) of an RGB colour (0 to 1 each)."""
    k = 1 - max(r, g, b)
    if k >= 1 - 1e-9:
        return 0.0, 0.0, 0.0, 1.0
    c, m, y = ((1 - v - k) / (1 - k) for v in (r, g, b))
    cmy = c + m + y
    if cmy + k > max_ink and cmy > 0:
        scale = max(max_ink - k, 0.0) / cmy
        c, m, y = c * scale, m * scale, y * scale
    return round(c, 6), round(m, 6), round(y, 6), round(k, 6)


def hex_to_cmyk(hex_colour: str, max_ink: float = MAX_INK) -> tuple[float, float, float, float]:
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return rgb_to_cmyk(r, g, b, max_ink)
