"""The pictures a table shows: every card face and the back as PNGs, and the rules page, made once per table.

The faces are cut from the same proof sheet `cardgen preview` rasterises (pypdfium2 on the print PDF), and
the back is the printed back (`cardgen export tts` makes it the same way), so the hand on screen is what
prints. The first request waits for the rendering; a table starts it in the background at once.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pypdfium2

from cardgen.model import CardSet
from cardgen.render.preview import back_image, card_images, png_bytes
from cardgen.render.rules_page import rules_pdf
from cardgen.render.sheets import PrintOptions

FACE_DPI = 150  # a slip card is 354 x 502 px: sharp at a phone's 3 device pixels per CSS pixel on a small card
LARGE_DPI = 300  # the zoom and the card in flight: print resolution
RULES_DPI = 110


class TableArt:
    """Card faces by design index, the card back, and the rules page (PDF, and PNG pages), made once."""

    def __init__(self, cs: CardSet, paper: str = "a4") -> None:
        self.cs = cs
        self.paper = paper
        self._lock = threading.Lock()
        self._large_lock = threading.Lock()
        self._large: dict[int, bytes] | None = None
        self._faces: dict[int, bytes] | None = None
        self._back: bytes = b""
        self._rules: bytes = b""
        self._rules_png: list[bytes] = []

    def start(self) -> None:
        """Render in a background thread (the page asks for images within a second).

        Not a daemon: the interpreter joins it before its exit handlers run, so a Ctrl-C while the faces are
        still rendering waits for pdfium to finish instead of tearing the library down under the thread (which
        aborted the process with a C++ `bad_variant_access` on a loaded machine).
        """
        threading.Thread(target=self._ensure, name="cardgen-play-art", daemon=False).start()

    def render(self) -> None:
        """Render now, in this thread: a set that `cardgen build` refuses raises its CardgenError here (the
        same message), before the table is served."""
        self._ensure()

    def _ensure(self) -> None:
        with self._lock:
            if self._faces is not None:
                return
            opts = PrintOptions(paper=self.paper)
            images = card_images(self.cs, opts, FACE_DPI)
            index = {id(c): d for d, c in enumerate(self.cs.cards)}
            faces = {index[id(im.card)]: png_bytes(im.image, FACE_DPI) for im in images}
            size = images[0].image.size
            self._back = png_bytes(back_image(self.cs, opts, FACE_DPI, size), FACE_DPI)
            self._rules = rules_pdf(self.cs, self.paper)
            doc = pypdfium2.PdfDocument(self._rules)
            try:
                self._rules_png = [png_bytes(doc[i].render(scale=RULES_DPI / 72).to_pil().convert("RGB"), RULES_DPI)
                                   for i in range(len(doc))]
            finally:
                doc.close()
            self._faces = faces

    def face_large(self, d: int) -> bytes | None:
        """Design `d`'s face at print resolution, rendered on the first ask (a zoom), all designs at once, in a
        process of its own: rendering them in the server's process held its interpreter for a second or two,
        and every click made meanwhile waited."""
        with self._large_lock:
            if self._large is None:
                try:
                    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_ignore_ctrl_c) as pool:
                        self._large = pool.submit(large_faces, self.cs, self.paper).result()
                except (OSError, BrokenProcessPool):  # no process to be had: render here
                    self._large = large_faces(self.cs, self.paper)
        return self._large.get(d)

    def face(self, d: int) -> bytes | None:
        self._ensure()
        assert self._faces is not None
        return self._faces.get(d)

    def back(self) -> bytes:
        self._ensure()
        return self._back

    def rules_pdf(self) -> bytes:
        self._ensure()
        return self._rules

    def rules_page(self, i: int) -> bytes | None:
        self._ensure()
        return self._rules_png[i] if 0 <= i < len(self._rules_png) else None

    @property
    def rules_pages(self) -> int:
        self._ensure()
        return len(self._rules_png)


def large_faces(cs: CardSet, paper: str) -> dict[int, bytes]:
    """Every design's face at print resolution, as PNGs by design index."""
    images = card_images(cs, PrintOptions(paper=paper), LARGE_DPI)
    index = {id(c): i for i, c in enumerate(cs.cards)}
    return {index[id(im.card)]: png_bytes(im.image, LARGE_DPI) for im in images}


def _ignore_ctrl_c() -> None:
    """A rendering process leaves Ctrl-C to the table, which ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
