"""Templates cardgen does not trust (a set's own, a brought language's) run in Jinja's sandbox, metered: every
loop step, call, filter and operator counts against a `Budget` (operations, wall time, output, the size of any
value), so a runaway loop or a huge string stops with an error at the template's file and line, never a hang.
`metered_sandbox` makes the environment, `render_metered` renders within a budget.
"""

from __future__ import annotations

import contextvars
import functools
import re
import time
import traceback
from collections.abc import Callable, Generator, Iterator, Mapping, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, cast

import jinja2
from jinja2 import nodes
from jinja2.visitor import NodeTransformer
from markupsafe import Markup, escape

from cardgen.bounded_read import UnreadableFile
from cardgen.errors import CardgenError
from cardgen.library_compat import TransformingSandbox
from cardgen.model import Card, CardSet


class TemplateError(CardgenError):
    """A set's own template failed: bad syntax, an unknown name, or an attempt to leave the sandbox."""

    def __init__(self, path: str, line: int, message: str) -> None:
        self.path, self.line = path, line
        super().__init__(f"{path}:{line}:1: error: {message}")



MAX_TEMPLATE_OUTPUT = 4000  # characters one card's text may reach; a slip holds a few hundred
# Bounds of one render of a set's own template (docs/card-format.md). The bundled templates take at most 11
# operations and well under a millisecond per card; these leave a designer's template plenty of room.
MAX_TEMPLATE_OPS = 10_000  # loop steps, calls, filters and operators
MAX_TEMPLATE_SECONDS = 2.0  # wall time
MAX_TEMPLATE_VALUE = 5_000  # characters or items of any one value the template makes (a range, a string, a list)
MAX_TEMPLATE_INT_BITS = 4_096  # size of any whole number it makes
# Memory: the largest single step, an operation on two values of MAX_TEMPLATE_VALUE (s.replace('x', s)), makes
# 25 M characters before its size is checked; a captured block ({% set s %}...{% endset %}) gathers at most
# MAX_TEMPLATE_OPS / 2 pieces of MAX_TEMPLATE_OUTPUT characters (20 M). A render stays within about 100 MB.


class TemplateLimit(Exception):
    """A set template went over one of its bounds; stops the render (never caught by the template itself)."""


class Budget(NamedTuple):
    """What one render of a template from a set or a brought language may spend (`render_metered`)."""

    ops: int  # loop steps, calls, filters and operators
    seconds: float  # wall time
    output: int  # characters of what it writes
    value: int  # characters or items of any one value it makes (a range, a string, a list)
    what: str  # what one render makes, as the messages name it


CARD_BUDGET = Budget(MAX_TEMPLATE_OPS, MAX_TEMPLATE_SECONDS, MAX_TEMPLATE_OUTPUT, MAX_TEMPLATE_VALUE, "one card")


@dataclass
class _Meter:
    """What one render may still spend."""

    budget: Budget
    ops_left: int
    deadline: float

    def tick(self) -> None:
        self.ops_left -= 1
        if self.ops_left < 0:
            raise TemplateLimit(f"template took more than {self.budget.ops:,} operations for {self.budget.what} "
                                "(a loop too long?)")
        if time.monotonic() > self.deadline:
            raise TemplateLimit(f"template ran longer than {self.budget.seconds:g} s for {self.budget.what}")


_METER: contextvars.ContextVar[_Meter | None] = contextvars.ContextVar("template_meter", default=None)


def _tick() -> None:
    meter = _METER.get()
    if meter is not None:
        meter.tick()


def _budget() -> Budget:
    meter = _METER.get()
    return CARD_BUDGET if meter is None else meter.budget


def _checked(value: Any) -> Any:
    """`value`, unless it is larger than a set template may make."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value.bit_length() > MAX_TEMPLATE_INT_BITS:
        raise TemplateLimit(f"template made a number of more than {MAX_TEMPLATE_INT_BITS:,} bits")
    limit = _budget().value
    if isinstance(value, Sized) and not isinstance(value, Mapping | Card | CardSet) and len(value) > limit:
        raise TemplateLimit(f"template made a value of {len(value):,} characters or items (limit {limit:,})")
    return value


_FORMAT_WIDTH = re.compile(r"\d{5,}|[%{:.]\*")  # a width or precision of 10,000 or more, or one taken from an argument


def _check_arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    budget = _budget()
    for a in (*args, *kwargs.values()):
        _checked(a)
        if isinstance(a, int) and not isinstance(a, bool) and abs(a) > budget.value:
            raise TemplateLimit(f"template passed {a:,} to a function; set templates are limited to "
                                f"{budget.value:,} (a width, count or size that large has no place on "
                                f"{budget.what})")


def _metered_filter(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)  # keeps Jinja2's pass_context marks
    def run(*args: Any, **kwargs: Any) -> Any:
        _tick()
        _check_arguments(args, kwargs)
        if fn.__name__ == "do_format" and args and isinstance(args[0], str) and _FORMAT_WIDTH.search(args[0]):
            raise TemplateLimit("format string with a width of 10,000 or more is refused in set templates")
        return _checked(fn(*args, **kwargs))

    return run


class _Metering(NodeTransformer):
    """Routes every loop and every `~` of a template through the environment's meter."""

    def visit_For(self, node: nodes.For) -> nodes.Node:
        node = cast(nodes.For, self.generic_visit(node))
        node.iter = nodes.Call(nodes.EnvironmentAttribute("metered_iter"), [node.iter], [], None, None,
                               lineno=node.iter.lineno)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        node = cast(nodes.Concat, self.generic_visit(node))
        return nodes.Call(nodes.EnvironmentAttribute("metered_concat"), [nodes.List(node.nodes, lineno=node.lineno)],
                          [], None, None, lineno=node.lineno)


class _SetSandbox(TransformingSandbox):
    """Jinja2's sandbox, bounded: every loop step, call, filter and operator counts against an operations budget
    and a deadline, and no value a template makes may grow past what one render needs (its `Budget`; a card's
    is made of the MAX_TEMPLATE_* bounds)."""

    intercepted_binops = frozenset({"*", "**", "+", "%", "//"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.filters = {name: _metered_filter(fn) for name, fn in self.filters.items()}

    def transform_tree(self, tree: nodes.Template) -> nodes.Template:
        return cast(nodes.Template, _Metering().visit(tree))

    def metered_iter(self, iterable: Any) -> Iterator[Any]:
        _checked(iterable)
        for item in iterable:
            _tick()
            yield item

    def metered_concat(self, parts: list[Any]) -> str:
        _tick()
        markup = bool(self.autoescape) and any(hasattr(p, "__html__") for p in parts)  # as Jinja's own `~` does
        texts = [str(escape(p)) if markup else str(p) for p in parts]
        size, limit = sum(map(len, texts)), _budget().value
        if size > limit:
            raise TemplateLimit(f"template made a value of {size:,} characters (limit {limit:,})")
        joined = "".join(texts)
        return Markup(joined) if markup else joined

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        _tick()
        _check_arguments(args, kwargs)
        owner = getattr(getattr(__obj, "__wrapped__", __obj), "__self__", None)  # the sandbox wraps str.format
        if getattr(__obj, "__name__", "") in ("format", "format_map") and isinstance(owner, str) and \
                _FORMAT_WIDTH.search(owner):
            raise TemplateLimit("format string with a width of 10,000 or more is refused in set templates")
        return _checked(super().call(__context, __obj, *args, **kwargs))

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        _tick()
        if operator == "**" and (not isinstance(right, int) or abs(right) > 64):
            raise jinja2.exceptions.SecurityError("'**' is limited to small whole exponents in set templates")
        if operator == "**" and isinstance(left, int) and left.bit_length() * abs(right) > MAX_TEMPLATE_INT_BITS:
            raise TemplateLimit(f"template made a number of more than {MAX_TEMPLATE_INT_BITS:,} bits")
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) and len(seq) * times > \
                        _budget().output:
                    raise jinja2.exceptions.SecurityError(f"repetition longer than {_budget().what}'s text is "
                                                          "refused")
            if isinstance(left, int) and isinstance(right, int) and \
                    left.bit_length() + right.bit_length() > MAX_TEMPLATE_INT_BITS:
                raise TemplateLimit(f"template made a number of more than {MAX_TEMPLATE_INT_BITS:,} bits")
        if operator == "+" and isinstance(left, Sized) and isinstance(right, Sized) and \
                len(left) + len(right) > _budget().value:
            raise TemplateLimit(f"template made a value of {len(left) + len(right):,} characters or items "
                                f"(limit {_budget().value:,})")
        if operator == "%" and isinstance(left, str) and _FORMAT_WIDTH.search(left):
            raise TemplateLimit("format string with a width of 10,000 or more is refused in set templates")
        return _checked(super().call_binop(context, operator, left, right))




def _bounded_render(template: jinja2.Template, context: dict[str, Any], budget: Budget) -> str:
    """Render under a fresh meter, streaming, so the output stops at its limit instead of after it."""
    token = _METER.set(_Meter(budget, budget.ops, time.monotonic() + budget.seconds))
    try:
        parts: list[str] = []
        size = 0
        chunks = cast(Generator[str, None, None], template.generate(**context))
        for chunk in chunks:
            size += len(chunk)
            if size > budget.output:
                too_long = TemplateLimit(f"template produced more than {budget.output} characters for {budget.what}")
                chunks.throw(too_long)  # raised where the template wrote it, so its traceback names that line
                raise too_long
            parts.append(chunk)
        return "".join(parts)
    finally:
        _METER.reset(token)


def metered_sandbox(loader: jinja2.BaseLoader, filters: Mapping[str, Callable[..., Any]] | None = None,
                    **options: Any) -> jinja2.Environment:
    """A sandboxed environment for templates cardgen does not trust (a set's, a brought language's): rendered
    through `render_metered`, its every loop step, call, filter (`filters`, added to Jinja's, too) and operator
    counts against a budget."""
    env = _SetSandbox(loader=loader, **options)
    env.filters.update({name: _metered_filter(fn) for name, fn in (filters or {}).items()})
    return env


def render_metered(env: jinja2.Environment, name: str, context: dict[str, Any], budget: Budget,
                   default: Path) -> str:
    """Template `name` of `env` (a `metered_sandbox`) rendered within `budget`; whatever goes wrong (syntax, a
    limit, the sandbox, any exception the template raises) is a TemplateError at the template's file and line
    (`default` when none can be told)."""
    try:
        return _bounded_render(env.get_template(name), context, budget)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(exc.filename or str(default), exc.lineno, f"template syntax: {exc.message}") from exc
    except UnreadableFile as exc:  # a template outside the set folder, not a file, or too large
        path, line = _template_frame(exc, default)
        raise TemplateError(path, line, str(exc)) from exc
    except TemplateLimit as exc:
        path, line = _template_frame(exc, default)
        raise TemplateError(path, line, f"template stopped: {exc}") from exc
    except jinja2.exceptions.SecurityError as exc:
        path, line = _template_frame(exc, default)
        raise TemplateError(path, line, f"template tried to reach outside the sandbox ({exc})") from exc
    except jinja2.TemplateError as exc:
        path, line = _template_frame(exc, default)
        raise TemplateError(path, line, f"template failed: {exc}") from exc
    except (RecursionError, MemoryError) as exc:
        path, line = _template_frame(exc, default)
        raise TemplateError(path, line, f"template failed: {type(exc).__name__} (runaway recursion "
                            "or size?)") from exc
    except Exception as exc:  # a designer's template may raise anything (1 // 0, 'a' + 1): report, never crash
        path, line = _template_frame(exc, default)
        raise TemplateError(path, line, f"template failed: {type(exc).__name__}: {exc}") from exc


def _template_frame(exc: BaseException, default: Path) -> tuple[str, int]:
    """The template file and line that raised, from the traceback Jinja2 rewrites to point at templates."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.endswith(".j2"):
            return frame.filename, frame.lineno or 1
    return str(default), 1
