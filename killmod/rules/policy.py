"""What a rule set tells the rest of killmod: how a vote is counted, what the judge may decide."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class TallyPolicy:
    """How a day vote is counted under a rule set.

    ``non_voter``: a living player with no ballot votes for himself (``self``) or
    not at all (``none``); ``warn_non_voters``: whether he is warned.
    ``ballots``: ``last`` — a later ballot post changes the vote (1.2 允许改票);
    ``first`` — the first ballot stands and every later one is rejected
    ``repeat_ballot`` (X 每个人只有一次投票机会). ``violations``: the verdicts of a
    vote-thread post that are 犯规 under the set (1.2 补充说明 二.5); none elsewhere.
    ``follow_invalid``: a ballot that says 跟票 or 补票 is rejected ``follow_vote`` (X
    注意事项 11 “跟票或补票将被记为无效票”); elsewhere it is read as any vote.
    """

    non_voter: Literal["self", "none"]
    warn_non_voters: bool
    ballots: Literal["last", "first"] = "last"
    violations: frozenset[str] = frozenset()
    follow_invalid: bool = False


@dataclass(frozen=True)
class JudgeOut:
    """One of the judge's own decisions the rule text writes, recorded by ``killmod out``.

    ``words`` names it in the rule text's words. ``ends_day``: it takes the
    place of the day's vote (X 认匪: “可不经投票判其被公决”). ``surrender``: nobody
    goes out, the seat's side loses and the game ends (投降).
    """

    words: str
    ends_day: bool = False
    surrender: bool = False


# The killers' role, named the same in every rule set.
KILLER = "杀手"
