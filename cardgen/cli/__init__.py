"""The `cardgen` command line: parses options and calls the other stages, nothing more."""
