"""What may be posted: every public output of a played game, and no private file of it.

``killmod post`` and ``--post`` refuse a text that carries a private template's fixed words
(``killmod.announce.render.private_marks``), or that pairs a living player with his role
(``killmod.board.secrecy``).  Games of every rule set are played (``publicgames``): each public
post they print passes — with the roles and the living of that moment — and each private
file they write is refused.
"""

from __future__ import annotations

import pytest

from killmod.board.posting import refuse_private
from killmod.core.errors import BadInput
from killmod.core.model import Player, Roster
from tests.support.publicgames import SETS, Chooser, Game2, fixed_salt


@pytest.mark.parametrize("name", sorted(SETS))
@pytest.mark.slow
def test_public_posts_pass_and_private_files_are_refused(tmp_path, name):
    game = Game2(tmp_path, name, templates=None)
    with fixed_salt():
        game.play(Chooser.seeded(20))
    seen = game.twins[0].seen
    for each in seen:
        if each.exit_code == 0 and each.stdout.strip():
            refuse_private(each.stdout)
            roster = Roster(
                tuple(
                    Player(seat, f"玩家{seat}", alive=seat in each.alive, role=role)
                    for seat, role in sorted(each.roles.items())
                )
            )
            refuse_private(each.stdout, roster=roster, over=each.over)
    private = seen[-1].private
    assert private  # the notices at least
    for text in private.values():
        with pytest.raises(BadInput, match="保密内容"):
            refuse_private(text)
