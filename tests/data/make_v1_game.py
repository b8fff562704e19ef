"""Write ``v1-game.db``: a 1.2 game file as killmod 0.1.0 wrote it (schema 1, WAL).

The tests of ``killmod upgrade`` read that file; it was made by this script with the
schema-1 killmod (commit 290c8bc) first on the path, serving the vote threads from the
tests' local board:

    PYTHONPATH=<schema-1 killmod source>:. python tests/data/make_v1_game.py OUT.db

A game under way (a former holder, a carried warning), dealt, two nights (the second
recorded again), a tie and its lottery, a substitution, a leave, a penalty, and a day
recorded again: every kind of event and every way schema 1 voids one.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

from tests.support.forumserver import serve
from tests.support.gamefiles import TID, deadline, ok, roster_toml, run, vote_thread, votes
from tests.support.pagebuilder import discuz_x_site

ROLES = dict.fromkeys(range(1, 17))
EXTRA = 'substitutes = ["替补甲", "替补乙"]\n[warnings]\n"12" = 1'


def main(out: Path) -> None:
    folder = Path(tempfile.mkdtemp())
    roster = folder / "roster.toml"
    text = roster_toml("1.2", ROLES, extra="")
    text = text.replace('judges = ["法官"]\n', f'judges = ["法官"]\n{EXTRA}\n', 1)
    text = text.replace(
        'name = "玩家3"\n',
        'name = "玩家3"\nformer = [{ name = "老三", until = "2024-02-28 12:00" }]\n',
    )
    roster.write_text(text, encoding="utf-8")
    ok(run("init", "--roster", roster, "--db", out))
    ok(run("deal", "--db", out, "--seed", 5, "--notices", folder / "notices"))
    roles = dict(sqlite3.connect(out).execute("select seat, role from players").fetchall())
    good = [seat for seat, role in sorted(roles.items()) if role == "水民"]
    with ExitStack() as stack:

        def url(rows, day):
            base = stack.enter_context(serve(discuz_x_site(vote_thread(rows, day))))
            return f"{base}/forum.php?mod=viewthread&tid={TID}"

        ok(run("night", "--round", 1, "--kill", good[0], "--at", "2024-02-29 23:00", "--db", out))
        living = [seat for seat in range(1, 17) if seat != good[0]]
        a, b = good[1], good[2]
        others = [seat for seat in living if seat not in (a, b)]
        half = len(others) // 2
        tie = {seat: f"投{a}号" for seat in [b, *others[:half]]}
        tie |= {seat: f"投{b}号" for seat in [a, *others[half : 2 * half]]}
        tie |= {seat: "弃权" for seat in others[2 * half :]}
        day1 = url(votes("20:00:00", tie), 1)
        ok(run("tally", day1, "--db", out, "--deadline", deadline(1), "--record", "--round", 1))
        ok(run("lottery", "make", "--round", 1, "--seed", 1, "--db", out))
        ok(run("lottery", "reveal", "--round", 1, "--lot", 1, "--db", out))
        ok(run("sub", good[3], "替补甲", "--at", "2024-03-02 08:00", "--db", out))
        ok(run("leave", good[4], "--day", "2024-03-02", "--db", out))
        ok(
            run(
                "penalty",
                good[5],
                "--round",
                1,
                "--kind",
                "cancel",
                "--choice",
                "取消",
                "--db",
                out,
            )
        )
        ok(run("night", "--round", 2, "--kill", good[6], "--at", "2024-03-01 23:00", "--db", out))
        ok(run("night", "--round", 2, "--kill", good[7], "--at", "2024-03-01 23:00",
               "--replace", "--db", out))  # fmt: skip
        alive = [s for s in range(1, 17) if s not in (good[0], good[7])]
        lost = (
            sqlite3.connect(out)
            .execute("select seat from events where kind = 'death' and data like '%lottery%'")
            .fetchone()[0]
        )
        alive = [s for s in alive if s != lost]
        day2 = url(votes("20:00:00", {s: f"投{good[8]}号" for s in alive}), 2)
        ok(run("tally", day2, "--db", out, "--deadline", deadline(2), "--record", "--round", 2))
        again = url(votes("20:00:00", {s: f"投{good[9]}号" for s in alive}), 2)
        ok(run("tally", again, "--db", out, "--deadline", deadline(2), "--record", "--round", 2,
               "--replace"))  # fmt: skip


if __name__ == "__main__":
    main(Path(sys.argv[1]))
