"""Write ``evidence-v1.zip`` and ``evidence-v1-knife.zip``: bundles of schema
``killmod.evidence/1`` as the killmod that introduced it wrote them.

Every later killmod must verify them (``tests/test_evidence.py``), or refuse them saying
why.  They were made by this script, serving the vote threads from the tests' local board:

    python tests/data/make_v1_evidence.py tests/data

- ``evidence-v1.zip``: a 1.2 day on the demo thread (quotes, an edited ballot, a deleted
  post, a banned author, a proxy vote, a ballot at 22:00:00 and one at 22:00:01), a ruling
  by floor, a non-voter on leave, a tie and its lottery, drawn;
- ``evidence-v1-knife.zip``: a 1.0 day, the pointing and the knife on the defender.
"""

from __future__ import annotations

import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

from tests.support.forumserver import serve
from tests.support.gamefiles import LATER, new_game, ok, point_all, run, vote_thread, votes
from tests.support.pagebuilder import DEMO_ROSTER_TOML, DEMO_TID, demo_thread, discuz_x_site

R10_ROLES = {1: "杀手", 2: "杀手", 3: "平民", 4: "平民", 5: "平民", 6: "平民"}


def main(out: Path) -> None:
    folder = Path(tempfile.mkdtemp())
    with ExitStack() as stack:
        base = stack.enter_context(serve(discuz_x_site(demo_thread())))
        roster = folder / "roster.toml"
        roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
        db = folder / "game.db"
        ok(run("init", "--roster", roster, "--db", db))
        ok(run("leave", 9, "--day", "2019-05-12", "--db", db))
        rulings = folder / "rulings.toml"
        rulings.write_text('[19]\ntarget = 7\nnote = "错别字，按 7 号计"\n', encoding="utf-8")
        url = f"{base}/forum.php?mod=viewthread&tid={DEMO_TID}"
        ok(run("tally", url, "--deadline", "2019-05-12 22:00", "--db", db, "--record",
               "--round", 1, "--rulings", rulings))  # fmt: skip
        ok(run("lottery", "make", "--round", 1, "--seed", 1, "--db", db))
        ok(run("lottery", "reveal", "--round", 1, "--lot", 1, "--db", db))
        ok(run("evidence", "--round", 1, "--db", db, "--out", out / "evidence-v1.zip"))

        knife = folder / "knife"
        knife.mkdir()
        db = new_game(knife, "1.0", R10_ROLES)
        thread = vote_thread(
            point_all("20:00:00", 1, (2, 3, 4))
            + votes("20:10:00", {5: "投2", 6: "投3"})
            + votes("22:30:00", {1: "刀", 2: "过", 3: "动刀", 4: "刀", 5: "不杀"})
        )
        base = stack.enter_context(serve(discuz_x_site(thread)))
        url = f"{base}/forum.php?mod=viewthread&tid={thread.tid}"
        ok(run("tally", url, "--db", db, "--deadline", "2024-03-01 22:00", "--record",
               "--phase", "point"))  # fmt: skip
        ok(run("tally", url, "--db", db, "--deadline", LATER, "--record", "--phase", "knife"))
        ok(run("evidence", "--round", 1, "--db", db, "--out", out / "evidence-v1-knife.zip"))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
