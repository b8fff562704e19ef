"""The 1.2 day-vote tally (README “Usage”, docs/rules/1.2.md), one rule at a time.

Every test builds its posts and roster here and calls the pure engine
``count_votes``: no forum, no files, no clock.
"""

from __future__ import annotations

import random
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from killmod.ballots.count import REASONS, TallyOptions, count_votes
from killmod.ballots.rulings import Ruling
from killmod.core.model import (
    Ballot,
    Change,
    Count,
    Flag,
    FormerHolder,
    GameWarning,
    Outcome,
    Player,
    Post,
    Rejection,
    Roster,
    Source,
    TallyResult,
    Verdict,
)
from killmod.rules import r12

SHANGHAI = ZoneInfo("Asia/Shanghai")


def at(clock: str) -> datetime:
    """2019-05-12 ``HH:MM[:SS]`` in Shanghai."""
    hour, minute, *second = (int(part) for part in clock.split(":"))
    return datetime(2019, 5, 12, hour, minute, *second, tzinfo=SHANGHAI)


DEADLINE = at("22:00:00")
JUDGE = "法官大人"
SUBSTITUTES = ("路人甲", "路人乙")
# The former holder of seat 8 handed it to 红豆 at noon.
LAOLI = FormerHolder("老李", until=at("12:00:00"), uid=208)
SEATS = {
    1: "meer",
    2: "阿狸",
    3: "老王",
    4: "小明",
    5: "预言家",
    6: "潜水员",
    7: "花生米",
    8: "红豆",
}
DEAD = {6}
LIVING = (1, 2, 3, 4, 5, 7, 8)


def make_roster(
    warnings: dict[int, int] | None = None, substitutes: tuple[str, ...] = SUBSTITUTES
) -> Roster:
    return Roster(
        players=tuple(
            Player(
                seat,
                name,
                uid=100 + seat,
                aliases=("狐狸",) if seat == 2 else (),
                alive=seat not in DEAD,
                former=(LAOLI,) if seat == 8 else (),
            )
            for seat, name in SEATS.items()
        ),
        judges=(JUDGE,),
        substitutes=substitutes,
        warnings=warnings or {},
    )


ROSTER = make_roster()
SOURCE = Source(
    url="https://bbs.example.com/thread-123-1-1.html", title="第二天投票", pages=2, posts=9
)
# uids of the people who post without holding a seat.
OTHER_UIDS = {JUDGE: 1, "老李": 208, "路过的": 3001, "路人甲": 3002}


def post(
    floor: int,
    author: int | str,
    body: str,
    at_: str = "21:00:00",
    *,
    edited: str | None = None,
    **kw,
) -> Post:
    """Floor ``floor`` (pid floor*7) by seat ``author`` or by the name ``author``.

    ``at_`` is ``HH:MM:SS`` (a board showing seconds) or ``HH:MM`` (minutes only);
    ``edited`` is the minute of the board's edit notice.
    """
    if isinstance(author, int):
        name, uid = SEATS[author], 100 + author
    else:
        name, uid = author, OTHER_UIDS.get(author)
    return Post(
        pid=floor * 7,
        floor=floor,
        author=name,
        uid=kw.pop("uid", uid),
        posted_at=at(at_),
        precision="second" if at_.count(":") == 2 else "minute",
        body=body,
        edited_at=at(edited) if edited else None,
        **kw,
    )


def tally(*posts: Post, roster: Roster = ROSTER, **options) -> TallyResult:
    return count_votes(
        posts,
        roster,
        DEADLINE,
        rules=r12,
        source=SOURCE,
        round_no=2,
        options=TallyOptions(**options),
    )


def ballot(result: TallyResult, seat: int) -> Ballot:
    (found,) = (b for b in result.ballots if b.seat == seat)
    return found


def verdict(result: TallyResult, floor: int) -> Verdict:
    (found,) = (v for v in result.verdicts if v.floor == floor)
    return found


def reasons(result: TallyResult) -> dict[int | None, str]:
    """Rejected floors and their reason."""
    return {r.floor: r.reason for r in result.rejected}


def targets(result: TallyResult) -> dict[int, tuple[str, int | None]]:
    """Each entitled voter's (kind, target)."""
    return {b.seat: (b.kind, b.target) for b in result.ballots}


def everyone_votes(target: int, floor: int = 100, clock: str = "20:00:00") -> list[Post]:
    """An on-time vote for ``target`` by every living seat (so nobody is a self vote)."""
    return [post(floor + seat, seat, f"投{target}号", clock) for seat in LIVING]


# --- who may post -------------------------------------------------------------------------


def test_judge_posts_are_skipped_not_rejected():
    result = tally(post(1, JUDGE, "投票开始，投5号"), post(2, 1, "投7号"))
    assert verdict(result, 1).verdict == "judge"
    assert verdict(result, 1).seat is None
    assert reasons(result) == {}
    assert Count(5, "预言家", 1, (5,)) in result.counts  # only 5's own self vote


def test_judge_is_recognised_by_folded_name():
    result = tally(post(1, " 法官大人 ", "投5号", uid=999))
    assert verdict(result, 1).verdict == "judge"


def test_outsider_post_is_rejected_not_player():
    result = tally(post(3, "路过的", "路过，投5号凑个热闹", "11:02:55"))
    assert result.rejected == (Rejection(21, 3, "路过的", None, "not_player", at("11:02:55")),)
    assert verdict(result, 3).verdict == "not_player"
    assert Count(5, "预言家", 1, (5,)) in result.counts  # only 5's own self vote


def test_substitute_not_yet_seated_is_not_player():
    assert reasons(tally(post(3, "路人甲", "投5号"))) == {3: "not_player"}


def test_dead_player_post_is_dead():
    result = tally(post(4, 6, "投 3号"))
    assert result.rejected == (Rejection(28, 4, "潜水员", 6, "dead", at("21:00:00")),)
    assert 6 not in targets(result)


def test_former_holder_after_replacement_is_replaced():
    result = tally(post(5, "老李", "投5号", "13:00:00"))
    assert result.rejected == (Rejection(35, 5, "老李", 8, "replaced", at("13:00:00")),)
    assert ballot(result, 8).kind == "self"


def test_former_holder_before_replacement_counts_for_the_seat():
    result = tally(post(5, "老李", "投5号", "11:00:00"))
    assert reasons(result) == {}
    assert verdict(result, 5).verdict == "counted"
    assert verdict(result, 5).seat == 8
    assert ballot(result, 8) == Ballot(8, "红豆", "vote", 5, 5, at("11:00:00"))


def test_new_holder_replaces_the_former_holders_ballot():
    result = tally(post(5, "老李", "投5号", "11:00:00"), post(9, 8, "投7号", "13:00:00"))
    assert ballot(result, 8).target == 7
    assert result.changes == (Change(8, 9, 5, 7, at("13:00:00")),)


def test_renamed_account_is_matched_by_uid():
    result = tally(post(6, "王老五", "投5号", uid=103))
    assert verdict(result, 6).seat == 3
    assert ballot(result, 3).target == 5


def test_same_shown_name_with_another_uid_is_not_player():
    result = tally(post(6, 3, "投5号", uid=9999))
    assert reasons(result) == {6: "not_player"}
    assert ballot(result, 3).kind == "self"


def test_player_without_a_known_uid_is_matched_by_his_name_as_shown_only():
    """Issue 25.4: another account named ``MEER`` was counted as the player ``meer``."""
    roster = Roster(players=(Player(1, "meer"), Player(2, "阿狸")), judges=(JUDGE,))
    result = tally(post(6, "MEER", "投2号", uid=555), roster=roster)
    assert reasons(result) == {6: "not_player"} and ballot(result, 1).kind == "self"
    assert ballot(tally(post(6, "meer", "投2号", uid=555), roster=roster), 1).target == 2


def test_renamed_former_holder_after_replacement_is_replaced():
    result = tally(post(5, "老李改名", "投5号", "13:00:00", uid=208))
    assert reasons(result) == {5: "replaced"}


def test_renamed_former_holder_before_replacement_counts_for_the_seat():
    result = tally(post(5, "老李改名", "投5号", "11:00:00", uid=208))
    assert ballot(result, 8).target == 5


def test_former_holders_name_with_another_uid_is_not_player():
    result = tally(post(5, "老李", "投5号", "11:00:00", uid=9999))
    assert reasons(result) == {5: "not_player"}
    assert ballot(result, 8).kind == "self"


# --- the deadline -------------------------------------------------------------------------


def test_post_at_the_deadline_second_counts():
    result = tally(post(7, 1, "投5号", "22:00:00"))
    assert verdict(result, 7).verdict == "counted"
    assert result.flags == ()


def test_post_one_second_after_the_deadline_is_late():
    result = tally(post(7, 1, "投5号", "21:00:00"), post(8, 1, "改投7号", "22:00:01"))
    assert reasons(result) == {8: "late"}
    assert ballot(result, 1).target == 5
    assert result.changes == ()


@pytest.mark.parametrize(
    ("clock", "verdict_", "flagged"),
    [
        pytest.param("21:59", "counted", False, id="minute-before"),
        pytest.param("22:00", "counted", True, id="deadline-minute"),
        pytest.param("22:01", "late", False, id="minute-after"),
    ],
)
def test_minute_precision_times(clock, verdict_, flagged):
    result = tally(post(7, 1, "投5号", clock))
    assert verdict(result, 7).verdict == verdict_
    assert (Flag(7, 1, "time_ambiguous", clock) in result.flags) is flagged
    assert len(result.flags) == int(flagged)


def test_deadline_minute_is_counted_by_default_and_not_rejected():
    result = tally(post(7, 1, "投5号", "22:00"))
    assert reasons(result) == {}
    assert ballot(result, 1).target == 5


def test_deadline_minute_is_rejected_when_the_judge_asks():
    result = tally(
        post(6, 1, "投7号", "21:00:00"), post(7, 1, "改投5号", "22:00"), ambiguous_time="reject"
    )
    assert reasons(result) == {7: "time_ambiguous"}
    assert [f.reason for f in result.flags] == ["time_ambiguous"]
    assert ballot(result, 1).target == 7


def test_minute_before_the_deadline_is_not_rejected_under_reject():
    result = tally(post(7, 1, "投5号", "21:59"), ambiguous_time="reject")
    assert ballot(result, 1).target == 5


# --- reading a ballot ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "target"),
    [
        pytest.param("投5号", 5, id="verb-seat"),
        pytest.param("5号！", 5, id="bare-seat"),
        pytest.param("投 ５号", 5, id="fullwidth"),
        pytest.param("五号", 5, id="chinese-numeral"),
        pytest.param("投给 预言家", 5, id="forum-name"),
        pytest.param("投狐狸", 2, id="alias"),
        pytest.param("vote 7", 7, id="english"),
    ],
)
def test_a_vote_counts_for_its_target(body, target):
    result = tally(post(9, 1, body))
    assert verdict(result, 9).verdict == "counted"
    assert ballot(result, 1) == Ballot(1, "meer", "vote", target, 9, at("21:00:00"))


@pytest.mark.parametrize("body", ["投我", "投自己"])
def test_vote_for_me_is_the_writers_own_seat(body):
    result = tally(post(9, 4, body))
    assert ballot(result, 4) == Ballot(4, "小明", "vote", 4, 9, at("21:00:00"))
    assert result.warnings == tuple(
        GameWarning(seat, SEATS[seat], 1, "warn") for seat in LIVING if seat != 4
    )


@pytest.mark.parametrize("body", ["替9号投2号", "我投5号，替4号投2号", "代投3号"])
def test_proxy_vote_is_rejected(body):
    result = tally(post(9, 1, body))
    assert reasons(result) == {9: "proxy"}
    assert ballot(result, 1).kind == "self"


def test_post_without_a_vote_is_no_vote():
    result = tally(post(9, 1, "还没想好，再看看"))
    assert reasons(result) == {9: "no_vote"}
    assert verdict(result, 9).verdict == "no_vote"


def test_two_targets_are_ambiguous():
    result = tally(post(9, 1, "投3或者5"))
    assert reasons(result) == {9: "ambiguous"}


def test_unrecognised_name_is_unknown_target():
    result = tally(post(9, 1, "投张三丰"))
    assert reasons(result) == {9: "unknown_target"}
    assert result.flags == ()


def test_near_miss_is_flagged_with_a_suggestion_and_never_counted():
    result = tally(post(9, 2, "投meet"))
    assert reasons(result) == {9: "unknown_target"}
    assert result.flags == (Flag(9, 2, "near_miss", "meet", 1),)
    assert ballot(result, 2).kind == "self"
    assert Count(1, "meer", 1, (1,)) in result.counts  # only 1's own self vote


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("投6号", id="dead-seat"),
        pytest.param("投99号", id="no-such-seat"),
        pytest.param("投法官大人", id="judge-name"),
        pytest.param("投路人甲", id="substitute-name"),
    ],
)
def test_target_that_is_not_a_living_player_is_invalid(body):
    result = tally(post(9, 1, body))
    assert reasons(result) == {9: "invalid_target"}
    assert ballot(result, 1).kind == "self"


def test_quoted_vote_never_counts():
    result = tally(post(9, 1, "我再想想", quotes=("投5号",)))
    assert reasons(result) == {9: "no_vote"}
    assert "quoted" in verdict(result, 9).notes
    assert ballot(result, 1).kind == "self"


def test_own_vote_counts_and_quoted_vote_is_ignored():
    result = tally(post(9, 1, "我不跟，投 7号", quotes=("改票：投 5号",)))
    assert ballot(result, 1).target == 7
    assert verdict(result, 9).notes == ()


def test_banned_author_post_is_no_vote():
    result = tally(post(9, 1, "", banned=True))
    assert reasons(result) == {9: "no_vote"}
    assert "banned" in verdict(result, 9).notes


def test_banned_outsider_post_is_not_player():
    result = tally(post(9, "路过的", "加群领福利，投5号送积分", banned=True))
    assert reasons(result) == {9: "not_player"}


@pytest.mark.parametrize("body", ["弃权", "棄權", "弃票", "今天不投"])
def test_abstain_is_a_ballot_for_nobody(body):
    result = tally(post(9, 1, body))
    assert ballot(result, 1) == Ballot(1, "meer", "abstain", None, 9, at("21:00:00"))
    assert verdict(result, 9).verdict == "counted"
    assert all(1 not in c.voters for c in result.counts)
    assert 1 not in {w.seat for w in result.warnings}


# --- edited ballots -----------------------------------------------------------------------


def test_edited_ballot_is_rejected_under_strict():
    result = tally(post(9, 1, "投5号", "20:00:00", edited="20:30"))
    assert reasons(result) == {9: "edited"}
    assert ballot(result, 1).kind == "self"


def test_edited_ballot_is_rejected_by_default():
    result = count_votes(
        [post(9, 1, "投5号", "20:00:00", edited="20:30")],
        ROSTER,
        DEADLINE,
        rules=r12,
        source=SOURCE,
    )
    assert reasons(result) == {9: "edited"}


def test_edited_ballot_keeps_the_earlier_ballot_under_strict():
    result = tally(post(8, 1, "投7号", "19:00:00"), post(9, 1, "投5号", "20:00:00", edited="20:30"))
    assert ballot(result, 1).target == 7
    assert result.changes == ()


def test_edit_before_the_deadline_counts_under_allow():
    result = tally(post(9, 1, "投5号", "20:00:00", edited="21:59"), edits="allow")
    assert reasons(result) == {}
    assert ballot(result, 1).target == 5
    assert result.flags == ()


def test_edit_in_the_deadline_minute_counts_flagged_under_allow():
    result = tally(post(9, 1, "投5号", "20:00:00", edited="22:00"), edits="allow")
    assert ballot(result, 1).target == 5
    assert [(f.floor, f.reason) for f in result.flags] == [(9, "time_ambiguous")]


def test_edit_after_the_deadline_is_rejected_under_allow():
    result = tally(post(9, 1, "投5号", "20:00:00", edited="22:01"), edits="allow")
    assert reasons(result) == {9: "edited"}
    assert ballot(result, 1).kind == "self"


def test_edit_on_a_post_without_a_vote_is_no_vote():
    result = tally(post(9, 1, "再看看", "20:00:00", edited="20:30"))
    assert reasons(result) == {9: "no_vote"}


# --- precedence: the first reason that fits (README, the JSON document) ------------------


def test_reason_codes_are_in_the_design_order_with_additions_last():
    assert REASONS[:10] == (
        "not_player",
        "dead",
        "replaced",
        "late",
        "proxy",
        "no_vote",
        "ambiguous",
        "unknown_target",
        "invalid_target",
        "edited",
    )
    # X: a ballot after the first, then a ballot that says 跟票 or 补票 (docs/rules/x.md);
    # a ballot only in invisible text (README)
    assert REASONS[10:] == ("repeat_ballot", "follow_vote", "hidden_text")


@pytest.mark.parametrize(
    ("the_post", "reason"),
    [
        pytest.param(post(9, "路过的", "投5号", "22:30:00"), "not_player", id="not_player>late"),
        pytest.param(post(9, "路过的", "替3号投5号"), "not_player", id="not_player>proxy"),
        pytest.param(post(9, "路过的", "围观"), "not_player", id="not_player>no_vote"),
        pytest.param(
            post(9, "路过的", "投6号", edited="21:30"), "not_player", id="not_player>edit"
        ),
        pytest.param(post(9, 6, "投5号", "22:30:00"), "dead", id="dead>late"),
        pytest.param(post(9, 6, "替3号投5号"), "dead", id="dead>proxy"),
        pytest.param(post(9, 6, "我死得好冤"), "dead", id="dead>no_vote"),
        pytest.param(post(9, 6, "投6号", edited="21:30"), "dead", id="dead>invalid_target"),
        pytest.param(post(9, "老李", "投5号", "22:30:00"), "replaced", id="replaced>late"),
        pytest.param(post(9, "老李", "替3号投5号", "13:00:00"), "replaced", id="replaced>proxy"),
        pytest.param(post(9, "老李", "投6号", "13:00:00"), "replaced", id="replaced>invalid"),
        pytest.param(post(9, 3, "替4号投5号", "22:00:01"), "late", id="late>proxy"),
        pytest.param(post(9, 3, "来晚了", "22:30:00"), "late", id="late>no_vote"),
        pytest.param(post(9, 3, "投3或者5", "22:01"), "late", id="late>ambiguous"),
        pytest.param(post(9, 3, "投6号", "22:00:01"), "late", id="late>invalid_target"),
        pytest.param(post(9, 3, "投5号", "22:00:01", edited="22:05"), "late", id="late>edited"),
        pytest.param(post(9, 3, "替4号投5号", edited="21:30"), "proxy", id="proxy>edited"),
        pytest.param(post(9, 3, "投1或者5，替4号投5号"), "proxy", id="proxy>ambiguous"),
        pytest.param(post(9, 3, "再看看", edited="21:30"), "no_vote", id="no_vote>edited"),
        pytest.param(post(9, 3, "投1或者5", edited="21:30"), "ambiguous", id="ambiguous>edited"),
        pytest.param(post(9, 3, "投6号或者99号"), "ambiguous", id="ambiguous>invalid_target"),
        pytest.param(post(9, 3, "投张三丰", edited="21:30"), "unknown_target", id="unknown>edited"),
        pytest.param(post(9, 3, "投6号", edited="21:30"), "invalid_target", id="invalid>edited"),
    ],
)
def test_first_reason_that_fits_is_reported(the_post, reason):
    result = tally(the_post)
    assert reasons(result) == {9: reason}
    assert verdict(result, 9).verdict == reason


def test_time_ambiguous_rejection_comes_after_who_wrote_it():
    result = tally(post(9, 6, "投5号", "22:00"), ambiguous_time="reject")
    assert reasons(result) == {9: "dead"}


# --- standing ballots and vote changes ----------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("替4号投7号", id="proxy"),
        pytest.param("投3或者7", id="ambiguous"),
        pytest.param("改投张三丰", id="unknown_target"),
        pytest.param("改投6号", id="invalid_target"),
        pytest.param("再想想要不要改", id="no_vote"),
    ],
)
def test_rejected_post_never_changes_a_standing_ballot(body):
    result = tally(post(10, 1, "投5号", "21:00:00"), post(11, 1, body, "21:30:00"))
    assert ballot(result, 1) == Ballot(1, "meer", "vote", 5, 10, at("21:00:00"))
    assert result.changes == ()
    assert verdict(result, 10).verdict == "counted"


def test_vote_change_replaces_the_ballot():
    result = tally(post(10, 1, "投5号", "21:00:00"), post(12, 1, "改票：投 7号", "21:30:00"))
    assert ballot(result, 1) == Ballot(1, "meer", "vote", 7, 12, at("21:30:00"))
    assert result.changes == (Change(1, 12, 5, 7, at("21:30:00")),)
    assert verdict(result, 10).verdict == "superseded"
    assert verdict(result, 12).verdict == "counted"


def test_change_to_abstain():
    result = tally(post(10, 1, "投5号", "21:00:00"), post(12, 1, "弃权", "21:30:00"))
    assert ballot(result, 1).kind == "abstain"
    assert result.changes == (Change(1, 12, 5, None, at("21:30:00")),)


def test_change_from_abstain():
    result = tally(post(10, 1, "弃权", "21:00:00"), post(12, 1, "投5号", "21:30:00"))
    assert result.changes == (Change(1, 12, None, 5, at("21:30:00")),)


def test_same_vote_again_is_no_change():
    result = tally(post(10, 1, "投5号", "21:00:00"), post(12, 1, "还是投 5，不改", "21:30:00"))
    assert result.changes == ()
    assert ballot(result, 1).floor == 12
    assert [verdict(result, f).verdict for f in (10, 12)] == ["superseded", "counted"]


def test_every_differing_ballot_is_a_change():
    result = tally(
        post(10, 1, "投5号", "20:00:00"),
        post(12, 1, "改投7号", "21:00:00"),
        post(14, 1, "还是再投5号吧", "21:30:00"),
    )
    assert ballot(result, 1).target == 5
    assert result.changes == (
        Change(1, 12, 5, 7, at("21:00:00")),
        Change(1, 14, 7, 5, at("21:30:00")),
    )
    assert [verdict(result, f).verdict for f in (10, 12, 14)] == [
        "superseded",
        "superseded",
        "counted",
    ]


def test_changes_are_listed_by_seat():
    result = tally(
        post(10, 3, "投5号", "20:00:00"),
        post(11, 1, "投5号", "20:10:00"),
        post(12, 3, "改投7号", "20:20:00"),
        post(13, 1, "改投7号", "21:00:00"),
    )
    assert [c.seat for c in result.changes] == [1, 3]


# --- non-voters: self vote and warnings ---------------------------------------------------


def test_non_voter_is_a_self_vote_and_warned():
    posts = [p for p in everyone_votes(5) if p.author != SEATS[3]]
    result = tally(*posts)
    assert ballot(result, 3) == Ballot(3, "老王", "self", 3)
    assert Count(3, "老王", 1, (3,)) in result.counts
    assert result.warnings == (GameWarning(3, "老王", 1, "warn"),)


def test_rejected_posts_leave_a_non_voter():
    result = tally(post(9, 3, "替4号投5号"), post(10, 3, "投3或者5"))
    assert ballot(result, 3).kind == "self"
    assert GameWarning(3, "老王", 1, "warn") in result.warnings


def test_second_warning_hands_the_seat_to_the_next_substitute():
    posts = [p for p in everyone_votes(5) if p.author != SEATS[3]]
    result = tally(*posts, roster=make_roster(warnings={3: 1}))
    assert result.warnings == (GameWarning(3, "老王", 2, "substitute", "路人甲"),)


def test_substitutes_are_handed_out_in_seat_order():
    skipped = {SEATS[7], SEATS[2], SEATS[4]}
    posts = [p for p in everyone_votes(5) if p.author not in skipped]
    result = tally(*reversed(posts), roster=make_roster(warnings={7: 1, 2: 1, 4: 3}))
    assert result.warnings == (
        GameWarning(2, "阿狸", 2, "substitute", "路人甲"),
        GameWarning(4, "小明", 4, "substitute", "路人乙"),
        GameWarning(7, "花生米", 2, "out"),
    )


def test_no_substitute_left_means_out():
    posts = [p for p in everyone_votes(5) if p.author != SEATS[3]]
    result = tally(*posts, roster=make_roster(warnings={3: 1}, substitutes=()))
    assert result.warnings == (GameWarning(3, "老王", 2, "out"),)


def test_a_player_voted_out_is_out_by_the_vote_and_keeps_the_substitute_on_the_bench():
    """1.2 “得票最高者由法官宣布死亡” with “二次换替补，无替补出局”: 3 did not vote, carries a
    warning and is voted out; his second warning brings no substitute — the next non-voter
    with a second warning gets 路人甲 — and he is not drowned (docs/rules/1.2.md)."""
    skipped = {SEATS[3], SEATS[7]}
    posts = [p for p in everyone_votes(3) if p.author not in skipped]
    result = tally(*posts, roster=make_roster(warnings={3: 1, 7: 1}))
    assert result.outcome == Outcome("eliminated", seat=3)
    assert result.warnings == (
        GameWarning(3, "老王", 2, "out"),
        GameWarning(7, "花生米", 2, "substitute", "路人甲"),
    )


def test_a_player_voted_out_with_no_substitute_left_is_out_by_the_vote_once():
    posts = [p for p in everyone_votes(3) if p.author != SEATS[3]]
    result = tally(*posts, roster=make_roster(warnings={3: 1}, substitutes=()))
    assert result.warnings == (GameWarning(3, "老王", 2, "out"),)
    assert result.outcome == Outcome("eliminated", seat=3)


def test_a_first_warning_of_the_player_voted_out_is_a_warning():
    posts = [p for p in everyone_votes(3) if p.author != SEATS[3]]
    assert tally(*posts).warnings == (GameWarning(3, "老王", 1, "warn"),)


def test_carried_warnings_of_a_voter_give_no_new_warning():
    result = tally(*everyone_votes(5), roster=make_roster(warnings={3: 1}))
    assert result.warnings == ()


def test_dead_players_have_no_ballot_and_no_warning():
    result = tally(roster=make_roster(warnings={6: 1}))
    assert [b.seat for b in result.ballots] == list(LIVING)
    assert 6 not in {w.seat for w in result.warnings}


def test_every_living_voter_has_exactly_one_ballot_in_seat_order():
    result = tally(
        post(10, 7, "投5号", "20:00:00"),
        post(11, 2, "投5号", "20:10:00"),
        post(12, 7, "改投1号", "20:20:00"),
        post(13, 6, "投5号", "20:30:00"),
    )
    assert [b.seat for b in result.ballots] == list(LIVING)
    assert targets(result) == {
        1: ("self", 1),
        2: ("vote", 5),
        3: ("self", 3),
        4: ("self", 4),
        5: ("self", 5),
        7: ("vote", 1),
        8: ("self", 8),
    }


# --- counts and outcome -------------------------------------------------------------------


def test_counts_are_sorted_by_votes_then_seat_with_voters_by_seat():
    result = tally(
        post(10, 8, "投5号"),
        post(11, 2, "投5号"),
        post(12, 7, "投1号"),
        post(13, 4, "投1号"),
        post(14, 1, "投3号"),
        post(15, 3, "弃权"),
        post(16, 5, "投2号"),
    )
    assert result.counts == (
        Count(1, "meer", 2, (4, 7)),
        Count(5, "预言家", 2, (2, 8)),
        Count(2, "阿狸", 1, (5,)),
        Count(3, "老王", 1, (1,)),
    )


def test_unique_top_is_eliminated():
    result = tally(*everyone_votes(5), post(200, 5, "改投1号"))
    assert result.outcome == Outcome("eliminated", seat=5)
    assert result.counts[0] == Count(5, "预言家", 6, (1, 2, 3, 4, 7, 8))


def test_several_at_the_top_are_a_tie_with_seats_sorted():
    result = tally(
        post(10, 1, "投7号"),
        post(11, 2, "投7号"),
        post(12, 3, "投2号"),
        post(13, 4, "投2号"),
        post(14, 5, "弃权"),
        post(15, 7, "弃权"),
        post(16, 8, "弃权"),
    )
    assert result.outcome == Outcome("tie", seats=(2, 7))


def test_self_votes_take_part_in_a_tie():
    # Seats 3 and 8 post nothing: one self vote each; seat 5 gets one vote.
    result = tally(
        post(10, 1, "投5号"),
        post(11, 2, "弃权"),
        post(12, 4, "弃权"),
        post(13, 5, "弃权"),
        post(14, 7, "弃权"),
    )
    assert result.outcome == Outcome("tie", seats=(3, 5, 8))


def test_everyone_abstaining_is_no_outcome():
    result = tally(*(post(10 + seat, seat, "弃权") for seat in LIVING))
    assert result.counts == ()
    assert result.outcome == Outcome("none")
    assert result.warnings == ()


# --- rulings (docs/rules/1.2.md, Rulings) -------------------------------------------------


def test_ignore_ruling_does_not_hide_an_outsiders_post_from_the_moderators():
    result = tally(post(5, "路人", "投5号"), rulings={5: Ruling(5, ignore=True)})
    assert reasons(result) == {5: "not_player"}


def test_ignore_ruling_leaves_the_ballot_unchanged():
    result = tally(
        post(10, 1, "投5号", "20:00:00"),
        post(12, 1, "改投7号", "21:00:00"),
        rulings={12: Ruling(12, ignore=True, note="重复发帖")},
    )
    assert verdict(result, 12).verdict == "ignored"
    assert verdict(result, 12).ruling == "不计：重复发帖"
    assert ballot(result, 1).target == 5
    assert result.changes == ()
    assert reasons(result) == {}


def test_target_ruling_reads_an_unreadable_post():
    result = tally(
        post(12, 1, "投那个跳预言家的"),
        rulings={12: Ruling(12, target=5, note="错别字，按 5 号计")},
    )
    assert verdict(result, 12).verdict == "counted"
    assert verdict(result, 12).target == 5
    assert "错别字，按 5 号计" in verdict(result, 12).ruling
    assert ballot(result, 1) == Ballot(1, "meer", "vote", 5, 12, at("21:00:00"))


def test_abstain_ruling():
    result = tally(post(12, 1, "投5号"), rulings={12: Ruling(12, abstain=True)})
    assert ballot(result, 1).kind == "abstain"
    assert verdict(result, 12).ruling == "按弃权计"


def test_ruling_does_not_make_a_late_post_count():
    result = tally(post(12, 1, "投那个人", "22:05:00"), rulings={12: Ruling(12, target=5)})
    assert reasons(result) == {12: "late"}
    assert ballot(result, 1).kind == "self"


@pytest.mark.parametrize(
    ("author", "reason"), [(6, "dead"), ("路过的", "not_player"), ("老李", "replaced")]
)
def test_ruling_does_not_make_a_post_by_a_non_voter_count(author, reason):
    result = tally(post(12, author, "投5号", "21:00:00"), rulings={12: Ruling(12, target=5)})
    assert reasons(result) == {12: reason}
    assert Count(5, "预言家", 1, (5,)) in result.counts  # only 5's own self vote


def test_target_ruling_on_an_edited_post_counts_under_strict():
    result = tally(
        post(12, 1, "投5号", "20:00:00", edited="20:30"), rulings={12: Ruling(12, target=5)}
    )
    assert reasons(result) == {}
    assert ballot(result, 1).target == 5


def test_ruling_overrules_a_banned_post():
    result = tally(post(12, 1, "", banned=True), rulings={12: Ruling(12, target=7)})
    assert ballot(result, 1).target == 7


def test_ruling_for_a_dead_target_is_invalid():
    result = tally(post(12, 1, "投5号"), rulings={12: Ruling(12, target=6)})
    assert reasons(result) == {12: "invalid_target"}


# --- order and shape of the result --------------------------------------------------------


def mixed_thread() -> list[Post]:
    return [
        post(1, JUDGE, "投票开始", "10:00:12"),
        post(2, 1, "投5号", "10:05:33"),
        post(3, 2, "投 7", "10:12:08"),
        post(4, 3, "5号", "10:30:41"),
        post(5, "路过的", "路过，投5号", "11:02:55"),
        post(6, 7, "十二号", "11:20:03"),
        post(7, 4, "弃权", "12:15:49"),
        post(8, 1, "改票：投 7号", "13:40:52"),
        post(9, 3, "替 9 号投 2 号", "17:45:06"),
        post(10, 6, "投 3号", "18:20:47"),
        post(11, 2, "投 6号", "19:05:12"),
        post(12, 5, "投meet", "20:00:00"),
        post(13, 8, "改投1号", "21:59"),
        post(14, 8, "改投7号", "22:00"),
        post(15, 7, "改票：投 7号", "22:00:01"),
        post(16, 5, "投1号", "21:30:00", edited="21:40"),
        post(17, 4, "改投5号", "21:40:00"),
        post(18, 4, "改投5号", "21:40:00"),
    ]


def test_result_carries_its_inputs():
    result = tally(*mixed_thread())
    assert (result.rules, result.round, result.deadline) == ("1.2", 2, DEADLINE)
    assert result.source == SOURCE
    assert result.roster == ROSTER


def test_one_verdict_per_post_in_time_order():
    result = tally(*mixed_thread())
    assert [v.floor for v in result.verdicts] == [*range(1, 13), 16, 17, 18, 13, 14, 15]


def test_mixed_thread_result():
    result = tally(*mixed_thread())
    assert reasons(result) == {
        5: "not_player",
        6: "invalid_target",
        9: "proxy",
        10: "dead",
        11: "invalid_target",
        12: "unknown_target",
        15: "late",
        16: "edited",
    }
    assert targets(result) == {
        1: ("vote", 7),
        2: ("vote", 7),
        3: ("vote", 5),
        4: ("vote", 5),
        5: ("self", 5),
        7: ("self", 7),
        8: ("vote", 7),
    }
    assert result.counts[0] == Count(7, "花生米", 4, (1, 2, 7, 8))
    assert result.outcome == Outcome("eliminated", seat=7)
    assert [(c.seat, c.floor, c.from_, c.to) for c in result.changes] == [
        (1, 8, 5, 7),
        (4, 17, None, 5),
        (8, 14, 1, 7),
    ]
    assert [(f.floor, f.reason) for f in result.flags] == [
        (12, "near_miss"),
        (14, "time_ambiguous"),
    ]
    assert [(w.seat, w.action) for w in result.warnings] == [(5, "warn"), (7, "warn")]


@pytest.mark.parametrize("seed", range(5))
def test_post_order_does_not_matter(seed):
    posts = mixed_thread()
    shuffled = posts[:]
    random.Random(seed).shuffle(shuffled)
    assert tally(*shuffled) == tally(*posts)


def test_posts_at_the_same_second_are_ordered_by_pid():
    result = tally(post(11, 1, "改投7号", "21:00:00"), post(10, 1, "投5号", "21:00:00"))
    assert ballot(result, 1).target == 7
    assert result.changes == (Change(1, 11, 5, 7, at("21:00:00")),)
