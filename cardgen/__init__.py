"""cardgen: print-and-play card sheets, rules pages and simulated games for the Lunch Money family."""

from cardgen.native import install as _install_native

__version__ = "0.1.0"
# Which engine runs, the compiled group or the pure sources (cardgen/native.py): `cardgen --version` says.
BUILD = _install_native()
