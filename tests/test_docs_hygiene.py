"""Docs and code a reader of the repository can follow: no reference to an issue tracker they cannot see, no
folder outside the repository, no timings in code comments (they go stale; figures live in
docs/benchmarks.md), and a README layout that names every module."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
CODE = [p for folder in ("cardgen", "bench", "tests") for p in sorted((REPO / folder).rglob("*.py"))]

ISSUE = re.compile(r"\bissues?\s+#?\d+|\bissue\s+\d+[a-z]?\b|#\d+\s+issue", re.IGNORECASE)
# a folder of the machine the code was written on, or one beside the checkout
OUTSIDE = re.compile(r"(?<![\w.])(?:/work/|/home/|/tmp/|/coord/|\.\./shared\b|~/work\b)")
TIMING = re.compile(r"(?<![\w.`])\d[\d,.]*\s?(?:ms|µs|us|ns|s|sec|seconds?|minutes?)(?![\w/`])"
                    r"|\d[\d,.]*\s?(?:games|decisions)/s\b|\d[\d.]*\s?[x×] (?:faster|slower)")


def _commentary(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every comment and docstring of a Python file: what a reader reads, not what runs."""
    source = path.read_text(encoding="utf-8")
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield node.body[0].lineno, doc


def _hits(pattern: re.Pattern[str], lines: Iterator[tuple[int, str]], name: str) -> list[str]:
    return [f"{name}:{line}: {m.group(0)!r}" for line, text in lines for m in pattern.finditer(text)]


def _doc_lines(path: Path) -> Iterator[tuple[int, str]]:
    yield from enumerate(path.read_text(encoding="utf-8").splitlines(), 1)


def _rel(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def test_no_issue_numbers_in_docs_or_code() -> None:
    found = [h for p in DOCS for h in _hits(ISSUE, _doc_lines(p), _rel(p))]
    found += [h for p in CODE for h in _hits(ISSUE, _doc_lines(p), _rel(p))]
    assert not found, "say what the code does, not which tracker entry asked for it:\n" + "\n".join(found)


def test_no_path_outside_the_repository() -> None:
    found = [h for p in DOCS for h in _hits(OUTSIDE, _doc_lines(p), _rel(p))]
    found += [h for p in CODE if "tests" not in p.parts for h in _hits(OUTSIDE, _commentary(p), _rel(p))]
    assert not found, "\n".join(found)


def test_no_timings_in_code_comments() -> None:
    found = [h for p in CODE if "tests" not in p.parts and "bench" not in p.parts
             for h in _hits(TIMING, _commentary(p), _rel(p))]
    assert not found, "figures go stale in comments; measure with bench/ and write docs/benchmarks.md:\n" + \
        "\n".join(found)


def test_the_finders_find_what_they_look_for(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text('"""Fast: 12 ms a build, see /work/coord/x.md."""\n'
                      "X = 1  # " + "iss" + "ue 22 item 3, 3.5x faster\nY = '50ms'  # a budget written `50ms`\n",
                      encoding="utf-8")
    assert len(_hits(ISSUE, _doc_lines(sample), "m")) == 1
    assert _hits(OUTSIDE, _commentary(sample), "m") == ["m:1: '/work/'"]
    assert sorted(h.split(": ", 1)[1] for h in _hits(TIMING, _commentary(sample), "m")) == ["'12 ms'", "'3.5x faster'"]


def _layout_section() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index("## Layout\n")
    return text[start:text.index("\n## ", start + 1)]


def _bullets(section: str) -> list[str]:
    return [b for b in re.split(r"\n(?=- )", section) if b.startswith("- ")]


def _modules() -> list[tuple[str, str]]:
    """(package folder under cardgen/, module name) of every module."""
    root = REPO / "cardgen"
    return [(p.parent.relative_to(root).as_posix(), p.stem) for p in sorted(root.rglob("*.py"))
            if p.stem != "__init__"]


@pytest.mark.parametrize(("package", "module"), _modules())
def test_the_readme_layout_names_every_module(package: str, module: str) -> None:
    folder = "cardgen/" if package == "." else f"cardgen/{package}/"
    bullets = [b for b in _bullets(_layout_section()) if b.startswith(f"- `{folder}`")
               or (package != "." and f"`{folder}`" in b)]
    assert bullets, f"README.md's Layout has no line for {folder}"
    assert any(f"`{module}`" in b for b in bullets), f"README.md's Layout does not name {folder}{module}.py"
