"""reportlab.platypus through cardgen.render.platypus: its URL pattern compiles only when used, and then
matches as the real pattern does; nothing else changes and re.compile is restored."""

from __future__ import annotations

import re
import subprocess
import sys

CHECK = """
import re
real_compile = re.compile
import cardgen.render.platypus
import reportlab.platypus.paragraph as para
assert re.compile is real_compile
assert type(para.uri_pat).__name__ == "LazyPattern" and para.uri_pat._compiled is None
assert type(para._hy_pfx_pat) is re.Pattern  # the module's other patterns compile as usual
from cardgen.loader import load_set
from cardgen.render.rules_page import rules_pdf
rules_pdf(load_set("beer"), "a4")
print(para.uri_pat._compiled is None)
"""


def test_the_url_pattern_is_not_compiled_by_a_rules_page() -> None:
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True"]


def test_the_deferred_pattern_matches_like_the_real_one() -> None:
    import reportlab.platypus.paragraph as para

    from cardgen.render.platypus import LazyPattern

    lazy = para.uri_pat if isinstance(para.uri_pat, LazyPattern) else LazyPattern(para.uri_pat.pattern, re.I)
    real = re.compile(lazy.pattern, re.I)
    for uri in ("https://example.com/a/b", "HTTP://例え.テスト/x?y=1", "ftp://user:pw@10.0.0.1:21/f", "not a uri",
                "mailto:someone", "https://-bad-.com"):
        a, b = lazy.match(uri), real.match(uri)
        assert (a and a.groups()) == (b and b.groups()), uri
