"""Patterns deferred by cardgen.lazy_patterns: a build never compiles them, and once used they match as the
real patterns do; every other pattern of those modules compiles as usual and re.compile is restored."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from cardgen.lazy_patterns import LazyPattern

CHECK = """
import re
real_compile = re.compile
from cardgen.cli.common import load_group
from cardgen.render.build import render_set
from cardgen.render.sheets import PrintOptions
import reportlab.platypus.paragraph as para, reportlab.lib.textsplit as split, yaml.reader as reader
assert re.compile is real_compile
assert type(para._hy_pfx_pat) is re.Pattern  # the modules' other patterns compile as usual
render_set(load_group(("beer",)), PrintOptions())
lazy = [para.uri_pat, split.rx, reader.Reader.NON_PRINTABLE]
print([type(p).__name__ for p in lazy], [p._compiled is None for p in lazy])
"""


def test_a_build_never_compiles_the_deferred_patterns() -> None:
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['LazyPattern', 'LazyPattern', 'LazyPattern'] [True, True, True]"


@pytest.mark.parametrize(("module", "attribute", "flags", "texts"), [
    ("reportlab.platypus.paragraph", "uri_pat", re.I,
     ["https://example.com/a/b", "HTTP://例え.テスト/x?y=1", "ftp://user:pw@10.0.0.1:21/f", "not a uri",
      "https://-bad-.com"]),
    ("reportlab.lib.textsplit", "rx", re.UNICODE, ["plain", "日本語のテキスト", "mixed 中文 text"]),
    ("yaml.reader", "Reader.NON_PRINTABLE", 0, ["fine text", "bell \x07 here", "ok \u00e9 \U0001f600"]),
])
def test_a_deferred_pattern_matches_like_the_real_one(module: str, attribute: str, flags: int,
                                                      texts: list[str]) -> None:
    found: object = __import__(module, fromlist=["_"])
    for part in attribute.split("."):
        found = getattr(found, part)
    pattern = found.pattern  # type: ignore[attr-defined]
    lazy, real = LazyPattern(pattern, flags), re.compile(pattern, flags)
    for text in texts:
        a, b = lazy.search(text), real.search(text)
        assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups())), text
        assert lazy.sub("#", text) == real.sub("#", text)
