"""The count during the day (临时票型) is the final count at its cut-off, as the vote stands.

Over random rosters and vote threads (the strategies of ``test_properties``), under the rule
sets with self votes (1.2), without (V4.0) and with one ballot each (X): as of any time, and
as of any floor, the provisional count's ballots, counts and not-yet-voted players are those
of the final count computed at the same cut-off — less the self votes, which come only at
the deadline — and the post shows no outcome and no warning.
"""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import timedelta

import hypothesis.strategies as st
from hypothesis import given

from killmod.announce.views import PublicProvisional
from killmod.core.model import TallyResult
from killmod.fetch.thread import Thread
from killmod.usecases.provisional import Provisional, provisional_count
from killmod.usecases.tally import tally_thread
from tests.test_properties import DEADLINE, FAST, games

RULE_SETS = ("1.2", "v4", "x")


def same_as_final(so_far: Provisional, final: TallyResult) -> None:
    """What the provisional count shows is the final count's, less its self votes."""
    assert so_far.standing == tuple(b for b in final.ballots if b.kind != "self")
    assert [b.seat for b in so_far.not_voted] == [b.seat for b in final.ballots if b.kind == "self"]
    own = {b.seat for b in final.ballots if b.kind == "self"}
    expected = {c.seat: tuple(v for v in c.voters if v not in own) for c in final.counts}
    assert {c.seat: c.voters for c in so_far.counts} == {
        seat: voters for seat, voters in expected.items() if voters
    }
    assert all(c.votes == len(c.voters) for c in so_far.counts)
    votes = [c.votes for c in so_far.counts]
    assert votes == sorted(votes, reverse=True)


@FAST
@given(games(), st.sampled_from(RULE_SETS), st.integers(0, 4 * 3600))
def test_as_of_a_time_it_is_the_final_count_with_that_deadline(game, rules, before):
    roster, posts = game
    roster = replace(roster, rules=rules)
    thread = Thread("vote-thread", "投票帖", 1, tuple(posts), "discuz_x")
    cut = DEADLINE - timedelta(seconds=before)
    so_far = provisional_count(
        thread, roster, deadline=DEADLINE, as_of=cut.strftime("%Y-%m-%d %H:%M:%S"), now=cut
    )
    assert so_far.cut.time == cut and so_far.remaining == timedelta(seconds=before)
    same_as_final(so_far, tally_thread(thread, roster, deadline=cut))


@FAST
@given(games(), st.sampled_from(RULE_SETS), st.data())
def test_as_of_a_floor_it_is_the_final_count_of_the_posts_up_to_it(game, rules, data):
    roster, posts = game
    roster = replace(roster, rules=rules)
    thread = Thread("vote-thread", "投票帖", 1, tuple(posts), "discuz_x")
    last = max((post.floor for post in posts), default=0)
    if last == 0:
        return
    floor = data.draw(st.integers(1, last))
    so_far = provisional_count(thread, roster, deadline=DEADLINE, as_of=floor, now=DEADLINE)
    kept = replace(thread, posts=tuple(p for p in posts if p.floor <= floor))
    same_as_final(so_far, tally_thread(kept, roster, deadline=DEADLINE))


def test_the_public_count_has_no_outcome_and_no_warning():
    names = {field.name for field in fields(PublicProvisional)}
    assert not names & {"outcome", "warnings", "excused", "roster", "flags", "recorded"}
