"""PDF/X-1a:2003 (ISO 15930-4) for a reportlab canvas whose inks are all device CMYK or grey.

What the standard asks of the file beyond its inks: an output intent naming the printing condition
(here the registered CGATS TR 001, "U.S. Web Coated (SWOP) v2", the condition DriveThruCards'
guide names; a registered characterisation needs no embedded ICC profile), the PDF/X version keys
and Trapped in the document information, creation and modification dates, a file identifier, a
TrimBox on every page inside its BleedBox and MediaBox, every font embedded, no transparency. The
canvas already writes dates and the identifier (fixed, with `invariant`), embedded subsets and the
boxes the caller sets; this adds the output intent and the information keys.
"""

from __future__ import annotations

from typing import Any, ClassVar

from reportlab.pdfbase.pdfdoc import PDFArray, PDFCatalog, PDFDate, PDFDictionary, PDFInfo, PDFName, PDFString

from cardgen.library_compat import creation_stamp, date_formatter, replace_catalog, replace_info

VERSION = "PDF/X-1:2003"
CONFORMANCE = "PDF/X-1a:2003"
OUTPUT_CONDITION = {
    "OutputConditionIdentifier": "CGATS TR 001",
    "RegistryName": "http://www.color.org",
    "Info": "U.S. Web Coated (SWOP) v2",
    "OutputCondition": "SWOP (Publication) Grade 5 paper, CGATS TR 001",
}


class _Catalog(PDFCatalog):  # type: ignore[misc]
    """The document catalogue with the output intents reportlab's own catalogue does not list."""

    __NoDefault__: ClassVar[list[str]] = [*PDFCatalog.__NoDefault__, "OutputIntents"]


class _Info(PDFInfo):  # type: ignore[misc]
    """The document information with the PDF/X keys."""

    def format(self, document: Any) -> bytes:
        entries = {
            "Title": PDFString(self.title), "Author": PDFString(self.author), "Subject": PDFString(self.subject),
            "Creator": PDFString(self.creator), "Producer": PDFString(self.producer),
            "Keywords": PDFString(self.keywords), "Trapped": PDFName(self.trapped),
            "GTS_PDFXVersion": PDFString(VERSION), "GTS_PDFXConformance": PDFString(CONFORMANCE),
        }
        entries["CreationDate"] = entries["ModDate"] = PDFDate(ts=creation_stamp(document),
                                                               dateFormatter=date_formatter(self))
        return bytes(PDFDictionary(entries).format(document))


def make_pdfx(canvas: Any) -> None:
    """Turn a fresh canvas's document into PDF/X-1a:2003 (call before drawing; the inks are the caller's)."""
    catalog = _Catalog()
    replace_catalog(canvas, catalog)
    intent = {"Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
              **{k: PDFString(v) for k, v in OUTPUT_CONDITION.items()}}
    catalog.OutputIntents = PDFArray([PDFDictionary(intent)])
    info = _Info()
    replace_info(canvas, info)
    info.trapped = "False"
