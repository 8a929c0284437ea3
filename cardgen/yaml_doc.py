"""Reading YAML, in one place: safe, keeping the line and column of every value where a message needs them.

`read_document` reads a user's file into a `Document` (the data and where each value starts);
`read_plain` parses text whose messages need no positions (the layout data, catalogues) as fast as
PyYAML can, and `compose_node` gives the node tree, for a reader that checks each value at its own
line (`render.face_layout`).

Only YAML's plain data is built (mappings, lists, strings, numbers, booleans,
null): no tags are executed. Aliases are followed against a node budget, so an
alias bomb is refused quickly with bounded memory, and files over a size limit
are refused before parsing. Parsing uses libyaml when PyYAML has it (about 15
times faster on a 1 MB file); a file it refuses is parsed again by the pure-
Python parser, whose messages are the more helpful ones, when it is small.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.bounded_read import (
    NotRegularFile,
    OutsideSetFolder,
    TooLarge,
    UnreadableFile,
    read_capped,
    set_file,
)
from cardgen.errors import Diagnostic
from cardgen.yaml_lib import yaml

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 200_000
# Above this size a broken file's message comes from libyaml: re-parsing it in pure Python would take seconds.
MAX_REPARSE_CHARS = 100_000
_FAST_LOADER: Any = getattr(yaml, "CSafeLoader", None)
# libyaml's loader when PyYAML has it (its wheels do), else the pure-Python one: for plain data and node trees
SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
TOO_MANY_CARDS = "card designs the set may still have"  # the message of a file refused for its card count

PathKey = tuple[str | int, ...]

_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class Document:
    """A parsed YAML file: its data, and where each value (by path) starts."""

    path: str
    data: Any
    marks: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    spelled: dict[PathKey, str] = field(default_factory=dict)  # booleans written yes/no/on/off, as written

    def where(self, at: PathKey, key: bool = False) -> tuple[int, int]:
        """Line and column (1-based) of the value at `at`, or of its nearest parent."""
        table = self.key_marks if key else self.marks
        probe = tuple(at)
        while probe:
            if probe in table:
                return table[probe]
            if probe in self.marks:
                return self.marks[probe]
            probe = probe[:-1]
        return self.marks.get((), (1, 1))


class _Budget(Exception):
    pass


class _Builder:
    def __init__(self, doc: Document, diags: list[Diagnostic]) -> None:
        self.doc = doc
        self.diags = diags
        self.left = MAX_NODES

    def build(self, node: yaml.Node, at: PathKey) -> Any:
        self.left -= 1
        if self.left < 0:
            raise _Budget
        self.doc.marks.setdefault(at, (node.start_mark.line + 1, node.start_mark.column + 1))
        if isinstance(node, yaml.MappingNode):
            self._plain(node, _MAP_TAG)
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                line, col = key_node.start_mark.line + 1, key_node.start_mark.column + 1
                if key_node.tag == _MERGE_TAG:
                    self.diags.append(Diagnostic(self.doc.path, line, col, "YAML merge keys (<<) are not supported; "
                                                 "write the keys out in full"))
                    continue
                key = self._scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
                if not isinstance(key, str):
                    got = repr(key) if isinstance(key_node, yaml.ScalarNode) else _kind(key_node)
                    self.diags.append(Diagnostic(self.doc.path, line, col,
                                                 f"mapping key must be a plain word, got {got}"))
                    continue
                if key in out:
                    self.diags.append(Diagnostic(self.doc.path, line, col, f"duplicate key '{key}'"))
                    continue
                self.doc.key_marks[(*at, key)] = (line, col)
                out[key] = self.build(value_node, (*at, key))
            return out
        if isinstance(node, yaml.SequenceNode):
            self._plain(node, _SEQ_TAG)
            return [self.build(item, (*at, i)) for i, item in enumerate(node.value)]
        assert isinstance(node, yaml.ScalarNode)
        if node.tag == "tag:yaml.org,2002:bool" and node.value.lower() not in ("true", "false"):
            self.doc.spelled[at] = node.value  # so a message can say `yes`, not `true`
        return self._scalar(node)

    def _plain(self, node: yaml.Node, expected: str) -> None:
        """Report an explicit tag on a mapping or list (`!!python/object`, ...); it is never acted on."""
        if node.tag != expected:
            self.diags.append(Diagnostic(self.doc.path, node.start_mark.line + 1, node.start_mark.column + 1,
                                         f"unsupported YAML tag {node.tag}; only plain data is allowed"))

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        tag = node.tag
        value = node.value
        if tag == "tag:yaml.org,2002:null":
            return None
        if tag == "tag:yaml.org,2002:bool":
            return value.lower() in ("true", "yes", "on")
        if tag == "tag:yaml.org,2002:int":
            try:
                return int(value.replace("_", ""), 0)
            except ValueError:
                return value
        if tag == "tag:yaml.org,2002:float":
            try:
                return float(value.replace("_", ""))
            except ValueError:
                return value
        if tag == "tag:yaml.org,2002:timestamp":
            return value  # a date-like word is kept as text; the schema says whether text is wanted
        if tag != "tag:yaml.org,2002:str":
            self.diags.append(Diagnostic(self.doc.path, node.start_mark.line + 1, node.start_mark.column + 1,
                                         f"unsupported YAML tag {tag}; only plain data is allowed"))
        if (lone := _SURROGATE.search(value)) is not None:  # "\ud800": no character, and no UTF-8 can print it
            self.diags.append(Diagnostic(self.doc.path, node.start_mark.line + 1, node.start_mark.column + 1,
                                         f"the escape \\u{ord(lone.group()):04X} is half of a UTF-16 surrogate pair, "
                                         "not a character; write the character itself (or \\U and its 8-digit code)"))
            return _SURROGATE.sub("\ufffd", value)
        return value


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    return "a list" if isinstance(node, yaml.SequenceNode) else "a value"


SET_FILE_CONTENT = "a mapping of set keys and/or `cards:`"


def read_document(path: Path, shown: str, diags: list[Diagnostic], expected: str = SET_FILE_CONTENT,
                  max_cards: int | None = None, within: Path | None = None) -> Document | None:
    """Parse one YAML file; problems go to `diags` and None is returned if nothing usable was read.

    `max_cards` refuses a file whose `cards:` list is longer, before any of it is built or checked. `within` is
    the set folder a set's own file must lie inside (`bounded_read.set_file`): a link out of it is refused.
    """
    try:
        target = set_file(within, os.path.abspath(path)) if within is not None else path
        raw = read_capped(target, MAX_FILE_BYTES, "file", follow=within is None)
    except OutsideSetFolder as exc:
        diags.append(Diagnostic(shown, 1, 1, str(exc)))
        return None
    except TooLarge:
        diags.append(Diagnostic(shown, 1, 1, f"file is over the {MAX_FILE_BYTES}-byte limit for a card file"))
        return None
    except NotRegularFile as exc:  # a folder, FIFO, device or socket: never opened for reading
        diags.append(Diagnostic(shown, 1, 1, f"not a regular file: this is {exc.why.split(',')[0]}; expected YAML "
                                "text"))
        return None
    except UnreadableFile as exc:
        diags.append(Diagnostic(shown, 1, 1, f"cannot read file: {exc.why}"))
        return None
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        diags.append(Diagnostic(shown, 1, 1, "file is UTF-16 text; save it as UTF-8"))
        return None
    if b"\x00" in raw:
        line = raw[: raw.index(b"\x00")].count(b"\n") + 1
        diags.append(Diagnostic(shown, line, 1, "file is binary (NUL byte), expected YAML text"))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        diags.append(Diagnostic(shown, line, 1, f"file is not UTF-8 text (bad byte at offset {exc.start})"))
        return None
    return parse_text(text, shown, diags, expected, max_cards)


def _too_many(shown: str, n: int, limit: int, line: int, col: int, whole: bool = True) -> Diagnostic:
    if whole:
        return Diagnostic(shown, line, col, f"{n} cards in this file, more than the {limit} {TOO_MANY_CARDS}; "
                          "refused before checking them")
    return Diagnostic(shown, line, col, f"more than {limit} cards in this file, more than the {limit} "
                      f"{TOO_MANY_CARDS}; refused after reading its first {n}")


def cards_in(node: yaml.Node) -> int:
    """How many entries the top-level `cards:` list of a composed document has (0 if none)."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == "cards" and isinstance(value, yaml.SequenceNode):
                return len(value.value)
    return 0


PRESCAN_CHARS = 100_000  # files longer than this have their cards counted before being composed


def count_cards_until(text: str, limit: int) -> int:
    """The entries of the top-level `cards:` list, counted from libyaml's event stream and stopping as soon as
    they pass `limit`, so a file of 13,000 cards is refused after reading its first thousand (0 when unsure:
    the full parse reports what is wrong)."""
    if _FAST_LOADER is None:
        return 0
    depth = 0
    key_next = False  # at depth 1, the next node is a key of the top-level mapping
    counting = was_cards = False
    count = 0
    try:
        for event in yaml.parse(text, Loader=_FAST_LOADER):
            starts = isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent, yaml.CollectionStartEvent))
            if starts and counting and depth == 2:
                count += 1
                if count > limit:
                    return count
            if starts and depth == 1:
                if key_next:
                    was_cards = isinstance(event, yaml.ScalarEvent) and event.value == "cards"
                else:
                    counting = was_cards and isinstance(event, yaml.SequenceStartEvent)
                    was_cards = False
                key_next = not key_next
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth == 1:
                    key_next = isinstance(event, yaml.MappingStartEvent)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
                if depth == 1:
                    counting = False
    except yaml.YAMLError:
        return 0
    return count


def _compose(text: str) -> yaml.Node | None:
    """libyaml's composer when available; on a refusal, the pure-Python one for its clearer message."""
    if _FAST_LOADER is not None:
        try:
            return yaml.compose(text, Loader=_FAST_LOADER)
        except yaml.YAMLError:
            if len(text) > MAX_REPARSE_CHARS:
                raise
    return yaml.compose(text, Loader=yaml.SafeLoader)


# PyYAML's problems, as a sentence a designer can act on (the usual cause is indentation).
_INDENTATION = ("the indentation is off here: this line starts at a different column from the lines of the same "
                "list or mapping above it; line up the keys of one card (and the `-` of each card) at one column, "
                "with spaces")
_PLAIN_WORDS: tuple[tuple[str, str], ...] = (
    ("'\\t'", "a tab character ('\\t'): YAML indents with spaces only"),
    ("expected <block end>", _INDENTATION),
    ("did not find expected key", _INDENTATION),
    ("mapping values are not allowed here", "a `:` where no key can start: this line is indented further than "
     "the keys above it, or a value holding ': ' needs quotes"),
    ("could not find expected ':'", "a line inside a mapping without `key: value` (a missing `:`, or a line "
     "indented as if it belonged to the line above)"),
    ("that cannot start any token", "a character that cannot start a value here (a value starting with @ or ` "
     "needs quotes)"),
    ("found unexpected end of stream", "the file ends inside a quoted value or a [list] or {mapping}: a closing "
     "quote or bracket is missing"),
    ("found duplicate anchor", "the same &anchor is defined twice"),
    ("found undefined alias", "an *alias names no &anchor defined above it"),
)


def yaml_problem(exc: yaml.MarkedYAMLError) -> str:
    """A refused file's problem in plain words (PyYAML's own words when no sentence fits)."""
    words = " ".join(str(x) for x in (exc.context, exc.problem) if x)
    for needle, sentence in _PLAIN_WORDS:
        if needle in words:
            return sentence
    return ", ".join(str(x) for x in (exc.context, exc.problem) if x) or "unreadable"


def parse_text(text: str, shown: str, diags: list[Diagnostic], expected: str = SET_FILE_CONTENT,
               max_cards: int | None = None) -> Document | None:
    """Parse YAML text into a Document (see `read_document`)."""
    doc = Document(shown, None)
    if max_cards is not None and len(text) > PRESCAN_CHARS and (n := count_cards_until(text, max_cards)) > max_cards:
        diags.append(_too_many(shown, n, max_cards, 1, 1, whole=False))
        return None
    try:
        node = _compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        diags.append(Diagnostic(shown, line, col, f"not valid YAML: {yaml_problem(exc)}"))
        return None
    except yaml.reader.ReaderError as exc:
        before = text[: exc.position]
        line = before.count("\n") + 1
        col = exc.position - (before.rfind("\n") + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        diags.append(Diagnostic(shown, line, col, f"not valid YAML: control character U+{code:04X} is not "
                                                  "allowed in YAML text"))
        return None
    except yaml.YAMLError as exc:
        diags.append(Diagnostic(shown, 1, 1, f"not valid YAML: {exc}"))
        return None
    except RecursionError:
        diags.append(Diagnostic(shown, 1, 1, "not valid YAML: nesting too deep"))
        return None
    if node is None:
        diags.append(Diagnostic(shown, 1, 1, f"file is empty, expected {expected}"))
        return None
    if max_cards is not None and cards_in(node) > max_cards:
        diags.append(_too_many(shown, cards_in(node), max_cards, node.start_mark.line + 1, node.start_mark.column + 1))
        return None
    builder = _Builder(doc, diags)
    try:
        doc.data = builder.build(node, ())
    except _Budget:
        diags.append(Diagnostic(shown, 1, 1, f"document expands to more than {MAX_NODES} values "
                                             "(alias bomb?); refused"))
        return None
    except RecursionError:
        diags.append(Diagnostic(shown, 1, 1, "document nests too deeply (recursive alias?); refused"))
        return None
    return doc


def read_plain(text: str) -> Any:
    """Plain YAML data, as fast as the installed PyYAML can: for files whose messages need no positions."""
    return yaml.load(text, Loader=SAFE_LOADER)


def compose_node(text: str) -> yaml.Node | None:
    """The YAML node tree of `text` (each node knows its line and column); None for an empty document.
    Raises yaml.YAMLError for text that is not YAML."""
    node: yaml.Node | None = yaml.compose(text, Loader=SAFE_LOADER)
    return node
