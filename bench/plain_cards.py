"""The floor for `cardgen build`: a plain reportlab script drawing the same cards, 9 a page.

110 cards (the size of beer) on A4, 3 x 3 slips, each with a colour band and its name, a value box,
five lines of rules text, a line of flavour and a footer, in the bundled DejaVu faces embedded as
subsets, like cardgen's sheets. No YAML, no templates, no text fitting, no rules page: whatever
cardgen spends beyond this script's whole-process time is its own overhead.

Run: `python bench/plain_cards.py OUT.pdf [CARDS]` (bench/build_bench.py runs it as a subprocess).
"""

from __future__ import annotations

import sys
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

MM = 72 / 25.4
FONTS = Path(__file__).resolve().parents[1] / "fonts"
TEXT = ["Deals 3. May be DODGED or BLOCKED.", "Returns to your hand at the end", "of your turn unless it was",
        "blocked; the next player may", "answer with a counter card."]


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else "plain.pdf"
    cards = int(sys.argv[2]) if len(sys.argv) > 2 else 110
    for face, file in (("Sans", "DejaVuSans.ttf"), ("Sans-Bold", "DejaVuSans-Bold.ttf"),
                       ("Sans-Oblique", "DejaVuSans-Oblique.ttf"), ("Cond-Bold", "DejaVuSansCondensed-Bold.ttf")):
        pdfmetrics.registerFont(TTFont(face, str(FONTS / file)))
    c = Canvas(out, pagesize=(210 * MM, 297 * MM), invariant=1, initialFontName="Sans", pageCompression=1)
    w, h = 60 * MM, 85 * MM
    x0, y0 = (210 * MM - 3 * w) / 2, (297 * MM - 3 * h) / 2
    band, ink = HexColor("#C62828"), HexColor("#1A1A1A")
    for i in range(cards):
        slot = i % 9
        x, y = x0 + slot % 3 * w, y0 + (2 - slot // 3) * h
        c.setFillColor(band)
        c.rect(x, y + h - 15 * MM, w, 15 * MM, stroke=0, fill=1)
        c.rect(x, y, w, 6 * MM, stroke=0, fill=1)
        c.setFillColor(ink)
        c.roundRect(x + 3 * MM, y + h - 33 * MM, 16 * MM, 16 * MM, 2 * MM, stroke=0, fill=1)
        c.setFont("Sans-Bold", 16)
        c.drawCentredString(x + w / 2, y + h - 10 * MM, f"Card {i % 37}")
        c.setFont("Sans", 9.5)
        for k, line in enumerate(TEXT):
            c.drawString(x + 3 * MM, y + h - (40 + 4.5 * k) * MM, line)
        c.setFont("Sans-Oblique", 8.5)
        c.drawString(x + 3 * MM, y + 9 * MM, "It's the thought that counts.")
        c.setFont("Cond-Bold", 6.5)
        c.drawString(x + 3 * MM, y + 3.5 * MM, f"beer {i % 37:03d}/110")
        c.setStrokeColor(ink)
        c.setLineWidth(0.5)
        c.rect(x, y, w, h, stroke=1, fill=0)
        if slot == 8 or i == cards - 1:
            c.showPage()
    c.save()


if __name__ == "__main__":
    main()
