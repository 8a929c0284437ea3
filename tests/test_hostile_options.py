"""Options that used to end in a traceback or run on regardless: a malformed or unreachable `--cluster` address,
`tune` numbers that are not numbers and cards the set lacks. Each is refused by the real command in one line,
exit 1, within seconds, before any game is played."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from hostile import cardgen, clean_failure

SECONDS = 5.0


def _one_error(run_args: tuple[str, ...], tmp_path: Path, *said: str) -> None:
    run = cardgen(*run_args, cwd=tmp_path, timeout=60)
    assert clean_failure(run), (run.code, run.err)
    assert run.err.startswith("error: ") and len(run.err.strip().splitlines()) == 1, run.err
    for text in said:
        assert text in run.err, run.err
    assert run.cpu < SECONDS, run.cpu
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("address", ["tcp://[::1", "not a url::", "tcp://", "tcp://host:99999", "tcp://host:port",
                                     "http://127.0.0.1:8786", "tcp://127.0.0.1", ""])
def test_a_malformed_cluster_address_is_one_error_line(tmp_path: Path, address: str) -> None:
    _one_error(("simulate", "--set", "lunch", "--games", "4", "--cluster", address), tmp_path,
               "Invalid value for '--cluster'", f"{address!r} is not a scheduler address", "tcp://HOST:PORT")


def _closed_port() -> int:
    """A port on this machine that nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_scheduler_is_refused_within_seconds(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the cluster extra is not installed (pip install '.[cluster]')")
    address = f"tcp://127.0.0.1:{_closed_port()}"
    _one_error(("simulate", "--set", "lunch", "--games", "4", "--cluster", address), tmp_path,
               f"cannot reach the Dask scheduler at '{address}'", "refused")


@pytest.mark.parametrize(("option", "value"), [("--min-effect", "nan"), ("--alpha", "nan"), ("--min-effect", "inf"),
                                               ("--min-effect", "-inf")])
def test_tune_refuses_a_number_that_is_not_finite(tmp_path: Path, option: str, value: str) -> None:
    _one_error(("tune", "lunch", "lunch", option, value), tmp_path, f"Invalid value for '{option}': {value!r}"
               if value == "nan" else f"Invalid value for '{option}': {value} is not in the range")


def test_tune_refuses_a_card_the_set_lacks_before_any_game(tmp_path: Path) -> None:
    _one_error(("tune", "lunch", "lunch", "--card", "Nonesuch"), tmp_path, "set lunch has no card 'Nonesuch'")
    _one_error(("tune", "lunch", "lunch", "--card", "Jab", "--card", "Hok"), tmp_path, "no card 'Hok'",
               "did you mean 'Hook'")
    _one_error(("tune", "lunch", "lunch", "--card", "Jab", "--numbers", "heal"), tmp_path,
               "Jab has none of the numbers tune may change (heal)")
