"""Console entry point, kept free of imports: Ctrl-C at any moment, even while the libraries load, ends
with "aborted" and exit code 130, never a traceback."""

from __future__ import annotations

import signal
import sys

ABORTED_EXIT_CODE = 130  # 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C


def aborted() -> None:
    """Say "aborted" and exit; a second Ctrl-C during the clean-up is ignored instead of raising."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.stderr.write("aborted\n")
    sys.exit(ABORTED_EXIT_CODE)


def run() -> None:
    try:
        from cardgen.cli.main import run as run_cli

        run_cli()
    except KeyboardInterrupt:
        aborted()
