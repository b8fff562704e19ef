"""Reading ballots, the tally's hot path: posts read per second, beside the floor.

    .venv/bin/python -m bench.ballots [--posts N] [--runs R]

(run from the repository's folder, like ``bench.run``)

A 16-seat roster named as a real board's players are (a traditional name, long names
players shorten, latin names, nicknames as aliases) and N posts (default 5,000, all
different, as a long thread's are) written as they write: long Chinese talk with
``vote:`` at its end or start, ``## vote``, bold, parts of names, nicknames, an unvote,
plain ``投5号``.  Timed, in turns, R times each (default 7), reported as the median and
the range:

- ``floor``: what any reader must do with each post — fold it (width, case, traditional
  as simplified, ``killmod.core.names.fold``, its cache cleared as a long thread clears
  it) and find where a vote could start (the cue regular expression, once over the post);
- ``read``: ``BallotReader.read`` of every post (fold included, its cache cleared the same);
- ``roster``: making the reader for the roster (the names' regular expression and the
  table of every part of a living player's name or alias), once per tally.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from killmod.ballots.votes import VOTE, BallotReader
from killmod.core import names
from killmod.core.model import Player, Roster
from killmod.core.names import fold
from tests.support.realnames import REAL_NAMES

NAMES = REAL_NAMES
ALIASES = {5: ("kp",), 6: ("鱼",), 12: ("汤米",)}
TALK = (
    "昨晚兵长倒了，我把今天的发言从头到尾看了一遍。红叶子一直在划水，sakyas的站边前后矛盾，"
    "但最奇怪的还是ako：上午说相信兵长，下午又说兵长像杀手，这种摇摆我很难理解。"
)
BALLOTS = (
    "vote:ako",
    "vote：欧逆酱",
    "## vote 红叶晚",
    "＃＃vote:saky",
    "<b>vote: kingpin</b>",
    "[b]vote: 紅葉晚瀟瀟[/b]",
    "vote:ako希望你是兵长",
    "unvote: sakyas ## vote：老王",
    "投5号",
    "vote kp",
    "跟票4号",
    "## vote 红叶",
)


def roster() -> Roster:
    players = tuple(
        Player(seat, name, aliases=ALIASES.get(seat, ())) for seat, name in NAMES.items()
    )
    return Roster(players=players, judges=("法官",), substitutes=("替补甲",))


def posts(count: int) -> list[str]:
    """``count`` different posts: talk of varied length with a ballot in it, or a bare one."""
    rng = random.Random(27)
    made = []
    for n in range(count):
        ballot = BALLOTS[n % len(BALLOTS)]
        talk = TALK[: rng.randrange(0, len(TALK))] + f"（第{n}楼）"
        made.append(rng.choice((talk + ballot, ballot + "\n" + talk, ballot + f" #{n}")))
    return made


def forget() -> None:
    """Empty the folded texts' cache, as the posts of a long thread do (4,096 kept)."""
    clear = getattr(names, "_forms", fold).cache_clear  # ``fold`` itself before issue 27
    clear()


def timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    texts, players = posts(args.posts), roster()
    reader = BallotReader(players)
    fold("歐")  # OpenCC's dictionaries load once per command, not per post

    def floor() -> None:
        forget()
        for text in texts:
            VOTE.cue.search(fold(text))

    def read() -> None:
        forget()
        for text in texts:
            reader.read(text)

    def build() -> None:
        BallotReader(players)

    stages = {"floor": floor, "read": read, "roster": build}
    runs: dict[str, list[float]] = {name: [] for name in stages}
    for _ in range(args.runs):  # in turns, so that a slow moment of the machine hits all
        for name, stage in stages.items():
            runs[name].append(timed(stage))
    median = {name: statistics.median(seconds) for name, seconds in runs.items()}
    for name in ("floor", "read"):
        low, high = min(runs[name]), max(runs[name])
        rate = args.posts / median[name]
        print(
            f"{name}: {median[name] * 1000:.1f} ms for {args.posts} posts "
            f"(range {low * 1000:.1f}–{high * 1000:.1f} ms), {rate:,.0f} posts/s, "
            f"{median[name] / args.posts * 1e6:.1f} µs a post"
        )
    print(f"read / floor: {median['read'] / median['floor']:.2f}")
    low, high = min(runs["roster"]), max(runs["roster"])
    print(
        f"roster: {median['roster'] * 1000:.2f} ms to make the reader "
        f"(range {low * 1000:.2f}–{high * 1000:.2f} ms), "
        f"{len(BallotReader(players)._parts)} parts of names in its table"
    )


if __name__ == "__main__":
    main()
