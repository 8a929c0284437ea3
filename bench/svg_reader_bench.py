"""Why cardgen draws plain SVG icons itself (cardgen/svgshapes.py) instead of always through svglib: prints
what importing svglib costs a process (after what every build imports anyway), what the plain reader costs,
and whether svglib's drawing of each bundled icon writes the same PDF bytes as the plain reader's.

Run: `python bench/svg_reader_bench.py [--runs N]`
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import sys
import time

from reportlab.graphics import renderPDF
from reportlab.pdfgen.canvas import Canvas

from cardgen.paths import card_data_dir, templates_dir
from cardgen.render.icons import draw_simple
from cardgen.svgshapes import SimpleSvg, read_svg, svglib_drawing

BUILD_IMPORTS = "import reportlab.pdfgen.canvas, reportlab.pdfbase.ttfonts, reportlab.lib.colors, cardgen.render.pen"


def _import_ms(module: str, runs: int) -> list[float]:
    code = (f"{BUILD_IMPORTS}\nimport time\nt = time.perf_counter()\nimport {module}\n"
            "print((time.perf_counter() - t) * 1e3)")
    return [float(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                                 text=True).stdout.split()[-1]) for _ in range(runs)]


def _form_bytes(draw: object, width: float, height: float) -> bytes:
    canvas = Canvas(io.BytesIO(), invariant=1)
    canvas.beginForm("icon", 0, 0, width, height)
    if isinstance(draw, SimpleSvg):
        draw_simple(canvas, draw, False)
    else:
        renderPDF.draw(draw, canvas, 0, 0)
    canvas.endForm()
    canvas.save()
    return bytes(canvas.getpdfdata())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    ms = _import_ms("svglib.svglib", runs)
    print(f"import svglib: median {statistics.median(ms):.0f} ms (min {min(ms):.0f}, max {max(ms):.0f}) a process")
    icons = sorted(templates_dir().rglob("*.svg")) + sorted(card_data_dir().rglob("*.svg"))
    start = time.perf_counter()
    for path in icons:
        read_svg(str(path))
    print(f"plain reader, all {len(icons)} bundled icons: {(time.perf_counter() - start) * 1e3:.1f} ms")
    same = 0
    for path in icons:
        plain, drawing = read_svg(str(path)), svglib_drawing(str(path))
        if plain is None or drawing is None:
            print(f"{path.name}: not read by both")
            continue
        same += _form_bytes(plain, plain.width, plain.height) == _form_bytes(drawing, plain.width, plain.height)
    print(f"bundled SVG icons whose PDF drawing is byte-identical through svglib: {same} of {len(icons)}")


if __name__ == "__main__":
    main()
