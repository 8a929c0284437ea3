"""How far apart two card-type colours look: CIEDE2000 in normal vision, in greyscale and under the
two red-green colour deficiencies (Machado, Oliveira & Fernandes 2009, severity 1).

Pure functions on '#RRGGBB' strings, so a test can hold every palette to a number: bands of
different types must differ by at least MIN_DELTA_E in every condition.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import combinations

MIN_DELTA_E = 10.0

Lab = tuple[float, float, float]
Linear = tuple[float, float, float]

# Machado et al. 2009, severity 1.0, applied to linear sRGB.
PROTANOPIA = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998))
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))


def _linear(hex_colour: str) -> Linear:
    h = hex_colour.lstrip("#")
    if len(h) != 6:
        raise ValueError(f"colour '{hex_colour}' is not #RRGGBB")
    chans = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in chans)
    return r, g, b


def _lab(rgb: Linear) -> Lab:
    """CIELAB (D65) of linear sRGB, channels clipped to [0, 1] as a screen or printer would."""
    r, g, b = (min(max(c, 0.0), 1.0) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _apply(m: tuple[tuple[float, ...], ...], rgb: Linear) -> Linear:
    r, g, b = (m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2] for i in range(3))
    return r, g, b


def normal(hex_colour: str) -> Lab:
    return _lab(_linear(hex_colour))


def greyscale(hex_colour: str) -> Lab:
    """The colour printed in grey by colour management: its CIE lightness only."""
    return normal(hex_colour)[0], 0.0, 0.0


def greyscale_luma(hex_colour: str) -> Lab:
    """The colour printed in grey by a plain driver or a photocopier: the grey of equal luma
    (0.299 R' + 0.587 G' + 0.114 B' on the encoded channels, as Ghostscript and most drivers do)."""
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    grey = round(0.299 * r + 0.587 * g + 0.114 * b)
    return normal(f"#{grey:02X}{grey:02X}{grey:02X}")


def protanopia(hex_colour: str) -> Lab:
    return _lab(_apply(PROTANOPIA, _linear(hex_colour)))


def deuteranopia(hex_colour: str) -> Lab:
    return _lab(_apply(DEUTERANOPIA, _linear(hex_colour)))


CONDITIONS: dict[str, Callable[[str], Lab]] = {
    "normal": normal, "greyscale": greyscale, "greyscale (luma)": greyscale_luma, "deuteranopia": deuteranopia,
    "protanopia": protanopia,
}


# The conditions the bundled palettes promise (docs/printing.md) and `validate` warns about for a set's own.
PROMISED: tuple[str, ...] = ("normal", "greyscale", "deuteranopia", "protanopia")


def ciede2000(lab1: Lab, lab2: Lab) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1), after Sharma, Wu and Dalal (2005)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))


def delta_e(a: str, b: str, condition: str = "normal") -> float:
    """CIEDE2000 between two '#RRGGBB' colours as seen in `condition` (see CONDITIONS)."""
    see = CONDITIONS[condition]
    return ciede2000(see(a), see(b))


def closest_pairs(colours: Sequence[tuple[str, str]]) -> dict[str, tuple[float, str, str]]:
    """For each condition, the smallest difference between two of the (name, colour) pairs and which."""
    out: dict[str, tuple[float, str, str]] = {}
    for condition in CONDITIONS:
        best = (math.inf, "", "")
        for (n1, c1), (n2, c2) in combinations(colours, 2):
            d = delta_e(c1, c2, condition)
            if d < best[0]:
                best = (d, n1, n2)
        out[condition] = best
    return out
