"""Bundled Jinja templates shipped precompiled, checked against their source every time they load.

Lexing, parsing and generating code for the four templates a build uses (card text, card
summary, rules page, glossary) costs Jinja about 50 ms a process, a tenth of a whole build.
`templates/precompiled.json` holds the Python code Jinja generates for each bundled template,
with the SHA-256 of the source, the Jinja version and the environment's compile options it
came from. `PrecompiledLoader` uses an entry only when all three match what it has in hand, so
the code is exactly what Jinja would generate now and the output is the same; anything else (an
edited template, another Jinja) is compiled as usual. It is shipped with the package, never
written by a build. After editing a bundled template, regenerate it: `python -m cardgen.precompiled`
(tests/test_precompiled.py fails while an entry is stale).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, MutableMapping
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from cardgen.paths import templates_dir

FILE = "precompiled.json"


def options(env: jinja2.Environment) -> str:
    """What of an environment changes the code Jinja generates (the class, syntax, whitespace, escaping)."""
    escape = env.autoescape if isinstance(env.autoescape, bool) else "callable"
    return json.dumps([type(env).__name__, env.block_start_string, env.block_end_string,
                       env.variable_start_string, env.variable_end_string, env.comment_start_string,
                       env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix,
                       env.trim_blocks, env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
                       escape, env.optimized, sorted(env.extensions)])


def digest(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


@cache
def _entries() -> dict[str, dict[str, str]]:
    try:
        with open(templates_dir() / FILE, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("jinja") != jinja2.__version__:
        return {}
    entries: dict[str, dict[str, str]] = data.get("templates", {})
    return entries


def _key(folder: Path, name: str) -> str:
    """A template's path under templates/ (rules/page.j2), the same in a checkout and an installed copy."""
    try:
        return (folder.resolve() / name).relative_to(templates_dir().resolve()).as_posix()
    except ValueError:
        return ""


def stored_code(env: jinja2.Environment, folder: Path, name: str, source: str) -> str | None:
    """The precompiled code of `name`, if it was made from this very source, Jinja and environment."""
    entry = _entries().get(_key(folder, name))
    if entry is None or entry.get("sha256") != digest(source) or entry.get("options") != options(env):
        return None
    return entry.get("code")


class PrecompiledLoader(jinja2.FileSystemLoader):
    """A file-system loader that takes a bundled template's code from templates/precompiled.json when it
    matches (see the module docstring), and compiles it like FileSystemLoader otherwise."""

    def __init__(self, folder: Path) -> None:
        super().__init__(str(folder))
        self.folder = folder

    def load(self, environment: jinja2.Environment, name: str,
             globals: MutableMapping[str, Any] | None = None) -> jinja2.Template:
        source, filename, uptodate = self.get_source(environment, name)
        code = stored_code(environment, self.folder, name, source)
        compiled = environment.compile(source, name, filename) if code is None else compile(code, filename or name,
                                                                                              "exec")
        return environment.template_class.from_code(environment, compiled, environment.make_globals(globals),
                                                    uptodate)


def generate(envs: dict[str, tuple[jinja2.Environment, Path]]) -> dict[str, Any]:
    """The file's content for templates given as key (path under templates/) -> (environment, folder)."""
    out: dict[str, Any] = {"jinja": jinja2.__version__, "templates": {}}
    for key, (env, folder) in sorted(envs.items()):
        name = (templates_dir() / key).relative_to(folder).as_posix()
        source = (templates_dir() / key).read_text(encoding="utf-8")
        out["templates"][key] = {"sha256": digest(source), "options": options(env),
                                 "code": env.compile(source, name, None, raw=True)}
    return out


def bundled() -> dict[str, tuple[jinja2.Environment, Path]]:
    """The templates a build renders, with the environment each is rendered in."""
    from cardgen.cardtext import SUMMARY_TEMPLATE, TEXT_TEMPLATE, bundled_env
    from cardgen.render.rules_content import GLOSSARY_TEMPLATE, PAGE_TEMPLATE, rules_env

    text_env, rules = bundled_env(), templates_dir() / "rules"
    return {TEXT_TEMPLATE: (text_env, templates_dir()), SUMMARY_TEMPLATE: (text_env, templates_dir()),
            f"rules/{PAGE_TEMPLATE}": (rules_env(), rules), f"rules/{GLOSSARY_TEMPLATE}": (rules_env(), rules)}


def write(path: Path | None = None, envs: Callable[[], dict[str, tuple[jinja2.Environment, Path]]] = bundled) -> Path:
    target = path or templates_dir() / FILE
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(generate(envs()), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(target)
    _entries.cache_clear()
    return target


if __name__ == "__main__":
    print(write())
