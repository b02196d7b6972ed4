"""Replays the surviving (and uncovered) mutants of one module, one at a time, against chosen test files.

Each mutant of mutation/core.incremental.json is applied to the source Stryker recorded, the listed Vitest files
run (plain Vitest, no instrumentation, stopping at the first failure), and the file is restored. A quick way to
check new tests against known survivors without a Stryker run; Stryker's own run remains the measure.

    python3 scripts/mutation/replay_survivors.py src/core/text/tokens.ts tests/core/text/tokens-small.test.ts
    python3 scripts/mutation/replay_survivors.py src/core/text/chunk.ts tests/core/text/chunk-small.test.ts --ids 250,264

Prints one line per mutant: id, line, mutator, replacement, KILLED / survived. The source must not have changed
since the Stryker run except for `export` added to functions (re-applied to every mutant; see EXPORTED).
Run it in a copy of the work tree if you keep editing: it rewrites the source file while it runs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INCREMENTAL = ROOT / "mutation" / "core.incremental.json"
TIMEOUT_SECONDS = 120
# Functions exported for tests after the Stryker run: re-export them in every mutant so the tests still import.
EXPORTED = re.compile(r"^function (utf8Length|swapFloat32Bytes)\(", re.M)


def offsets(source: str) -> list[int]:
    starts = [0]
    for line in source.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    return starts


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("module")
    parser.add_argument("tests", nargs="+")
    parser.add_argument("--ids", help="comma-separated mutant ids (default: every Survived or NoCoverage one)")
    args = parser.parse_args()

    report = json.loads(INCREMENTAL.read_text())
    recorded = report["files"][args.module]["source"]
    path = ROOT / args.module
    current = path.read_text()
    ids = set(args.ids.split(",")) if args.ids else None
    starts = offsets(recorded)

    def restore(*_: object) -> None:
        path.write_text(current)
        sys.exit(1)

    signal.signal(signal.SIGTERM, restore)
    try:
        for mutant in report["files"][args.module]["mutants"]:
            if mutant["status"] not in ("Survived", "NoCoverage") or (ids and mutant["id"] not in ids):
                continue
            start, end = mutant["location"]["start"], mutant["location"]["end"]
            a = starts[start["line"] - 1] + start["column"] - 1
            b = starts[end["line"] - 1] + end["column"] - 1
            mutated = recorded[:a] + mutant["replacement"] + recorded[b:]
            path.write_text(EXPORTED.sub(r"export function \1(", mutated))
            # A session of its own, so a mutant that loops forever can be stopped with all of Vitest's workers.
            run = subprocess.Popen(
                ["npx", "vitest", "run", "--bail=1", *args.tests],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            try:
                verdict = "KILLED" if run.wait(timeout=TIMEOUT_SECONDS) != 0 else "survived"
            except subprocess.TimeoutExpired:
                os.killpg(run.pid, signal.SIGKILL)
                run.wait()
                verdict = "KILLED (timeout)"
            print(mutant["id"], start["line"], mutant["mutatorName"], repr(mutant["replacement"])[:50], verdict, flush=True)
    finally:
        path.write_text(current)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
