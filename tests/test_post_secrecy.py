"""What may be posted: every public output of a played game, and no private file of it.

``killmod post`` and ``--post`` refuse a text that carries a private template's fixed words
(``killmod.announce.render.private_marks``), a line of a private file of the game that names
a living player, or that pairs a living player with his role (``killmod.board.secrecy``).
Games of every rule set are played (``publicgames``): each public post they print passes —
with the roles, the living and the private files of that moment — and each private file
they write is refused.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.board.secrecy import private_texts, refuse_private, refuse_secrets
from killmod.commands.cli import main
from killmod.core.errors import BadInput
from killmod.core.model import Player, Roster
from killmod.game.store import Game
from tests.support.publicgames import SETS, Chooser, Game2, fixed_salt, seats_named

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("name", sorted(SETS))
@pytest.mark.slow
def test_public_posts_pass_and_private_files_are_refused(tmp_path, name):
    game = Game2(tmp_path, name, templates=None)
    with fixed_salt():
        game.play(Chooser.seeded(20))
    seen = game.twins[0].seen
    lines = set()  # each private line naming a living player, checked once (alone) when new
    for each in seen:
        roster = Roster(
            tuple(
                Player(seat, f"玩家{seat}", alive=seat in each.alive, role=role)
                for seat, role in sorted(each.roles.items())
            )
        )
        private = {n: t for n, t in each.private.items() if n not in each.lots_open}
        if each.exit_code == 0 and each.stdout.strip():
            refuse_private(each.stdout)
            refuse_private(each.stdout, roster=roster, over=each.over, private=private)
        for text in () if each.over else private.values():
            for line in set(text.splitlines()) - lines:
                if seats_named(line) & each.alive and len(line.strip()) >= 8:
                    lines.add(line)
                    with pytest.raises(BadInput, match=r"私密文件|保密内容"):
                        refuse_private(line, roster=roster, private=private)
    assert lines  # the partners of the notices at least
    private = seen[-1].private
    assert private  # the notices at least
    for text in private.values():
        with pytest.raises(BadInput, match="保密内容"):
            refuse_private(text)


def run(*args: object):
    done = CliRunner().invoke(main, [str(arg) for arg in args])
    assert done.exit_code == 0, done.output
    return done


def test_the_lots_are_refused_until_they_are_drawn_and_then_pass(tmp_path: Path):
    """The lots name the tied players (alive until the draw): a line of them is refused, and
    so is the check string with the salt; the draw's post shows them all, and passes."""
    db = tmp_path / "game.db"
    run("init", "--roster", EXAMPLES / "roster.toml", "--db", db)
    rulings = tmp_path / "rulings.toml"
    rulings.write_text("[19]\ntarget = 7\n", encoding="utf-8")  # the example day: a 5–7 tie
    deadline = ("--deadline", "2019-05-12 22:00")
    run(
        "tally",
        EXAMPLES / "day1",
        "--db",
        db,
        "--record",
        "--round",
        1,
        *deadline,
        "--rulings",
        rulings,
    )
    made = run("lottery", "make", "--round", 1, "--db", db)
    (written,) = re.findall(r"写在 (\S+)，只有你能读", made.stderr)
    lines = Path(written).read_text(encoding="utf-8").splitlines()
    (line,) = [line for line in lines if "1 号签" in line]
    with Game.open(db) as game:
        assert written in private_texts(game)
        refuse_secrets(game, made.stdout)  # the commitment is public
        with pytest.raises(BadInput, match=f"私密文件 {re.escape(written)} 第 \\d+ 行"):
            refuse_secrets(game, f"听说{line}，是真的吗")
        (check,) = [line for line in lines if line.startswith("killmod-lottery/1|")]
        with pytest.raises(BadInput, match="第 1 轮抽签的密钥"):
            refuse_secrets(game, f"校验串：{check}")  # the lots and the salt, no seat as 5号
    drawn = run("lottery", "reveal", "--round", 1, "--lot", 1, "--db", db)
    assert line.replace(" ", "") in drawn.stdout.replace(" ", "")
    with Game.open(db) as game:
        assert written not in private_texts(game)
        refuse_secrets(game, drawn.stdout)
