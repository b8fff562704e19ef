"""No public output of any command tells a living player's role or a hidden night effect.

Random games of every rule set (Hypothesis draws the deal's seed, every night's targets
over all the set's options, every ballot, lottery or re-vote, a 2.0 killer's suicide), each
played on twin game files, the second with night actions that change nothing anyone may
see — a police check, a 【沉默】 on a player who then casts no ballot, a 【蝶衣】 on a player
nothing touches (``publicgames``).  Along the game every public output (stdout of deal,
night, tally in every format, lottery, status, lurkers, audit, suicide) is checked:

- no role that only living players hold appears, and no line names a living seat with its
  role;
- no line of a private file (notices, a night's private part) appears, nor the lots before
  the draw;
- the twins' outputs are the same: no hidden night action or target shows.
"""

from __future__ import annotations

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, Phase, given, settings

from tests.support.publicgames import (
    SETS,
    Chooser,
    Game2,
    compare_twins,
    fixed_salt,
    leaks,
    role_words,
)


@pytest.mark.parametrize("name", sorted(SETS))
@settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # games take seconds: no shrinking
)
@given(data=st.data())
@pytest.mark.slow
def test_no_public_output_tells_a_secret(tmp_path_factory, name, data):
    game = Game2(tmp_path_factory.mktemp(name.replace(".", "_")), name, templates=None)
    with fixed_salt():
        game.play(Chooser.hypothesis(data))
    words = role_words(game.rules, game.variants)
    problems = [
        problem for seen in game.twins[0].seen for problem in leaks(seen, words, game.rules)
    ]
    problems += compare_twins(game)
    assert not problems, "\n".join(problems)
    labels = {seen.label.split()[0] for seen in game.twins[0].seen}
    assert {"deal", "status"} <= labels
