"""Bad input found by the hostile-input sweep: each through the real command, exit code 1, the
message at its line, no traceback, and nothing of an earlier build replaced or removed."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
from pathlib import Path

import pytest
from hostile import Run, cardgen, clean_failure

from cardgen.errors import OutputError
from cardgen.output import write_atomic

LUNCH = Path(__file__).resolve().parents[1] / "card_data" / "lunch"
JAB = "  - {name: Jab, type: basic, count: 4, damage: 1, source: rulebook}"


def _copy(tmp_path: Path) -> Path:
    """A copy of lunch called hx."""
    folder = tmp_path / "hx"
    shutil.copytree(LUNCH, folder)
    head = folder / "set.yaml"
    head.write_text(head.read_text(encoding="utf-8").replace("name: lunch", "name: hx"), encoding="utf-8")
    return folder


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(root.rglob("*"))}


def _earlier_build(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    out = tmp_path / "out" / "hx"
    out.mkdir(parents=True)
    for name in ("hx-cards.pdf", "hx-print.pdf", "hx-rules.pdf"):
        (out / name).write_bytes(b"earlier " + name.encode())
    return tmp_path / "out", _tree(tmp_path / "out")


def _fails_at(run: Run, where: str, said: str) -> None:
    assert clean_failure(run), run.err
    line = next((x for x in run.err.splitlines() if said in x), None)
    assert line is not None, run.err
    assert line.startswith(where) and ": error: " in line, line


# --- outputs: an atomic rename must not replace what is not a file --------------------------------------------------


def test_write_atomic_refuses_a_device_a_fifo_and_a_folder(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    folder = tmp_path / "results.json"
    (folder / "keep").mkdir(parents=True)
    for target, said in ((Path("/dev/null"), "it is a device, not a file; use '-' for standard output"),
                         (fifo, "it is a FIFO (named pipe), not a file"), (folder, "it is a folder, not a file")):
        with pytest.raises(OutputError, match=re.escape(said)):
            write_atomic(target, b"{}")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and stat.S_ISFIFO(fifo.lstat().st_mode)
    assert (folder / "keep").is_dir() and not list(tmp_path.glob(".*.tmp"))


def test_simulate_json_to_a_device_leaves_the_device(tmp_path: Path) -> None:
    run = cardgen("simulate", "--set", "lunch", "--games", "2", "--json", "/dev/null", cwd=tmp_path)
    assert clean_failure(run) and "error: cannot write /dev/null: it is a device, not a file" in run.err, run.err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_build_never_swaps_away_a_folder_named_like_an_output(tmp_path: Path) -> None:
    out, _ = _earlier_build(tmp_path)
    mine = out / "hx" / "hx-cards.pdf"
    mine.unlink()
    (mine / "notes").mkdir(parents=True)
    (mine / "notes" / "todo.txt").write_text("mine")
    before = _tree(out)
    _copy(tmp_path)
    run = cardgen("build", "--set", "hx", "--out", "out", "--proof", cwd=tmp_path)
    assert clean_failure(run) and "hx-cards.pdf: it is a folder, not a file; move it away" in run.err, run.err
    assert _tree(out) == before


@pytest.mark.parametrize("args", [["build", "--set", "lunch", "--out", ""], ["simulate", "--set", "lunch", "--games",
                                  "2", "--json", " "], ["export", "sheet", "--set", "lunch", "--out", ""]])
def test_an_empty_output_path_is_refused(tmp_path: Path, args: list[str]) -> None:
    run = cardgen(*args, cwd=tmp_path)
    assert clean_failure(run) and "is empty; give a file or folder name" in run.err, run.err
    assert list(tmp_path.iterdir()) == []


# --- text that cannot be printed or breaks a message line ----------------------------------------------------------


def test_a_lone_surrogate_escape_is_refused_at_its_line_by_every_command(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder / "1-basic.yaml", "name: Jab,", 'name: "J\\uD800ab",')
    for command in ("validate", "list", "build"):
        run = cardgen(command, "--set", "hx", cwd=tmp_path)
        _fails_at(run, "hx/1-basic.yaml:3:12:", "the escape \\uD800 is half of a UTF-16 surrogate pair")


def test_a_line_break_in_a_name_is_refused_and_shown_escaped(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder / "1-basic.yaml", "name: Jab,", 'name: "J\\nab",')
    run = cardgen("validate", "--set", "hx", "--no-sim", "--no-balance", cwd=tmp_path)
    _fails_at(run, "hx/1-basic.yaml:3:12:", "card 'J\\nab' field `name`: has a control character U+000A")
    assert len(run.err.splitlines()) == 2  # the error and the count: the name did not break the line


def test_a_line_break_in_the_back_s_subtitle_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    with (folder / "set.yaml").open("a", encoding="utf-8") as fh:
        fh.write('look:\n  back:\n    subtitle: "one\\ntwo"\n')
    run = cardgen("build", "--set", "hx", "--out", "out", cwd=tmp_path)
    _fails_at(run, "hx/set.yaml:", "look.back.subtitle: has a control character U+000A")
    assert not (tmp_path / "out").exists()


# --- icons ----------------------------------------------------------------------------------------------------------

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">{}</svg>'


@pytest.mark.parametrize(("body", "said"), [
    (SVG.format('<path d="M 0 0 L 1e30 1e30 L 0 5 Z"/>'), 'd="M 0 0 L 1e30 1e30 L 0 5 Z" has the number 1e30'),
    (SVG.format('<rect width="5" height="5" stroke="#000" stroke-width="1e300"/>'), "has the number 1e300"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="1e-300" height="1e-300"><rect width="5" height="5"/></svg>',
     "its width 1e-300 is too small to scale"),
    (SVG.format("<g>" * 3000 + "</g>" * 3000), "nests its elements more than 64 levels deep"),
])
def test_an_icon_the_pdf_writer_cannot_draw_is_refused_at_its_line(tmp_path: Path, body: str, said: str) -> None:
    folder = _copy(tmp_path)
    (folder / "icons" / "dodge.svg").write_text(body, encoding="utf-8")
    out, before = _earlier_build(tmp_path)
    for command in (["validate", "--no-sim", "--no-balance"], ["build", "--out", "out"]):
        run = cardgen(command[0], "--set", "hx", *command[1:], cwd=tmp_path)
        _fails_at(run, "hx/set.yaml:21:10:", said)
    assert _tree(out) == before


def test_the_bundled_icons_still_pass_the_number_checks() -> None:
    from cardgen.loader.icons import _svg_problem

    for icon in sorted(Path(__file__).resolve().parents[1].glob("card_data/*/icons/*.svg")):
        assert _svg_problem(icon.parent.parent, icon, icon.name) is None, icon


# --- set.yaml and card files ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_set_yaml_that_is_not_a_file_is_said_plainly(tmp_path: Path, kind: str) -> None:
    folder = _copy(tmp_path)
    (folder / "set.yaml").unlink()
    if kind == "folder":
        (folder / "set.yaml").mkdir()
    else:
        os.mkfifo(folder / "set.yaml")
    run = cardgen("validate", "--set", "hx", cwd=tmp_path, timeout=30)
    said = "a folder, not a file" if kind == "folder" else "a FIFO (named pipe), not a regular file"
    _fails_at(run, "hx/set.yaml:1:1:", f"set.yaml is {said}; it must be the set's YAML file")


def test_a_card_file_ending_in_upper_case_yaml_is_warned_about_not_silently_skipped(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "9-more.YAML").write_text("cards: []\n", encoding="utf-8")
    run = cardgen("list", "--set", "hx", cwd=tmp_path)
    assert run.code == 0
    assert "hx/9-more.YAML:1:1: warning: ignored: set files must end in .yaml (rename to 9-more.yaml)" \
        in run.err


def test_a_set_name_too_long_for_a_file_name_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder / "set.yaml", "name: hx", "name: " + "a" * 300)
    run = cardgen("build", "--set", "hx", "--out", "out", cwd=tmp_path)
    _fails_at(run, "hx/set.yaml:2:7:", "field `name`: is too long (at most 40 characters)")
    assert not (tmp_path / "out").exists()


# --- extends: changes that could never take effect -----------------------------------------------------------------


@pytest.mark.parametrize(("extra", "line", "said"), [
    ("override:\n  - {name: Jab, count: 2}\n  - {name: jab, count: 3}\n", 6,
     "override: 'jab' is overridden twice (first at line 5); put every change of one card in one entry"),
    ("remove: [Jab]\noverride:\n  - {name: Jab, count: 2}\n", 6,
     "override: 'Jab' is also in `remove:`, so the change would never be seen"),
])
def test_an_override_that_would_be_lost_is_refused(tmp_path: Path, extra: str, line: int, said: str) -> None:
    folder = tmp_path / "hx"
    folder.mkdir()
    (folder / "set.yaml").write_text("name: hx\ntitle: Hx\nextends: lunch\n" + extra, encoding="utf-8")
    run = cardgen("validate", "--set", "hx", "--no-sim", "--no-balance", cwd=tmp_path)
    _fails_at(run, f"hx/set.yaml:{line}:5:", said)


def test_remove_without_extends_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    with (folder / "set.yaml").open("a", encoding="utf-8") as fh:
        fh.write("remove: [Jab]\n")
    run = cardgen("validate", "--set", "hx", "--no-sim", "--no-balance", cwd=tmp_path)
    _fails_at(run, "hx/set.yaml:", "`remove:` changes the cards of a base set, and this set has no `extends:`")


# --- translations held to set.yaml's own limits --------------------------------------------------------------------


@pytest.mark.parametrize(("text", "said"), [
    ("title: '" + "W" * 500 + "'\n", "title: is too long (500 characters; at most 120)"),
    ('title: "a\\0b"\n', "title: has a control character U+0000"),
    ('types:\n  basic: "Grund\\nangriff"\n', "types.basic: has a control character U+000A"),
    ("cards:\n  Jab: {flavour: '" + "x" * 500 + "'}\n", "cards.Jab.flavour: is too long (500 characters; at most 400)"),
    ("cards:\n  Jabb: {flavour: x}\n", "cards: the set has no card 'Jabb' (did you mean 'Jab'?)"),
    ("titel: x\n", "unknown key 'titel' (a translation has title, rules, types and cards) (did you mean 'title'?)"),
])
def test_a_translation_is_held_to_the_limits_of_what_it_translates(tmp_path: Path, text: str, said: str) -> None:
    folder = _copy(tmp_path)
    (folder / "lang" / "de.yaml").write_text(text, encoding="utf-8")
    out, before = _earlier_build(tmp_path)
    run = cardgen("build", "--set", "hx", "--lang", "de", "--out", "out", cwd=tmp_path)
    _fails_at(run, "hx/lang/de.yaml:", said)
    assert _tree(out) == before


def test_a_translation_file_that_is_a_folder_is_an_error_not_a_missing_file(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "lang" / "de.yaml").unlink()
    (folder / "lang" / "de.yaml").mkdir()
    run = cardgen("list", "--set", "hx", "--lang", "de", cwd=tmp_path)
    _fails_at(run, "hx/lang/de.yaml:1:1:", "not a regular file")


def test_an_unknown_set_name_with_a_control_character_is_shown_escaped(tmp_path: Path) -> None:
    run = cardgen("list", "--set", "lu\x01nch", cwd=tmp_path)
    assert clean_failure(run) and "error: unknown set 'lu\\u0001nch'" in run.err, run.err


def test_validate_checks_the_translation_files_without_lang(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "lang" / "de.yaml").write_text("cards:\n  Jabb: {flavour: x}\n", encoding="utf-8")
    (folder / "lang" / "xx.yaml").write_text("title: X\n", encoding="utf-8")
    run = cardgen("validate", "--set", "hx", "--no-sim", "--no-balance", cwd=tmp_path)
    _fails_at(run, "hx/lang/de.yaml:2:3:", "cards: the set has no card 'Jabb' (did you mean 'Jab'?)")
    assert "hx/lang/xx.yaml:1:1: warning: cardgen has no message catalogue for 'xx'" in run.err
    (folder / "lang" / "de.yaml").write_text("cards:\n  Jab: {flavour: Zack.}\n", encoding="utf-8")
    assert cardgen("validate", "--set", "hx", "--no-sim", "--no-balance", cwd=tmp_path).code == 0


@pytest.mark.parametrize(("old", "new", "said"), [
    ("sets: [beer]", "sets: []", "field `sets`: must not be empty"),
    ("sets: [beer]", "sets: 3", "field `sets`: expected text or a list, got 3"),
])
def test_a_scenario_field_of_two_forms_is_not_told_about_strikes(tmp_path: Path, old: str, new: str,
                                                                 said: str) -> None:
    source = Path(__file__).parent / "scenarios" / "beer-block-grab-choke-and-puke.yaml"
    text = source.read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "s.yaml").write_text(text.replace(old, new), encoding="utf-8")
    run = cardgen("replay", "s.yaml", cwd=tmp_path)
    assert clean_failure(run) and said in run.err and "strike" not in run.err, run.err


@pytest.mark.parametrize(("folder", "name"), [("a" * 60, "a" * 40), ("Über-Set", "uber-set"), ("123", "my-123")])
def test_new_makes_a_set_name_that_validates(tmp_path: Path, folder: str, name: str) -> None:
    assert cardgen("new", folder, cwd=tmp_path).code == 0
    assert f"\nname: {name}\n" in (tmp_path / folder / "set.yaml").read_text(encoding="utf-8")
    run = cardgen("validate", "--set", folder, "--no-sim", "--no-balance", cwd=tmp_path)
    assert run.code == 0, run.err


@pytest.mark.parametrize("args", [["build", "--proof"], ["rules"], ["export", "tts", "--dpi", "30"],
                                  ["export", "gallery"]])
def test_an_output_folder_that_is_a_symbolic_link_loop_is_said_plainly(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "lunch").symlink_to("l2")
    (tmp_path / "out" / "l2").symlink_to("lunch")
    cmd = [*args[:2], "--set", "lunch", *args[2:]] if args[0] == "export" else [args[0], "--set", "lunch", *args[1:]]
    run = cardgen(*cmd, "--out", "out", cwd=tmp_path)
    assert clean_failure(run) and "it is a symbolic link loop" in run.err, run.err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["l2", "lunch"]
