"""Every registered rule set through one interface and through the same commands: a new
game, the deal, days, nights, a win.

One driver for all of them, as OpenSpiel runs every game through one API: it knows
nothing of a set but what its ``RuleSet`` says — whether the day's vote leads to a
动刀 (``day``'s next stage), which night the round has (``night_of_round``) and its
options. Each day the players vote a killer out; each night the killers kill one
player who is not one of them; the good side must win. A set registered in
``killmod.rules.RULE_SETS`` is driven here with nothing else to add but its size.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from killmod.core.model import Outcome, Player, Roster
from killmod.game.store import Game
from killmod.rules import RULE_SETS, SPELLINGS, TITLE_MARKS, TITLES, registered, rule_set
from killmod.rules.base import NightChoice, RuleSet
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

PLAYERS = {"1.2": 16, "v4": 11, "x": 8, "1.0": 6, "2.0": 12}
GAMES = [(name, ()) for name in RULE_SETS] + [("2.0", ("ghost",))]
KILLER_SIDE = {"杀手", "鬼匪", "被附体匪"}
GOOD_WINNERS = {"好人", "平民阵营", "警民", "平民"}
# Whom the killers kill at night: a player whose death cannot end the game for them
# (V4.0's civilians all out is a loss of the 平民阵营, so its night takes a special role).
NIGHT_TARGETS = ("医生", "狙击手", "森林老人", "花蝴蝶", "水民", "平民")


def test_every_rule_set_is_registered_here():
    assert set(PLAYERS) == set(RULE_SETS)
    assert [ruleset.NAME for ruleset in registered()] == list(RULE_SETS)
    assert all(isinstance(ruleset, RuleSet) for ruleset in registered())
    # the registry's tables name every set: how judges spell it, write it, title a thread
    assert set(TITLES) == set(TITLE_MARKS) == set(SPELLINGS.values()) == set(RULE_SETS)


@pytest.mark.parametrize(
    ("rules", "variants"), GAMES, ids=["+".join((rules, *variants)) for rules, variants in GAMES]
)
def test_a_whole_game_through_the_interface(rules, variants):
    ruleset = rule_set(rules, variants)
    seats = range(1, PLAYERS[rules] + 1)
    assert ruleset.table_row(PLAYERS[rules])["players"] == PLAYERS[rules]
    roles = ruleset.deal(seats, random.Random(7))
    assert sorted(roles) == list(seats)
    assert set(roles.values()) <= set(ruleset.ROLES)
    players = tuple(Player(seat, f"p{seat}", role=roles[seat]) for seat in seats)
    roster = Roster(players, rules=rules, variants=variants)
    state = roster if ruleset.state_is_roster else ruleset.start(players)
    over = None
    for round_no in range(1, PLAYERS[rules]):
        night_no = ruleset.night_of_round(round_no)
        if night_no is not None:
            choice = NightChoice(kill=night_target(roster, ruleset))
            play = ruleset.night(state, choice, night_no)
            assert play.document["schema"] == "killmod.night/1"
            assert ruleset.dawn_document(night_no, play)["out"] == list(play.out)
            roster, state = out(ruleset, roster, play.state, play.out)
            over = ruleset.verdict(state)
            if over:
                break
        roster, state = interface_day(ruleset, roster, state, round_no)
        over = ruleset.verdict(state)
        if over:
            break
    assert over is not None and over.winner in GOOD_WINNERS, over
    assert not [p for p in roster.living if p.role in KILLER_SIDE]


def night_target(roster: Roster, ruleset: RuleSet) -> int | None:
    """A living player whose death cannot end the game for the killers (None: no kill)."""
    if "kill" not in ruleset.night_options:
        return None
    for role in NIGHT_TARGETS:
        for player in roster.living:
            if player.role == role:
                return player.seat
    raise AssertionError("nobody left to kill")


def interface_day(ruleset: RuleSet, roster: Roster, state, round_no: int):
    """Everyone votes the first living killer out; a 动刀 follows if the set asks for it."""
    target = next(p.seat for p in roster.living if p.role in KILLER_SIDE)
    stage = ruleset.first_stage()
    step = ruleset.day(state, stage, Outcome("eliminated", seat=target), round_no, None)
    if step.next is not None:
        assert step.next.kind == "knife" and step.next.defender == target
        living = [p.seat for p in roster.living]
        ballots = {seat: "knife" for seat in living if seat != target}
        knife = ruleset.count_knives(ballots, living, target)
        outcome = Outcome("eliminated", seat=target)
        step = ruleset.day(state, step.next, outcome, round_no, knife)
    assert step.out == (target,) and step.next is None
    return out(ruleset, roster, ruleset.vote_out(state, step.voted, round_no).state, step.out)


def out(ruleset: RuleSet, roster: Roster, state, seats: tuple[int, ...]):
    """The roster with ``seats`` out, and the set's state (the roster itself, for 1.2)."""
    players = tuple(replace(p, alive=p.alive and p.seat not in seats) for p in roster.players)
    roster = replace(roster, players=players)
    return roster, roster if ruleset.state_is_roster else state


@pytest.mark.parametrize(
    ("rules", "variants"), GAMES, ids=["+".join((rules, *variants)) for rules, variants in GAMES]
)
def test_a_whole_game_through_the_same_commands(rules, variants, tmp_path, serve_site):
    extra = f"variants = {list(variants)!r}".replace("'", '"') if variants else ""
    db = new_game(tmp_path, rules, dict.fromkeys(range(1, PLAYERS[rules] + 1)), extra=extra)
    assert ok(run("rules", rules, "--players", PLAYERS[rules]))
    ok(run("deal", "--db", db, "--seed", 7, "--notices", tmp_path / "notices"))
    ruleset = rule_set(rules, variants)
    for round_no in range(1, PLAYERS[rules]):
        night_no = ruleset.night_of_round(round_no)
        if night_no is not None:
            ok(night(db, night_no, *night_options(db, ruleset)))
        if events(db, "game_over"):
            break
        play_day(db, round_no, serve_site)
        if events(db, "game_over"):
            break
    (over,) = events(db, "game_over")
    assert over.data["winner"] in GOOD_WINNERS, over.data
    assert "游戏已结束" in ok(run("status", "--db", db))
    assert not killers(db)


def killers(db) -> list[int]:
    roster = Game.open(db).roster()
    return [p.seat for p in roster.living if p.role in KILLER_SIDE]


def night_options(db, ruleset) -> list[object]:
    """The night's required choices: a kill of a player who is not a killer."""
    if "kill" not in ruleset.night_options:
        return []
    roster = Game.open(db).roster()
    for role in NIGHT_TARGETS:
        for player in roster.living:
            if player.role == role:
                return ["--kill", player.seat]
    raise AssertionError("nobody left to kill")


def play_day(db, round_no: int, serve_site) -> None:
    """Every other living player votes a killer out; a 动刀 follows if the set asks for it."""
    target = killers(db)[0]
    others = [seat for seat in alive(db) if seat != target]
    rows = votes("20:00:00", dict.fromkeys(others, f"投{target}号"))
    rows += votes("21:30:00", dict.fromkeys(others, "动刀"))
    url = serve(serve_site, rows, day=round_no)
    ok(tally(db, url, "--record", "--round", round_no, deadline=deadline(round_no, "21:00")))
    following = events(db, "day")[-1].data["next"]
    if following is not None:
        assert following["kind"] == "knife" and following["defender"] == target
        ok(tally(db, url, "--record", "--round", round_no, deadline=deadline(round_no, "22:00")))
    assert target not in alive(db)
