"""killmod's benchmark: builds threads with the tests' page builder, serves them on
127.0.0.1 and times real commands.

    .venv/bin/python bench/run.py [--json] [--repeat N]

Every figure is the median of N runs (default 5) of a whole ``killmod`` process,
start-up included, as a judge would run it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from forumserver import serve  # noqa: E402
from pagebuilder import big_roster_toml, big_thread, discuz_x_site, render_discuz_x_page  # noqa: E402

KILLMOD = [sys.executable, "-m", "killmod.cli"]


def timed(command: list[str], repeat: int) -> float:
    """Median wall time of ``command`` over ``repeat`` runs; a failing run stops the bench."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"bench command failed: {' '.join(command)}\n{done.stderr}")
    return statistics.median(times)


def tally_over_http(work: Path, pages: int, repeat: int) -> dict:
    """(a) ``killmod tally`` of a ``pages``-page vote thread from the local board."""
    thread = big_thread(pages)
    roster = work / "roster.toml"
    roster.write_text(big_roster_toml(), encoding="utf-8")
    with serve(discuz_x_site(thread)) as base:
        url = f"{base}/forum.php?mod=viewthread&tid={thread.tid}"
        seconds = timed(
            [
                *KILLMOD,
                "tally",
                url,
                "--roster",
                str(roster),
                "--deadline",
                "22:00",
                "--format",
                "json",
            ],
            repeat,
        )
    return {
        "name": f"tally, {pages}-page thread over HTTP",
        "posts": len(thread.posts),
        "seconds": seconds,
    }


def tally_saved(work: Path, posts: int, repeat: int) -> dict:
    """``killmod tally`` of a saved thread of ``posts`` posts (a folder of pages)."""
    thread = big_thread(posts // 10)
    folder = work / "saved"
    folder.mkdir()
    for n in range(1, thread.page_count + 1):
        (folder / f"page-{n}.html").write_bytes(render_discuz_x_page(thread, n))
    roster = work / "roster.toml"
    roster.write_text(big_roster_toml(), encoding="utf-8")
    seconds = timed(
        [
            *KILLMOD,
            "tally",
            str(folder),
            "--roster",
            str(roster),
            "--deadline",
            "22:00",
            "--format",
            "json",
        ],
        repeat,
    )
    return {
        "name": f"tally, {len(thread.posts)}-post saved thread",
        "posts": len(thread.posts),
        "seconds": seconds,
    }


def help_start(repeat: int) -> dict:
    """``killmod --help``: how fast the command starts."""
    return {"name": "killmod --help", "posts": 0, "seconds": timed([*KILLMOD, "--help"], repeat)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        rows = [
            help_start(args.repeat),
            tally_over_http(work, 20, args.repeat),
            tally_saved(work, 1000, args.repeat),
        ]
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    if args.json:
        print(json.dumps({"machine": machine, "rows": rows}, ensure_ascii=False, indent=1))
        return
    print(f"machine: {machine}")
    print(f"{'measure':<42} {'posts':>6} {'seconds':>8} {'posts/s':>8}")
    for row in rows:
        rate = f"{row['posts'] / row['seconds']:.0f}" if row["posts"] else "—"
        print(f"{row['name']:<42} {row['posts']:>6} {row['seconds']:>8.3f} {rate:>8}")


if __name__ == "__main__":
    main()
