"""A game of each rule set, two days in, for the tests of the judge's day: its posts
(opening, provisional count, reminder, 换替补, history), the watch that records, status.

Each game is a real game file (``killmod init``, ``killmod deal --seed 7``), its nights
recorded with ``killmod night`` (the killers kill a player who is not one of them), its
days counted from vote threads served by the tests' local board and recorded with
``killmod tally --record``. Day 1 has a vote change, an abstention, a non-voter and an
invalid ballot; where the set has one, a 动刀 follows the pointing. Player N is ``玩家N``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from killmod.game.store import Game
from killmod.rules import rule_set
from tests.support.forumserver import BaseUrl
from tests.support.gamefiles import (
    alive,
    deadline,
    events,
    new_game,
    night,
    ok,
    run,
    serve,
    tally,
    votes,
)
from tests.support.pagebuilder import SHANGHAI, Site

PLAYERS = {"1.2": 16, "v4": 11, "x": 8, "1.0": 6, "2.0": 12}
KILLER_SIDE = {"杀手", "鬼匪", "被附体匪"}
NIGHT_TARGETS = ("医生", "狙击手", "森林老人", "花蝴蝶", "水民", "平民")
SUBSTITUTES = 'substitutes = ["替补甲"]'


@dataclass
class Played:
    """A game file and what its tests need to go on with it."""

    db: Path
    rules: str
    serve_site: Callable[[Site], BaseUrl]

    @property
    def ruleset(self):
        return rule_set(self.rules, ())

    def killers(self) -> list[int]:
        roster = Game.open(self.db).roster()
        return [p.seat for p in roster.living if p.role in KILLER_SIDE]

    def living(self) -> list[int]:
        return alive(self.db)

    def night(self, round_no: int) -> None:
        """The round's night, if the set has one: the killers kill a non-killer."""
        night_no = self.ruleset.night_of_round(round_no)
        if night_no is None or "kill" not in self.ruleset.night_options:
            return
        roster = Game.open(self.db).roster()
        victim = next(p.seat for role in NIGHT_TARGETS for p in roster.living if p.role == role)
        ok(night(self.db, night_no, "--kill", victim))

    def day_rows(self, round_no: int) -> list:
        """The day's posts: everyone but the target votes the first killer out, one after
        changing his mind, one abstains, one stays silent, one names no player."""
        target = self.killers()[0]
        others = [seat for seat in self.living() if seat != target]
        changer, abstainer, silent, careless = others[:4]
        ballots = {seat: f"投{target}号" for seat in others if seat not in (silent, careless)}
        ballots[abstainer] = "弃权"
        rows = votes("20:00:00", {changer: f"投{others[-1]}号"})
        rows += votes("20:10:00", ballots)
        rows += votes("20:40:00", {careless: "投99号"})
        if self.ruleset.first_stage().phase == "point":
            rows += votes("21:30:00", dict.fromkeys(others, "动刀"))
        return rows

    def vote_url(self, round_no: int) -> str:
        return serve(self.serve_site, self.day_rows(round_no), day=round_no)

    def record_day(self, round_no: int, url: str | None = None) -> None:
        """The day's votes recorded: the vote, or the pointing and the 动刀 on the defender."""
        url = url or self.vote_url(round_no)
        ok(
            tally(
                self.db, url, "--record", "--round", round_no, deadline=deadline(round_no, "21:00")
            )
        )
        following = events(self.db, "day")[-1].data["next"]
        if following is not None and following["kind"] == "knife":
            ok(tally(self.db, url, "--record", "--round", round_no, deadline=deadline(round_no)))


def play(tmp_path: Path, rules: str, serve_site, *, days: int = 1) -> Played:
    """A game of ``rules`` with its first ``days`` days played (nights before each day),
    and the night of the day after."""
    db = new_game(tmp_path, rules, dict.fromkeys(range(1, PLAYERS[rules] + 1)), extra=SUBSTITUTES)
    ok(run("deal", "--db", db, "--seed", 7))
    game = Played(db, rules, serve_site)
    for round_no in range(1, days + 1):
        game.night(round_no)
        game.record_day(round_no)
    game.night(days + 1)
    return game


def shanghai(day: int, hms: str) -> datetime:
    """March ``day`` 2024 at ``hms`` in Shanghai."""
    hour, minute, second = (int(part) for part in hms.split(":"))
    return datetime(2024, 3, day, hour, minute, second, tzinfo=SHANGHAI)
