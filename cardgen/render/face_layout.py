"""The card face's layout and inks as typed, frozen data, read from `templates/layout/face.yaml` and
`colours.yaml` (and a set folder's own `layout/` files, merged over them).

Every key of the files is a field here, so a misspelt key in the code is a mypy error and one in a
file is refused when it is read, with its `path:line:col` and the nearest known key. The bundled files
must give every field; a set's own file may give any of them (its other values are the bundled ones).

The records are typed named tuples, not frozen dataclasses: as immutable and as typed, and far cheaper
to define, which every `cardgen` process pays at import (`bench/build_bench.py`). `record_fields` and
`as_dict` stand in for dataclasses' `fields` and `asdict`.
"""

from __future__ import annotations

import math
import re
import typing
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from cardgen.bounded_read import UnreadableFile, read_capped, read_set_file, set_file
from cardgen.paths import templates_dir
from cardgen.render.errors import LayoutError
from cardgen.render.fonts import FONT_FILES
from cardgen.suggest import did_you_mean
from cardgen.yaml_doc import compose_node
from cardgen.yaml_lib import yaml


class Band(NamedTuple):
    height: float
    icon: str  # show | hide: the type's icon at the band's left
    name_font: str
    name_max_pt: float
    name_min_pt: float
    name_two_lines_max_pt: float


class ValueRow(NamedTuple):
    height: float
    side: str  # left | right: where the value box stands; the badges take the other side
    gap_above: float
    box_radius: float
    box_pad: float
    font: str
    max_pt: float
    min_pt: float
    caption_font: str
    caption_pt: float


class Badge(NamedTuple):
    font: str
    pt: float
    min_pt: float
    height: float
    gap: float
    radius: float
    pad: float


class Text(NamedTuple):
    gap_above: float
    font: str
    bold_font: str
    condensed_font: str
    condensed_bold_font: str
    max_pt: float
    min_pt: float
    step_pt: float
    leading: float
    flavour_font: str
    flavour_gap: float
    flavour_ratio: float
    flavour_min_pt: float
    icon_em: float
    icon_gap_em: float


class Art(NamedTuple):
    height_ratio: float
    frame_pt: float
    fit: str  # cover: fill the box, the overflow cropped | contain: the whole picture, inside the box
    focus_x: float  # the point of the picture kept in view when cropping: 0 left .. 1 right
    focus_y: float  # 0 top .. 1 bottom
    span: str  # box: inside the margins, framed | bleed: edge to edge of the card and through its bleed


class Footer(NamedTuple):
    height: float
    descent: float
    gap_above: float
    font: str
    pt: float


class Split(NamedTuple):
    band_height: float
    name_max_pt: float
    name_min_pt: float
    divider_height: float
    divider_font: str
    divider_pt: float
    divider_min_pt: float


class Sheet(NamedTuple):
    mark_gap: float
    mark_length: float
    mark_min_length: float
    mark_width_pt: float
    footer_font: str
    footer_pt: float
    footer_min_pt: float
    scale_bar_pt: float
    scale_bar_in: float
    footer_min_room: float
    scale_bar_mm: float
    fold_gutter: float
    fold_dash_on: float
    fold_dash_off: float
    # The depth the footer takes where the page has it (the grid moves up for it); a layout written before this
    # key keeps the least depth, so its sheets stay as they were.
    footer_room: float = 4.5


class Back(NamedTuple):
    title_font: str
    title_max_pt: float
    title_min_pt: float
    subtitle_font: str
    subtitle_pt: float
    subtitle: str
    inset: float
    stripe_step: float
    stripe_pt: float
    frame_pt: float
    radius: float


class Element(NamedTuple):
    """One named part of the card face: shown or hidden, where the bundled arrangement puts it (flow) or in a
    box of the designer's, in mm from the card's top-left cut corner."""

    show: str  # show | hide
    place: str  # flow | box
    x: float
    y: float
    w: float
    h: float

    def boxed(self) -> bool:
        return self.place == "box"

    def flows(self) -> bool:
        return self.place == "flow" and self.show == "show"


class Elements(NamedTuple):
    """The named parts of a card face (docs/card-format.md, "Arranging the face")."""

    band: Element  # the type's colour bar (holds the name and the type icon where they flow)
    name: Element
    type_icon: Element
    value: Element  # the big number and its caption, in its dark box
    badges: Element  # the coloured tags beside the value (travels, stuns, after GRAB...)
    art: Element
    text: Element  # rules text and flavour
    footer: Element  # the colour strip with the card's number and type


ELEMENTS = Elements._fields
WORDS = ("name", "value", "badges", "text")  # what a player must read: never hidden
FILLS = ("band", "art")  # colour and pictures, no words: their box may reach the cut and the bleed


class Face(NamedTuple):
    """face.yaml: lengths in millimetres from the card's trim edges, font sizes in points."""

    extends: str  # bundled: a set's file gives only what it changes | none: it gives every key
    safe_margin: float
    margin: float
    frame_width_pt: float
    min_text_pt: float
    band: Band
    value_row: ValueRow
    badge: Badge
    text: Text
    art: Art
    footer: Footer
    split: Split
    sheet: Sheet
    back: Back
    elements: Elements

    def readable_sizes(self) -> dict[str, float]:
        """Every size that sets text a player reads, at its smallest: each must be at least min_text_pt."""
        return {"band.name_min_pt": self.band.name_min_pt, "value_row.min_pt": self.value_row.min_pt,
                "value_row.caption_pt": self.value_row.caption_pt, "badge.min_pt": self.badge.min_pt,
                "text.min_pt": self.text.min_pt, "text.flavour_min_pt": self.text.flavour_min_pt,
                "footer.pt": self.footer.pt, "split.name_min_pt": self.split.name_min_pt,
                "split.divider_min_pt": self.split.divider_min_pt, "back.title_min_pt": self.back.title_min_pt,
                "back.subtitle_pt": self.back.subtitle_pt, "sheet.footer_min_pt": self.sheet.footer_min_pt,
                "sheet.scale_bar_pt": self.sheet.scale_bar_pt}

    def frame_lines(self) -> dict[str, tuple[float, float]]:
        """Lines drawn on a card: (inset from the cut in mm, width in pt), by the key of their inset."""
        return {"back.inset": (self.back.inset, self.back.frame_pt)}


class BadgeInks(NamedTuple):
    travels: str
    passes_on: str
    stuns: str
    stunned: str


class BackInks(NamedTuple):
    fill: str
    pattern: str
    ink: str


class Colours(NamedTuple):
    """colours.yaml: every ink that is not a card type's colour (those come from the set), as '#RRGGBB'."""

    frame: str
    cut_mark: str
    page_text: str
    card_text: str
    flavour_text: str
    value_box: str
    value_text: str
    caption_text: str
    opener_badge: str
    light_ink: str
    dark_ink: str
    divider: str
    badges: BadgeInks
    back: BackInks


class Layout(NamedTuple):
    """What a card face, back and sheet are drawn with."""

    face: Face
    colours: Colours


_INK_RECORDS: tuple[type[Any], ...] = (Colours, BadgeInks, BackInks)  # their words are inks

FACE_FILE, COLOURS_FILE = "face.yaml", "colours.yaml"
SET_LAYOUT_DIR = "layout"  # a set folder's own face.yaml / colours.yaml, merged over the bundled ones

T = TypeVar("T")


class LayoutFileError(LayoutError):
    """A layout file cardgen cannot use, at the place in it to fix (`path:line:col: error: message`)."""

    def __init__(self, file: Path, line: int, column: int, message: str) -> None:
        self.file, self.line, self.column, self.message = str(file), line, column, message
        super().__init__(f"{file}:{line}:{column}: error: {message}")


def _error(path: Path, node: yaml.Node | None, message: str) -> LayoutFileError:
    mark = node.start_mark if node is not None else None
    return LayoutFileError(path, mark.line + 1 if mark else 1, mark.column + 1 if mark else 1, message)
_NUMBER = "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"


def is_record(kind: object) -> bool:
    """Whether `kind` is one of these layout records (a section of a file, read field by field)."""
    return isinstance(kind, type) and issubclass(kind, tuple) and hasattr(kind, "_fields")


def record_fields(record: Any) -> tuple[str, ...]:
    """The field names of a layout record, in order."""
    names: tuple[str, ...] = record._fields
    return names


def as_dict(record: Any) -> dict[str, Any]:
    """A layout record as nested dicts (its sections too), as `dataclasses.asdict` gives a dataclass."""
    return {k: as_dict(getattr(record, k)) if is_record(type(getattr(record, k))) else getattr(record, k)
            for k in record_fields(record)}


# The least and most a layout number may be, where 0 or more (every length, size and ratio) is not enough
# for the card to be drawn at all: the text fitting steps by step_pt, lines are leading x size apart.
CHOICES: dict[str, tuple[str, ...]] = {  # a layout word that picks one of a few ways, its first the bundled one
    "band.icon": ("show", "hide"),
    "value_row.side": ("left", "right"),
    "art.fit": ("cover", "contain"),
    "art.span": ("box", "bleed"),
    "extends": ("none", "bundled"),
    **{f"elements.{e}.show": ("show", "hide") for e in ELEMENTS},
    **{f"elements.{e}.place": ("flow", "box") for e in ELEMENTS},
}
BOUNDS: dict[str, tuple[float, float]] = {
    "art.focus_x": (0.0, 1.0),
    "art.focus_y": (0.0, 1.0),
    "text.step_pt": (0.05, 5.0),
    "text.leading": (0.8, 3.0),
    "text.flavour_ratio": (0.5, 1.5),
    "text.icon_em": (0.2, 3.0),
    "text.icon_gap_em": (0.0, 1.0),
    "art.height_ratio": (0.0, 0.9),
    "footer.descent": (0.0, 1.0),
    "sheet.scale_bar_mm": (10.0, 150.0),
    "sheet.scale_bar_in": (0.0, 6.0),
}
LARGEST = 1000.0  # mm: nothing on a card or a sheet is bigger than this
LARGEST_PT = 72.0  # a font size: an inch tall, far above the largest on a card (the value's 34 pt)
# Lines drawn on a card (pt): the trim line and the frames are thin; wider, a face prints as a solid band
LINE_PT: dict[str, tuple[float, float]] = {"frame_width_pt": (0.1, 2.0), "art.frame_pt": (0.1, 2.0),
                                           "sheet.mark_width_pt": (0.1, 2.0), "back.frame_pt": (0.1, 3.0),
                                           "back.stripe_pt": (0.1, 12.0)}
MAX_FIT_STEPS = 100  # text sizes tried from text.max_pt down to text.min_pt, step_pt apart (the bundled: 17)
_HEX = re.compile(r"#[0-9A-Fa-f]{6}", re.ASCII)


def _number(path: Path, node: yaml.ScalarNode, where: str) -> float:
    """A layout number: finite, 0 or more (more than 0 for a font size), within its BOUNDS."""
    try:
        value = float(str(node.value).replace("_", ""))
    except ValueError:
        raise _error(path, node, f"'{where}' must be a plain number such as 2.5, not {node.value!r}") from None
    low, high = BOUNDS.get(where) or LINE_PT.get(where) or ((0.1, LARGEST_PT) if where.endswith("pt") else
                                                           (0.0, LARGEST))
    if not (math.isfinite(value) and low <= value <= high):
        raise _error(path, node, f"'{where}' is {node.value}; expected a number from {low:g} to {high:g}")
    return value


def _text(path: Path, node: yaml.ScalarNode, where: str, ink: bool) -> str:
    """A layout word: an ink as '#RRGGBB', a font field the name of a bundled logical face."""
    value = str(node.value)
    if where in CHOICES and value not in CHOICES[where]:
        raise _error(path, node, f"'{where}' is {value!r}; expected one of {', '.join(CHOICES[where])}"
                                 f"{did_you_mean(value, list(CHOICES[where]))}")
    if ink and not _HEX.fullmatch(value):
        raise _error(path, node, f"'{where}' is {value!r}; expected a colour as '#RRGGBB'")
    if where.endswith("font") and value not in FONT_FILES:
        raise _error(path, node, f"'{where}' names the face {value!r}; the faces are "
                                 f"{', '.join(FONT_FILES)}{did_you_mean(value, list(FONT_FILES))}")
    return value


_HINTS: dict[str, dict[str, Any]] = {}  # the fields' types of each layout class (static, resolved once)


def _hints(cls: type[Any]) -> dict[str, Any]:
    hints = _HINTS.get(cls.__qualname__)
    if hints is None:
        hints = _HINTS[cls.__qualname__] = typing.get_type_hints(cls)
    return hints


def _read(cls: type[T], node: yaml.Node, path: Path, base: T | None, key: str = "") -> T:
    """`cls` from a mapping node; every field must be there unless `base` gives the missing ones."""
    if not isinstance(node, yaml.MappingNode):
        raise _error(path, node, f"{f'{key!r} ' if key else ''}must be a mapping")
    hints = _hints(cls)
    values: dict[str, Any] = {}
    for k_node, v_node in node.value:
        name = str(k_node.value)
        where = f"{key}.{name}" if key else name
        if name in values:
            raise _error(path, k_node, f"'{where}' is given twice; keep one")
        if name not in hints:
            raise _error(path, k_node, f"unknown layout key '{where}'"
                              f"{did_you_mean(name, list(hints))}")
        kind = hints[name]
        if is_record(kind):
            values[name] = _read(kind, v_node, path, None if base is None else getattr(base, name), where)
        elif kind is float:
            if not (isinstance(v_node, yaml.ScalarNode) and v_node.tag in _NUMBER):
                raise _error(path, v_node, f"'{where}' must be a number")
            values[name] = _number(path, v_node, where)
        else:
            if not isinstance(v_node, yaml.ScalarNode) or v_node.tag != "tag:yaml.org,2002:str":
                raise _error(path, v_node, f"'{where}' must be text")
            values[name] = _text(path, v_node, where, cls in _INK_RECORDS)
    missing = [n for n in hints if n not in values and n not in getattr(cls, "_field_defaults", {})]
    if base is None and missing:
        raise _error(path, node, f"'{key or path.name}' lacks "
                          f"{', '.join(repr(m) for m in missing)}")
    if base is not None:
        values = {**{n: getattr(base, n) for n in hints}, **values}
    return cls(**values)


MAX_LAYOUT_BYTES = 100_000  # one layout file; the bundled face.yaml is about 4 KB


def _node(path: Path, within: Path | None) -> yaml.Node:
    """The composed file; a set's own (`within` its set folder) read by `bounded_read.read_set_file`."""
    try:
        data = read_set_file(within, path.relative_to(within), MAX_LAYOUT_BYTES, "layout file") if within else \
            read_capped(path, MAX_LAYOUT_BYTES, "layout file")
        node = compose_node(data.decode("utf-8"))
    except UnreadableFile as exc:
        raise LayoutFileError(path, 1, 1, str(exc)) from exc
    except UnicodeDecodeError as exc:
        raise LayoutFileError(path, 1, 1, f"cannot read layout: {exc}") from exc
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise LayoutFileError(path, line, col, f"not valid YAML: {exc.problem or exc}") from exc
    except yaml.YAMLError as exc:
        raise LayoutFileError(path, 1, 1, f"not valid YAML: {exc}") from exc
    if node is None:
        raise LayoutFileError(path, 1, 1, "expected a mapping")
    return node


def _find(node: yaml.Node, dotted: str) -> yaml.Node | None:
    """The node of a dotted key ('back.inset') in a mapping node, if the file gives it."""
    for part in dotted.split("."):
        if not isinstance(node, yaml.MappingNode):
            return None
        found = next((v for k, v in node.value if k.value == part), None)
        if found is None:
            return None
        node = found
    return node


def _face_file(path: Path, base: Face | None, floor: float, within: Path | None) -> Face:
    """A face.yaml (over `base` when given, unless it says `extends: none`: then it gives every key), held to the
    print rules, each problem at its key's line."""
    node = _node(path, within)
    extends = _find(node, "extends")
    whole = extends is not None and getattr(extends, "value", None) == "none"
    face = _read(Face, node, path, None if whole else base)
    if base is not None:
        face = face._replace(extends="bundled" if not whole else "none")
    if base is not None and face.min_text_pt < floor:
        raise _error(path, _find(node, "min_text_pt"), f"'min_text_pt' cannot go below the bundled {floor:g} pt")
    if base is not None and face.safe_margin < base.safe_margin:  # else text may run to the cut
        raise _error(path, _find(node, "safe_margin"), f"'safe_margin' cannot go below the bundled "
                                                       f"{base.safe_margin:g} mm that printers and cutters need")
    for key, problem in face_problems(face, face.min_text_pt) + element_problems(face.elements):
        raise _error(path, _find(node, key) or node, problem)
    return face


def element_problems(elements: Elements) -> list[tuple[str, str]]:
    """Element settings no card can be drawn with: words a player needs hidden, a box of no size."""
    out = []
    for name in ELEMENTS:
        e = getattr(elements, name)
        if name in WORDS and e.show == "hide":
            out.append((f"elements.{name}.show", f"'elements.{name}' cannot be hidden: a player needs it to play "
                        "the card; move it with 'place: box' instead"))
        if e.boxed() and (e.w <= 0 or e.h <= 0):
            out.append((f"elements.{name}.w" if e.w <= 0 else f"elements.{name}.h",
                        f"'elements.{name}' is placed in a box but its 'w' and 'h' are not both above 0"))
    return out


def read_face(path: Path, base: Face | None = None, within: Path | None = None) -> Face:
    """A face.yaml: complete (a bundled file), or over `base` (a set's own, which cannot lower min_text_pt, and
    lies `within` its set folder)."""
    return _face_file(path, base, base.min_text_pt if base is not None else 0.0, within)


def read_colours(path: Path, base: Colours | None = None, within: Path | None = None) -> Colours:
    return _read(Colours, _node(path, within), path, base)


@cache
def bundled() -> Layout:
    """The bundled layout (data of the install, read once a process)."""
    folder = templates_dir() / "layout"
    face = read_face(folder / FACE_FILE)
    return Layout(face, read_colours(folder / COLOURS_FILE))


def min_text_pt() -> float:
    """The one minimum size (pt) of anything a player reads; a set's own layout cannot lower it."""
    return bundled().face.min_text_pt


def face_problems(face: Face, floor: float) -> list[tuple[str, str]]:
    """What a face layout gets wrong against the print rules (text below the minimum, a line in the safe
    zone), as (the key to change, what is wrong)."""
    out = []
    for key, size in face.readable_sizes().items():
        if size < floor - 1e-9:
            out.append((key, f"'{key}' is {size:g} pt, below the minimum text size of {floor:g} pt"))
    if face.text.max_pt < face.text.min_pt:
        out.append(("text.max_pt", "'text.max_pt' is below 'text.min_pt'"))
    steps = math.floor((face.text.max_pt - face.text.min_pt) / face.text.step_pt + 1e-9) + 1
    if steps > MAX_FIT_STEPS:
        out.append(("text.step_pt", f"'text.step_pt' {face.text.step_pt:g} gives {steps} sizes from 'text.max_pt' "
                    f"{face.text.max_pt:g} down to 'text.min_pt' {face.text.min_pt:g}, more than {MAX_FIT_STEPS}; "
                    "raise step_pt or narrow the range"))
    if face.margin < face.safe_margin:
        out.append(("margin", f"'margin' ({face.margin:g} mm) is inside the {face.safe_margin:g} mm safe margin"))
    safe = face.safe_margin
    for key, (inset, width) in face.frame_lines().items():
        edge = inset - width * 25.4 / 72 / 2
        if edge < safe - 1e-9:
            out.append((key, f"the line at '{key}' ({inset:g} mm, {width:g} pt wide) reaches {edge:.2f} mm "
                        f"from the cut, inside the {safe:g} mm safe margin"))
    return out


def set_layout(set_folder: str) -> Layout:
    """The layout a set draws with: its folder's `layout/face.yaml` and `colours.yaml` over the bundled ones."""
    base = bundled()
    own = Path(set_folder) / SET_LAYOUT_DIR if set_folder else None
    if own is None or not (own.exists() or own.is_symlink()):
        return base
    try:
        set_file(Path(set_folder), SET_LAYOUT_DIR)
    except UnreadableFile as exc:
        raise LayoutFileError(own, 1, 1, str(exc)) from exc
    if not own.is_dir():
        raise LayoutFileError(own, 1, 1, f"'{SET_LAYOUT_DIR}' must be a folder holding {FACE_FILE} and/or "
                                         f"{COLOURS_FILE}")
    face_file, colours_file = own / FACE_FILE, own / COLOURS_FILE
    for file in (face_file, colours_file):
        if (file.exists() or file.is_symlink()) and not file.is_file():
            raise LayoutFileError(file, 1, 1, "must be a YAML file, not a folder or a device")
    face = read_face(face_file, base.face, Path(set_folder)) if face_file.is_file() else base.face
    colours = read_colours(colours_file, base.colours, Path(set_folder)) if colours_file.is_file() else base.colours
    return Layout(face, colours)
