"""What checking a set's files against the JSON Schema costs: importing jsonschema against the quick check.

`cardgen/loader/quick_schema.py` says yes to a conforming file without jsonschema; this prints why it is kept:
the CPU time of importing jsonschema in a fresh process, and of validating every file of a set both ways
(median of --runs processes).

    python bench/schema_bench.py [--set beer] [--runs 9]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

IMPORT = "import time; t = time.process_time(); import jsonschema; print(time.process_time() - t)"
VALIDATE = """
import sys, time
from cardgen.loader.quick_schema import plainly_valid
from cardgen.loader.schema import schema
from cardgen.loader.schema_check import _VALIDATOR
from cardgen.loader.load import resolve_set
from cardgen.yaml_doc import read_document
docs = [read_document(f, str(f), []).data for f in sorted(resolve_set(sys.argv[1]).glob("*.yaml"))]
t = time.process_time()
assert all(plainly_valid(schema(), d) for d in docs)
quick = time.process_time() - t
t = time.process_time()
full = _VALIDATOR._full
assert all(full.is_valid(d) for d in docs)
print(quick, time.process_time() - t)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="beer")
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    imports = [float(subprocess.run([sys.executable, "-c", IMPORT], capture_output=True, text=True,
                                    check=True).stdout) for _ in range(args.runs)]
    runs = [[float(x) for x in subprocess.run([sys.executable, "-c", VALIDATE, args.set], capture_output=True,
                                              text=True, check=True).stdout.split()] for _ in range(args.runs)]
    ms = 1000.0
    print(f"import jsonschema, fresh process: median {statistics.median(imports) * ms:.1f} ms CPU "
          f"(min {min(imports) * ms:.1f})")
    print(f"{args.set}'s files, quick check: median {statistics.median(r[0] for r in runs) * ms:.2f} ms CPU")
    print(f"{args.set}'s files, jsonschema (validator built, after import): median "
          f"{statistics.median(r[1] for r in runs) * ms:.2f} ms CPU")


if __name__ == "__main__":
    main()
