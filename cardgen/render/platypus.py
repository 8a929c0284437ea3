"""reportlab.platypus for the rules page, imported through cardgen.lazy_patterns.

reportlab.platypus.paragraph compiles a URL pattern when it is imported (25-50 ms of CPU, a tenth of
a whole `cardgen build`) that only breaks over-long URLs, which the rules page never prints; see
cardgen.lazy_patterns. Import the platypus names from here on the build path.
"""

from __future__ import annotations

from cardgen.lazy_patterns import import_module

import_module("reportlab.platypus")

from reportlab.platypus import (  # noqa: E402
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import CondPageBreak, HRFlowable  # noqa: E402

__all__ = ["BaseDocTemplate", "CondPageBreak", "Flowable", "Frame", "HRFlowable", "KeepTogether", "PageTemplate",
           "Paragraph", "Table", "TableStyle"]
