"""Properties of the ballot reader and the 1.2 tally, over random posts, rosters and pages.

Hypothesis generates rosters (3–14 seats, some dead), posts (players, the judge and
outsiders; before and after the deadline; second or minute precision; edited, banned,
quoted; bodies from the ballot grammar mixed with any Unicode text) and checks what must
hold for every tally:

- any Unicode text is read without an exception, into one of the known readings;
- every entitled voter (living player) has exactly one ballot, in seat order;
- the counts add up to the voters minus the abstainers, each self vote counted for the
  voter's own seat, and every count's voters are exactly the ballots for it;
- a rejected post never changes a standing ballot (removing every rejected post changes
  nothing);
- the order posts arrive in (and the order pages were fetched in) never changes the result;
- a post after the deadline never changes the result.

Runs are deterministic (``derandomize``) and bounded (200 examples each).
"""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from killmod.ballots.count import REASONS, count_votes
from killmod.ballots.votes import BallotReader
from killmod.core.model import Page, Player, Post, Roster, Source
from killmod.fetch.whole import assemble
from killmod.rules import rule_set

SHANGHAI = ZoneInfo("Asia/Shanghai")
DEADLINE = datetime(2019, 5, 12, 22, 0, 0, tzinfo=SHANGHAI)
RULES = rule_set("1.2")
SOURCE = Source("vote-thread", "投票帖", 1, 0)
JUDGE = "法官大人"
OUTSIDERS = ("路过的", "广告机器人")
NAMES = (
    "meer",
    "阿狸",
    "路人甲",
    "狼人杀手",
    "预言家本家",
    "潜水员",
    "花生米",
    "闲云野鹤",
    "小明",
    "Tommy",
    "星期八",
    "白开水",
    "夜猫子",
    "老王",
)

# Property tests: run by CI and the full suite, left out of the inner loop (-m "not slow").
pytestmark = pytest.mark.slow

READINGS = {"vote", "abstain", "proxy", "none", "ambiguous", "unknown_target"}
REJECTIONS = {*REASONS, "time_ambiguous", "judge", "ignored"}

FAST = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# --- strategies -----------------------------------------------------------------------------------


@st.composite
def rosters(draw) -> Roster:
    size = draw(st.integers(min_value=3, max_value=len(NAMES)))
    alive = draw(st.lists(st.sampled_from((True, True, True, False)), min_size=size, max_size=size))
    players = tuple(
        Player(
            seat=seat,
            name=NAMES[seat - 1],
            uid=1000 + seat,
            alive=alive[seat - 1] or seat == 1,  # someone is alive
        )
        for seat in range(1, size + 1)
    )
    warned = draw(st.dictionaries(st.integers(1, size), st.integers(0, 1), max_size=3))
    return Roster(
        players=players,
        judges=(JUDGE,),
        substitutes=tuple(draw(st.lists(st.sampled_from(("替补甲", "替补乙")), max_size=2))),
        warnings={seat: n for seat, n in warned.items() if n},
    )


@functools.cache
def ballot_texts(names: tuple[str, ...]) -> st.SearchStrategy[str]:
    """What players write: the ballot grammar, chatter, and any Unicode at all."""
    seats = st.integers(min_value=0, max_value=len(names) + 2)
    grammar = st.one_of(
        seats.map(lambda n: f"投{n}号"),
        seats.map(lambda n: f"{n}号"),
        seats.map(lambda n: f"改票：投 {n}号"),
        st.sampled_from(names).map(lambda name: f"投给 {name}"),
        st.sampled_from(names),
        st.sampled_from(("弃权", "弃票", "不投", "棄權", "还没想好，再看看", "投我自己")),
        st.tuples(seats, seats).map(lambda t: f"投{t[0]}号或者{t[1]}号"),
        st.tuples(seats, seats).map(lambda t: f"替 {t[0]} 号投 {t[1]} 号"),
    )
    chatter = st.one_of(st.text(max_size=20), st.tuples(grammar, st.text(max_size=6)).map("".join))
    return st.one_of(grammar, grammar, grammar, chatter)


@st.composite
def posts_for(draw, roster: Roster, *, late: bool = False) -> list[Post]:
    """Posts of the vote thread: ``late`` gives only posts after the deadline.

    The bodies are drawn by Hypothesis (they are what the reader must survive); the rest
    of each post (author, time, precision, edit, ban) by a Random it draws, to keep the
    generation fast.
    """
    count = draw(st.integers(min_value=0, max_value=16))
    bodies = draw(
        st.lists(
            ballot_texts(tuple(p.name for p in roster.players)), min_size=count, max_size=count
        )
    )
    rng = draw(st.randoms(use_true_random=False))
    authors = [(p.name, p.uid) for p in roster.players] + [(JUDGE, 1)]
    authors += [(name, 3000 + i) for i, name in enumerate(OUTSIDERS)]
    # a few players write most posts: vote changes and superseded ballots
    active = rng.sample([(p.name, p.uid) for p in roster.living], min(3, len(roster.living)))
    posts = []
    for pid, body in zip(rng.sample(range(1, 10**6), count), bodies, strict=True):
        author, uid = rng.choice(active if rng.random() < 0.6 else authors)
        offset = rng.randint(1, 3600) if late else rng.randint(-4 * 3600, 600)
        precision = rng.choice(("second", "minute"))
        posted_at = DEADLINE + timedelta(seconds=offset)
        if precision == "minute":
            posted_at = posted_at.replace(second=0)
            if late:  # a minute shown after the deadline's own minute
                posted_at = max(posted_at, DEADLINE + timedelta(minutes=1))
        edited = rng.random() < 0.15
        posts.append(
            Post(
                pid=pid,
                floor=None,
                author=author,
                uid=rng.choice((uid, uid, None)),
                posted_at=posted_at,
                precision=precision,
                body=body,
                quotes=(rng.choice(bodies),) if rng.random() < 0.1 else (),
                edited_at=posted_at + timedelta(seconds=rng.randint(0, 600)) if edited else None,
                banned=rng.random() < 0.05,
            )
        )
    posts.sort(key=lambda post: post.pid)
    return [replace(post, floor=floor) for floor, post in enumerate(posts, start=2)]


@st.composite
def games(draw):
    roster = draw(rosters())
    return roster, draw(posts_for(roster))


def tally(posts, roster):
    return count_votes(posts, roster, DEADLINE, rules=RULES, source=SOURCE)


def decided(result):
    """What a tally decides (everything but its list of rejected posts and verdicts)."""
    return (
        result.ballots,
        result.counts,
        result.outcome,
        result.changes,
        result.warnings,
        result.flags,
    )


# --- the ballot reader ----------------------------------------------------------------------------


@FAST
@given(st.text(), rosters())
def test_any_unicode_text_is_read_without_an_exception(text, roster):
    reading = BallotReader(roster).read(text)
    assert reading.kind in READINGS


@FAST
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=400))
def test_any_long_text_is_read_without_an_exception(text):
    roster = Roster(
        players=tuple(Player(seat, name, uid=seat) for seat, name in enumerate(NAMES, 1)),
        judges=(JUDGE,),
        substitutes=("替补甲",),
    )
    reading = BallotReader(roster).read(text)
    assert reading.kind in READINGS
    if reading.kind == "vote" and reading.target is not None:
        assert reading.target >= 0


# --- the tally ------------------------------------------------------------------------------------


@FAST
@given(games())
def test_every_entitled_voter_has_exactly_one_ballot(game):
    roster, posts = game
    result = tally(posts, roster)
    living = sorted(p.seat for p in roster.players if p.alive)
    assert [b.seat for b in result.ballots] == living
    for ballot in result.ballots:
        assert ballot.kind in ("vote", "abstain", "self")
        if ballot.kind == "vote":
            assert roster.seat(ballot.target).alive  # only a living player can be voted for
        if ballot.kind == "self":
            assert ballot.target == ballot.seat and ballot.floor is None


@FAST
@given(games())
def test_counts_add_up_to_the_voters_minus_the_abstainers(game):
    roster, posts = game
    result = tally(posts, roster)
    abstainers = [b for b in result.ballots if b.kind == "abstain"]
    assert sum(c.votes for c in result.counts) == len(result.ballots) - len(abstainers)
    voters = {c.seat: sorted(c.voters) for c in result.counts}
    expected: dict[int, list[int]] = {}
    for ballot in result.ballots:
        if ballot.kind != "abstain":
            expected.setdefault(ballot.target, []).append(ballot.seat)
    assert voters == {seat: sorted(seats) for seat, seats in expected.items()}
    for count in result.counts:
        assert count.votes == len(count.voters)
    # a self vote is counted, for the voter's own seat, and brings a warning
    selves = [b.seat for b in result.ballots if b.kind == "self"]
    for seat in selves:
        assert seat in voters[seat]
    assert [w.seat for w in result.warnings] == selves
    # the outcome is the unique top of the counts
    top = [c.seat for c in result.counts if c.votes == result.counts[0].votes] if voters else []
    if not top:
        assert result.outcome.kind == "none"
    elif len(top) == 1:
        assert (result.outcome.kind, result.outcome.seat) == ("eliminated", top[0])
    else:
        assert (result.outcome.kind, result.outcome.seats) == ("tie", tuple(sorted(top)))


@FAST
@given(games())
def test_a_rejected_post_never_changes_a_standing_ballot(game):
    roster, posts = game
    result = tally(posts, roster)
    rejected = {v.pid for v in result.verdicts if v.verdict in REJECTIONS}
    kept = [post for post in posts if post.pid not in rejected]
    assert decided(tally(kept, roster))[:5] == decided(result)[:5]
    # and every post has exactly one verdict
    assert sorted(v.pid for v in result.verdicts) == sorted(post.pid for post in posts)


@FAST
@given(games(), st.randoms(use_true_random=False))
def test_the_order_posts_arrive_in_never_changes_the_result(game, rng):
    roster, posts = game
    shuffled = list(posts)
    rng.shuffle(shuffled)
    assert tally(shuffled, roster) == tally(posts, roster)


@FAST
@given(games(), st.integers(min_value=1, max_value=6), st.randoms(use_true_random=False))
def test_the_order_pages_were_fetched_in_never_changes_the_thread(game, per_page, rng):
    roster, posts = game
    chunks = [posts[i : i + per_page] for i in range(0, len(posts), per_page)] or [[]]
    pages = [
        Page(tuple(chunk), page_no=n, page_count=len(chunks), title="投票帖" if n == 1 else None)
        for n, chunk in enumerate(chunks, start=1)
    ]
    pages.append(pages[-1])  # a page number past the end is answered with the last page
    reference = assemble("vote-thread", pages, "discuz_x", str)
    fetched = list(pages)
    rng.shuffle(fetched)
    thread = assemble("vote-thread", fetched, "discuz_x", str)
    assert thread == reference
    assert thread.posts == tuple(sorted(posts, key=lambda post: post.pid))
    assert tally(thread.posts, roster) == tally(posts, roster)


@FAST
@given(st.data())
def test_a_post_after_the_deadline_never_changes_the_result(data):
    roster, posts = data.draw(games())
    late = data.draw(posts_for(roster, late=True))
    taken = {post.pid for post in posts}
    late = [replace(post, pid=post.pid + 2 * 10**6) for post in late if post.pid not in taken]
    before = tally(posts, roster)
    mixed = posts + late
    random.Random(len(mixed)).shuffle(mixed)
    after = tally(mixed, roster)
    assert decided(after) == decided(before)
    verdicts = {v.pid: v.verdict for v in after.verdicts}
    for post in late:
        assert verdicts[post.pid] in ("late", "judge", "not_player", "dead")
