"""cardgen: print-and-play card sheets, rules pages and simulated games for the Lunch Money family."""

__version__ = "0.1.0"
