"""Long mutation fuzzing of every scraper: damaged pages must read right or fail clearly.

    .venv/bin/python -m bench.fuzz --minutes N [--seed S] [--json]

(run from the repository's folder: as a module, it finds the tests' helpers, ``tests.support``)

Runs the fuzzer of ``tests/support/fuzzing.py`` (its docstring states the damage and the
invariants) for N minutes, every scraper and kind of damage in turn on random pages, and
prints how many mutations of each kind each scraper got and what came of them:

    same         read exactly as the undamaged page
    one_changed  the post around the damage reads differently (allowed for dropped tags
                 and garbled attributes that are not a post's id or class)
    error        a clear error (a KillmodError with a Chinese message)
    violation    an invariant broken: fewer posts, a wrong page count, another post changed…
    crash        an exception that is not a KillmodError

followed by the first violations and crashes.  Exit code 1 when there is any.
``tests/test_fuzz_scrapers.py`` runs the same fuzzer, bounded, in the test suite.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

from tests.support import fuzzing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=1.0, help="how long to run (default 1)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: the clock)")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else int(time.time())
    started = time.monotonic()
    fuzzing.pages_by_scraper()  # build the pages before the clock starts counting mutations
    deadline = time.monotonic() + args.minutes * 60
    tally = fuzzing.Tally()
    for n, (subject, mutant, verdict) in enumerate(fuzzing.forever(seed)):
        tally.add(subject, mutant, verdict)
        if n % 50 == 0 and time.monotonic() >= deadline:
            break
    elapsed = time.monotonic() - started
    bad = sum(n for (_, _, outcome), n in tally.counts.items() if outcome in ("violation", "crash"))
    if args.json:
        rows = [
            {"scraper": s, "kind": k, "outcome": o, "count": n}
            for (s, k, o), n in sorted(tally.counts.items())
        ]
        print(json.dumps({"seed": seed, "seconds": round(elapsed, 1), "rows": rows,
                          "problems": tally.examples}, ensure_ascii=False, indent=1))  # fmt: skip
    else:
        print_table(tally.counts, seed, elapsed)
        for example in tally.examples[:40]:
            print("  " + example)
    return 1 if bad else 0


def print_table(counts: Counter, seed: int, elapsed: float) -> None:
    outcomes = fuzzing.OUTCOMES
    total = sum(counts.values())
    print(f"fuzz: {total} mutations in {elapsed:.0f} s, seed {seed}")
    header = f"{'scraper':<20}{'kind':<13}{'tried':>7}" + "".join(f"{o:>13}" for o in outcomes)
    print(header)
    print("-" * len(header))
    rows: dict[tuple[str, str], Counter] = {}
    for (scraper, kind, outcome), n in counts.items():
        rows.setdefault((scraper, kind), Counter())[outcome] += n
    for (scraper, kind), row in sorted(rows.items()):
        cells = "".join(f"{row.get(o, 0):>13}" for o in outcomes)
        print(f"{scraper:<20}{kind:<13}{sum(row.values()):>7}{cells}")
    by_outcome = Counter()
    for (_, _, outcome), n in counts.items():
        by_outcome[outcome] += n
    cells = "".join(f"{by_outcome.get(o, 0):>13}" for o in outcomes)
    print("-" * len(header))
    print(f"{'all':<33}{total:>7}{cells}")


if __name__ == "__main__":
    sys.exit(main())
