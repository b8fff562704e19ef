"""The checks that decide whether a step may be recorded, each with what is expected instead.

Every recording use case runs them inside its step's transaction (``BEGIN IMMEDIATE``),
so that of two killmod processes recording at once exactly one records and the other is
told why not.  Refusals are ``BadInput`` (exit 2).  The checks of the vote thread itself
(``thread_problems``) refuse a recording and only warn a count: a count harms nothing,
a recording of the wrong thread or deadline would put players out.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import TYPE_CHECKING

from killmod.core.errors import BadInput
from killmod.core.model import GameOver, TallyResult
from killmod.core.times import format_local, local_text
from killmod.game.state import day_goes_on, day_rounds
from killmod.rules import TITLE_MARKS

if TYPE_CHECKING:  # a count from a roster file checks its thread without a game file
    from killmod.fetch.thread import Thread
    from killmod.game.store import Game
    from killmod.rules.base import RuleSet


def refuse_if_over(game: Game) -> None:
    """Nothing more is recorded once the game is over (``killmod undo`` takes steps back)."""
    over = game.events("game_over")
    if over:
        ended = GameOver.from_json(over[-1].data).headline
        raise BadInput(
            f"游戏已经结束（{ended}），不能再记录。要改正结束前的记录，先用 killmod undo 撤销。"
        )


def already_recorded(what: str, recorded_at: str | None, timezone: str) -> BadInput:
    """The refusal to record ``what`` again without ``--replace`` (the old record is kept);
    when it was recorded is said in the game's time zone (``timezone``)."""
    when = f"（{local_text(recorded_at, timezone)} 记录）" if recorded_at else ""
    return BadInput(f"{what}已经记录过{when}。要重新记录请加 --replace，旧记录会保留在事件记录里。")


# --- which round comes next ----------------------------------------------------------------


DAY_SKIPPED = "day_skipped"


def next_day(game: Game) -> int:
    """The round whose day comes next: the last night's round, the last day's if another
    vote of it is to come, or the one after the last day (a judge's decision that took
    the place of the vote, X 认匪, is the day's)."""
    days = day_rounds(game)
    nights = {event.round for event in game.events("night")}
    latest = max(days | nights, default=0)
    if (latest in nights and latest not in days) or day_goes_on(game, latest):
        return latest
    return latest + 1


def expect_day(game: Game, round_no: int, *, replacing: bool) -> None:
    """Only the next round's day is recorded; only the latest recorded day again."""
    days = sorted({event.round for event in game.events("day")})
    if replacing and round_no in days:
        later = [e.round for e in game.events() if e.kind in ("day", "night") and e.round]
        after = sorted({number for number in later if number > round_no})
        if after:
            raise BadInput(
                f"第 {after[-1]} 轮已经有记录，只能重新记录最近的一轮（第 {after[-1]} 轮）；"
                f"要改第 {round_no} 轮，先用 killmod undo 一步步撤销到它。"
            )
        return
    expected = next_day(game)
    played = [e for e in game.events() if e.kind in ("day", "night")]
    if round_no == expected or (not played and started_in_progress(game)):
        return
    skipped = skipped_days(game)
    if round_no < expected and round_no in skipped:
        raise BadInput(
            f"第 {round_no} 轮的白天已经跳过（记录{skipped[round_no]}时加了 --skip-day），"
            f"下一轮要记录的是第 {expected} 轮；要补记它的投票，先用 killmod undo 撤销到那一夜。"
        )
    if round_no < expected and round_no not in days and round_no in day_rounds(game):
        raise BadInput(
            f"第 {round_no} 轮的白天已由法官判定结束（认匪，不用投票出局），没有投票要记录；"
            f"下一轮要记录的是第 {expected} 轮。"
        )
    if round_no < expected:
        raise BadInput(
            f"第 {round_no} 轮的投票已经记录过，下一轮要记录的是第 {expected} 轮。"
            f"要重新记录第 {round_no} 轮请加 --replace（只能是最近的一轮），或先用 killmod undo。"
        )
    raise BadInput(
        f"下一轮要记录的是第 {expected} 轮，不是第 {round_no} 轮：轮次不能跳过。"
        f"请用 --round {expected}（或不写 --round）。"
    )


def expect_night(game: Game, rules: RuleSet, night_no: int, *, skip_day: bool = False) -> int:
    """The next night: the night of the round after the latest recorded one, once that
    round's day is over; returns its round.

    A round whose night is recorded and whose day is not has its day still to come: the
    next night is refused until the day's vote is recorded, or the judge decides to skip
    the day (``skip_day``, ``night --skip-day``: recorded with the night, undone with it).
    Recording a night again is for its own round (the caller checks it is the latest step).
    """
    round_no = rules.round_of_night(night_no)
    nights = {event.round for event in game.events("night")}
    if round_no in nights:
        if skip_day:
            raise BadInput(
                f"--skip-day 只用于记录新的一夜：{rules.night_name(night_no)}已经记录过。"
            )
        return round_no  # recorded already: the caller refuses it, or replaces it
    days = {event.round for event in game.events("day")}
    latest = max(days | nights, default=0)
    name = rules.night_name(night_no)
    if latest == 0 and started_in_progress(game):
        return round_no
    if day_goes_on(game, latest):
        raise BadInput(
            f"第 {latest} 轮的白天还没有结束（还有投票，或平票还没有抽签），不能记录{name}："
            "先记录白天的结果（killmod status 说下一步做什么）。"
        )
    tied = tie_waiting(game) if rules.lottery else None
    if tied is not None:
        raise BadInput(
            f"第 {tied} 轮平票还没有抽签，不能记录{name}：平票的出局者由抽签决定，在夜晚之前。"
            f"先抽签（killmod lottery make --round {tied}，抽出后 killmod lottery reveal）。"
        )
    first = rules.round_of_night(rules.first_night)
    if round_no != max(latest + 1, first):
        expected = max(latest + 1, first)
        number = expected - 1 + rules.night_base
        raise BadInput(
            f"下一个要记录的夜晚是{rules.night_name(number)}（killmod night --round {number}），"
            f"不是{name}：夜晚不能跳过，也不能补记已经过去的轮次。"
        )
    pending = pending_day(game)
    if pending is not None and not skip_day:
        raise BadInput(
            f"第 {pending} 轮白天的投票还没有记录{_opened(game, pending)}，不能记录{name}："
            f"先记录投票（killmod tally 投票帖 --record --round {pending}）。"
            f"确实不投票、直接进入夜晚，加 --skip-day：这个决定和{name}一起记录，可以 undo。"
        )
    if pending is None and skip_day:
        raise BadInput(f"没有待记录的白天投票可以跳过：{name}不用加 --skip-day。")
    return round_no


def tie_waiting(game: Game) -> int | None:
    """The round whose tie (its last recorded vote) still waits for its lottery's result."""
    events = game.events()
    last_votes = {e.round: e for e in events if e.kind == "day"}
    ties = {n for n, e in last_votes.items() if e.data.get("outcome") == "tie"}
    drawn = {e.round for e in events if e.kind == "lottery_reveal"}
    waiting = sorted(ties - drawn)
    return waiting[-1] if waiting else None


def pending_day(game: Game) -> int | None:
    """The round whose night is recorded and whose day is not (nor skipped, nor ended by
    the judge's decision): its day is still to come before the next night."""
    nights = {event.round for event in game.events("night")}
    if not nights:
        return None
    latest = max(nights | day_rounds(game))
    if latest in nights and latest not in day_rounds(game) and latest not in skipped_days(game):
        return latest
    return None


def skipped_days(game: Game) -> dict[int, str]:
    """The rounds whose day the judge skipped (``night --skip-day``), with the name of the
    night recorded after each."""
    return {event.round: event.data["name"] for event in game.events(DAY_SKIPPED)}


def _opened(game: Game, round_no: int) -> str:
    """``（投票帖已开，截止 …）`` when the round's vote was opened (``killmod open``)."""
    opened = [e for e in game.events("vote_opened") if e.round == round_no]
    if not opened:
        return ""
    shown = local_text(opened[-1].data["deadline"], game.roster().timezone)
    return f"（killmod open 已开投票，截止 {shown}）"


def started_in_progress(game: Game) -> bool:
    """Whether the roster set up a game already under way (players out, earlier holders,
    carried warnings): then the first round recorded may be any round."""
    if any(not player.alive for player in game.initial_players()):
        return True
    from killmod.game.store import INIT

    init = [step.id for step in game.steps() if step.kind == INIT]
    return bool(init) and any(event.step == init[0] for event in game.events())


def refuse_unless_latest(game: Game, step_id: int | None, what: str, latest: str) -> None:
    """A record may be recorded again only when no other step came after its step
    (``latest`` names what may be: 一夜, 一轮)."""
    from killmod.game.store import UNDO

    later = [step for step in game.steps() if step.id > (step_id or 0) and step.kind != UNDO]
    if later:
        raise BadInput(
            f"{what}之后已经记录了别的步骤（{later[0].title}）：只能重新记录最近的{latest}；"
            "要改它，先用 killmod undo 一步步撤销到它。"
        )


def require_dealt(game: Game) -> None:
    """A night is resolved by the roles: they must be dealt (or written in the roster)."""
    missing = [player.seat for player in game.roster().players if player.role is None]
    if missing:
        raise BadInput(
            "还没有发身份，不能记录夜晚："
            f"{'、'.join(f'{seat}号' for seat in missing)}没有身份。"
            "先 killmod deal 发身份（或在名单里写 role）。"
        )


# --- the recorded tally --------------------------------------------------------------------


def refuse_early(deadline: datetime, now: datetime, *, early: bool) -> bool:
    """A final record is made after the deadline; before it only with ``--early``.

    Returns whether the record is early (then the record and the post say so).
    """
    if now >= deadline:
        return False
    if early:
        return True
    zone = deadline.tzinfo
    raise BadInput(
        f"截止时间 {format_local(deadline, zone)} 还没到（现在 {format_local(now, zone)}）："
        "截止后再记录。"
        "确实要提前记录（比如所有人都已投票），加 --early，记录和公告都会注明“提前计票”。"
    )


def refuse_same_thread(game: Game, round_no: int, snapshot: str, source: str) -> None:
    """A thread the game file knows as the game thread or another round's vote thread
    (whatever address names it), or the same snapshot as another round (a saved copy)."""
    from killmod.game.threads import refuse_other_part

    refuse_other_part(game, source, round_no)
    for row in game.tallies():
        if row["round"] != round_no and row["snapshot_sha256"] == snapshot:
            raise BadInput(
                f"这份投票帖快照（SHA-256 {snapshot[:16]}…）已经作为第 {row['round']} 轮记录过："
                "投票帖或轮次弄错了？同一份投票不能记录成两轮。"
            )


def thread_problems(thread: Thread, result: TallyResult) -> list[str]:
    """What says the thread or the deadline is not this vote's (each a Chinese sentence).

    The thread opening after the deadline, every player's post after it (a wrong date),
    no post by any player of the roster (a wrong roster or game file).
    """
    if not thread.posts:
        return []
    deadline = result.deadline
    opening = min(thread.posts, key=lambda post: post.posted_at)
    problems = []

    def shown(moment: datetime) -> str:
        return format_local(moment, deadline.tzinfo)

    if opening.posted_at > deadline:
        problems.append(
            f"投票帖的第一个帖子（{_where(opening.floor)}，{shown(opening.posted_at)}）"
            f"在截止时间 {shown(deadline)} 之后：截止时间或投票帖不对？"
        )
    players = [v for v in result.verdicts if v.seat is not None]
    if not players:
        problems.append(
            f"投票帖里 {len(thread.posts)} 个帖子没有一个是名单上的玩家发的："
            "名单或游戏文件（--db）不对，还是投票帖不对？"
        )
    elif opening.posted_at <= deadline and all(v.posted_at > deadline for v in players):
        first = min(players, key=lambda v: v.posted_at)
        problems.append(
            f"玩家的 {len(players)} 个帖子都在截止时间 {shown(deadline)} 之后"
            f"（最早的是 {_where(first.floor)}，{shown(first.posted_at)}）："
            "截止时间的日期不对？"
        )
    return problems


def thread_rules(title: str | None) -> str | None:
    """The one rule set a vote thread's title names (1.2, V4.0, X游戏, 1.0, 2.0), if any."""
    if not title:
        return None
    text = unicodedata.normalize("NFKC", title)
    named = [rules for rules, mark in TITLE_MARKS.items() if mark.search(text)]
    return named[0] if len(named) == 1 else None


def refuse_other_rules(title: str | None, rules: str, path: object) -> None:
    """A game file of one rule set is not used on a vote thread titled with another."""
    named = thread_rules(title)
    if named is not None and named != rules:
        raise BadInput(
            f"投票帖标题「{title}」写的是 {named} 规则，游戏文件 {path} 是 {rules} 规则："
            "用错了游戏文件（--db），还是投票帖不对？游戏文件没有改动。"
        )


def _where(floor: int | None) -> str:
    return f"{floor}楼" if floor is not None else "楼层不明"
