"""Whole games through the commands, for the tests that no public output tells a secret.

``play`` runs a game of a rule set on a real game file, following ``killmod status``'s
next step: the deal, every night with the set's options (targets drawn by a ``Chooser``),
every vote of every day on saved vote-thread pages (ballots, 弃权, chatter; 动刀 and 过 in a
knife phase), ties by lot or re-vote, a 2.0 killer's suicide, and ``tally`` in every format,
``status``, ``lurkers`` and ``audit`` along the way.  It plays *twins*: the same game on two
files, the second with night actions that change nothing anyone may see (a police check, a
【沉默】 on a player who then casts no ballot, a 【蝶衣】 on a player nothing touches) — so
every public output of the twins must be the same.

Each command's public output (stdout) is kept with what was true after it (roles of the
living and the dead, the private files written so far), for ``leaks`` to check.
"""

from __future__ import annotations

import random
import re
import secrets
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.game.state import next_stage, rule_set_of
from killmod.game.store import Game
from killmod.rules import rule_set
from killmod.usecases.status import game_status
from tests.support.pagebuilder import SHANGHAI, FakePost, FakeThread, render_discuz_x_page

JUDGE = ("法官", 900)
GAME_OVER = "[size=4][b]游戏结束"

# name → (rules, players, variants)
SETS: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "1.2": ("1.2", 16, ()),
    "v4": ("v4", 11, ()),
    "x": ("x", 8, ()),
    "1.0": ("1.0", 6, ()),
    "2.0": ("2.0", 12, ()),
    "2.0-ghost-poison-guardian": ("2.0", 12, ("ghost", "poison", "guardian")),
    "2.0-ghost-double-guardian": ("2.0", 13, ("ghost", "double-guardian")),
}

KILLER_SIDE = ("杀手", "鬼匪", "被附体匪")
GUARDIANS = ("守护神", "警神", "匪神")


class Chooser:
    """Where a game's choices come from: ``random.Random`` or Hypothesis' ``data``."""

    def __init__(self, draw: Callable[[list], Any]) -> None:
        self._draw = draw

    @classmethod
    def seeded(cls, seed: int) -> Chooser:
        rng = random.Random(seed)
        return cls(lambda options: rng.choice(options))

    @classmethod
    def hypothesis(cls, data) -> Chooser:
        import hypothesis.strategies as st

        return cls(lambda options: data.draw(st.sampled_from(options)))

    def pick(self, options) -> Any:
        options = list(options)
        return self._draw(options) if options else None

    def chance(self, percent: int) -> bool:
        return self.pick(range(100)) < percent


@dataclass
class Seen:
    """One command's public output and what was true right after it."""

    label: str
    stdout: str
    exit_code: int
    roles: dict[int, str]
    alive: frozenset[int]
    over: bool
    private: dict[str, str]
    lots_open: frozenset[str]


@dataclass
class Twin:
    """One of the two game files."""

    folder: Path
    db: Path
    seen: list[Seen] = field(default_factory=list)


def roster_toml(rules: str, players: int, variants: tuple[str, ...]) -> str:
    lines = [
        f'rules = "{rules}"',
        'timezone = "Asia/Shanghai"',
        f'judges = ["{JUDGE[0]}"]',
        'substitutes = ["替补甲"]',
    ]
    if variants:
        lines.append(f"variants = [{', '.join(f'{v!r}' for v in variants)}]".replace("'", '"'))
    for seat in range(1, players + 1):
        lines += ["[[players]]", f"seat = {seat}", f'name = "玩家{seat}"', f"uid = {5000 + seat}"]
    return "\n".join(lines) + "\n"


@contextmanager
def fixed_salt() -> Iterator[None]:
    """The lottery's secret salt made predictable, so that the twins' posts compare."""
    import killmod.usecases.lottery

    with pytest.MonkeyPatch.context() as patch:
        # the lottery's own ``secrets`` only: private files name their temporary files with it
        salts = types.SimpleNamespace(
            token_hex=lambda n=16: "ab" * n, SystemRandom=secrets.SystemRandom
        )
        patch.setattr(killmod.usecases.lottery, "secrets", salts)
        yield


class Game2:
    """The twins of one game, played step by step."""

    def __init__(self, root: Path, name: str, templates: Path | None) -> None:
        self.rules, self.players, self.variants = SETS[name]
        self.templates = templates
        self.twins = [self._make(root / "a"), self._make(root / "b")]
        self.threads = root / "threads"
        self.threads.mkdir()
        self.quiet: dict[int, frozenset[int]] = {}  # round → seats that cast no ballot
        self.posts: dict[int, list[FakePost]] = {}
        self.votes: dict[int, int] = {}
        self.pid = 100000
        self.tie_once = False  # the next plain vote ends in a tie (lots or a re-vote)

    def _make(self, folder: Path) -> Twin:
        folder.mkdir(parents=True)
        roster = folder / "roster.toml"
        roster.write_text(roster_toml(self.rules, self.players, self.variants), encoding="utf-8")
        db = folder / "game.db"
        done = CliRunner().invoke(main, ["init", "--roster", str(roster), "--db", str(db)])
        assert done.exit_code == 0, done.output
        return Twin(folder, db)

    # --- running a command on both files --------------------------------------------------

    def run(self, label: str, *args: object, extra_b: tuple = (), on_file: bool = True) -> int:
        """Run ``args`` on both twins (``extra_b`` added for the second); the same exit code."""
        codes = []
        for index, twin in enumerate(self.twins):
            argv = [str(a) for a in args] + (["--db", str(twin.db)] if on_file else [])
            if index == 1:
                argv += [str(a) for a in extra_b]
            if self.templates is not None:
                argv += ["--templates", str(self.templates)]
            done = CliRunner().invoke(main, argv)
            assert done.exception is None or isinstance(done.exception, SystemExit), (
                argv,
                done.output,
            )
            assert "Traceback" not in done.output, done.output
            twin.seen.append(self._seen(twin, label, done.stdout, done.exit_code))
            codes.append(done.exit_code)
        assert codes[0] == codes[1], (label, [t.seen[-1].stdout for t in self.twins])
        return codes[0]

    def _seen(self, twin: Twin, label: str, stdout: str, code: int) -> Seen:
        game = Game.open(twin.db)
        roster = game.roster()
        private_dir = twin.folder / "game-private"
        private = {p.name: p.read_text(encoding="utf-8") for p in sorted(private_dir.glob("*.txt"))}
        drawn = {f"round{e.round}-lottery-private" for e in game.events("lottery_reveal")}
        opened = frozenset(name for name in private if name.startswith(tuple(drawn)))
        over = bool(game.events("game_over"))
        game.close()
        return Seen(
            label,
            stdout,
            code,
            {p.seat: p.role for p in roster.players if p.role},
            frozenset(p.seat for p in roster.players if p.alive),
            over,
            private,
            opened,
        )

    # --- the game's facts (from the first twin) -------------------------------------------

    def facts(self) -> tuple[dict[int, str], list[int], Any]:
        game = Game.open(self.twins[0].db)
        roster = game.roster()
        status = game_status(game)
        game.close()
        roles = {p.seat: p.role for p in roster.players if p.role}
        return roles, [p.seat for p in roster.living], status

    def holders(self, *roles: str) -> list[int]:
        seats, living = self.facts()[0], self.facts()[1]
        return [seat for seat in living if seats.get(seat) in roles]

    # --- one game -----------------------------------------------------------------------

    def play(self, choose: Chooser, steps: int = 12) -> None:
        """Follow ``status``'s next step for up to ``steps`` steps, or to the game's end."""
        variants = [a for v in self.variants for a in ("--variant", v)]
        self.run("rules", "rules", self.rules, *variants, on_file=False)
        for _ in range(steps):
            status = self.facts()[2]
            if status.winner is not None:
                break
            text = status.next_step
            if "发身份" in text:
                self.run("deal", "deal", "--seed", choose.pick(range(50)))
            elif found := re.search(r"lottery reveal --round (\d+)", text):
                self.reveal(int(found[1]), choose)
            elif (found := re.search(r"lottery make --round (\d+)", text)) and (
                "重新投票" not in text or choose.chance(50)
            ):
                self.run("lottery make", "lottery", "make", "--round", found[1], "--seed", 3)
            elif found := re.search(r"night --round (\d+)", text):
                self.night(int(found[1]), choose)
            elif found := re.search(r"--record --round (\d+)", text):
                self.vote(int(found[1]), choose)
            else:
                raise AssertionError(f"unknown next step: {text}")
            self.run("status", "status")
            if self.rules == "2.0" and choose.chance(8):
                self.suicide(choose)

    def reveal(self, round_no: int, choose: Chooser) -> None:
        game = Game.open(self.twins[0].db)
        lots = [e for e in game.events("lottery") if e.round == round_no][-1].data["mapping"]
        game.close()
        lot = choose.pick(sorted(lots))
        self.run("lottery reveal", "lottery", "reveal", "--round", round_no, "--lot", lot)
        drawn = self.twins[0].seen[-1].stdout
        found = re.search(r"--mapping \"([^\"]+)\" --salt (\w+) --commitment (\w+)", drawn)
        if found:
            mapping, salt, digest = found.groups()
            verify = ["lottery", "verify", "--round", round_no, "--mapping", mapping]
            self.run(
                "lottery verify", *verify, "--salt", salt, "--commitment", digest, on_file=False
            )

    def suicide(self, choose: Chooser) -> None:
        killers = self.holders(*KILLER_SIDE)
        round_no = max(self.votes, default=1)
        if killers:
            at = self.moment(round_no, 19, 30 + self.votes.get(round_no, 0))
            self.run("suicide", "suicide", choose.pick(killers), "--at", at)

    # --- the night ------------------------------------------------------------------------

    def night(self, number: int, choose: Chooser) -> None:
        """Every option of the set whose role is still in the game, at a drawn living seat;
        a draw the rules refuse is tried again with the kill alone (or nothing)."""
        roles, living, _ = self.facts()
        ruleset = rule_set_of(Game.open(self.twins[0].db).roster())
        options = ruleset.night_options

        def alive(*holding: str) -> list[int]:
            return [seat for seat in living if roles.get(seat) in holding]

        actors = {
            "butterfly": alive("花蝴蝶"),
            "kill": alive(*KILLER_SIDE),
            "check": alive("警察"),
            "snipe": alive("狙击手"),
            "inject": alive("医生"),
            "silence": alive("森林老人"),
            "possess": alive("鬼匪"),
        }
        chosen: dict[str, int] = {}
        for option in sorted(options & set(actors)):
            if actors[option] and (option == "kill" or choose.chance(60)):
                others = [s for s in living if s not in actors["butterfly"]]
                chosen[option] = choose.pick(others if option == "butterfly" else living)
        if "possess" in chosen:
            chosen["possess"] = choose.pick([s for s in living if roles.get(s) not in KILLER_SIDE])
        if "pact" in options and "poison" in self.variants:
            chosen["pact"] = choose.pick(actors["kill"] or living)
        args: list[object] = ["night", "--round", number]
        for option, seat in chosen.items():
            if seat is not None:
                args += [f"--{option}", seat]
        if "guard" in options:
            for guardian in alive(*GUARDIANS):
                targets = [s for s in living if s != guardian]
                if choose.chance(70):
                    args += ["--guard", f"{guardian}={choose.pick(targets)}"]
        if self.rules == "1.2":
            args += ["--at", self.moment(number, 23)]
            if choose.chance(20):
                args += ["--veto", choose.pick(living)]
        extra = self.hidden_actions(number, roles, living, chosen, choose)
        args += ["--format", choose.pick(["bbcode", "bbcode", "text", "json"])]
        code = self.run(f"night {number}", *args, extra_b=extra)
        if code != 0:  # a draw the rules refuse: the night with its kill only, or nothing
            self.twins_forget_last()
            kill = ["--kill", choose.pick(living)] if "kill" in options else []
            if "pact" in options and "poison" in self.variants and actors["kill"]:
                kill += ["--pact", actors["kill"][0]]
            at = ["--at", self.moment(number, 23)] if self.rules == "1.2" else []
            self.run(f"night {number}", "night", "--round", number, *kill, *at)

    def twins_forget_last(self) -> None:
        for twin in self.twins:
            twin.seen.pop()

    def hidden_actions(
        self,
        number: int,
        roles: dict[int, str],
        living: list[int],
        chosen: dict[str, int],
        choose: Chooser,
    ) -> tuple:
        """Night actions for the second twin that change nothing anyone may see."""
        extra: list[object] = []
        if self.rules == "1.2":
            return ()
        police = [s for s in living if roles.get(s) == "警察"]
        if "check" not in chosen and police:
            # not at a police: a choice aimed at its own actors needs the judge's yes
            extra += ["--check", choose.pick([s for s in living if s not in police] or living)]
        if self.rules != "v4":
            return tuple(extra)
        round_no = number + 1  # V4.0: night N belongs to round N+1
        old_men = [s for s in living if roles.get(s) == "森林老人"]
        if "silence" not in chosen and old_men and choose.chance(70):
            quiet = choose.pick(living)
            self.quiet[round_no] = frozenset({quiet})  # both twins: no ballot tomorrow
            extra += ["--silence", quiet]
        butterflies = [s for s in living if roles.get(s) == "花蝴蝶"]
        targeted = set(chosen.values()) | {s for s in (extra[1::2]) if isinstance(s, int)}
        acting = {
            "kill": "杀手",
            "check": "警察",
            "snipe": "狙击手",
            "inject": "医生",
            "silence": "森林老人",
        }
        busy_roles = {acting[a] for a in chosen if a in acting}
        if "butterfly" not in chosen and butterflies and butterflies[0] not in targeted:
            free = [
                s
                for s in living
                if s not in targeted and s != butterflies[0] and roles.get(s) not in busy_roles
            ]
            if free and choose.chance(70):
                extra += ["--butterfly", choose.pick(free)]
        return tuple(extra)

    # --- the day --------------------------------------------------------------------------

    def moment(self, round_no: int, hour: int, minute: int = 0) -> str:
        day = datetime(2024, 3, 1, tzinfo=SHANGHAI) + timedelta(days=round_no)
        return (day + timedelta(hours=hour, minutes=minute)).strftime("%Y-%m-%d %H:%M")

    def vote(self, round_no: int, choose: Chooser) -> None:
        """The round's next vote: ballots by the living on the round's thread, then tallied
        in every format and recorded."""
        living = self.facts()[1]
        game = Game.open(self.twins[0].db)
        stage = next_stage(rule_set_of(game.roster()), game, round_no)
        game.close()
        number = self.votes.get(round_no, 0)
        self.votes[round_no] = number + 1
        start = datetime(2024, 3, 1, 19, tzinfo=SHANGHAI) + timedelta(days=round_no, hours=number)
        deadline = start + timedelta(minutes=59)
        posts = self.posts.setdefault(round_no, [])
        if not posts:
            posts.append(self.post(*JUDGE, start - timedelta(minutes=1), "【投票帖】"))
        quiet = self.quiet.get(round_no, frozenset())
        candidates = list(stage.candidates) if stage and stage.candidates else living
        favourite = choose.pick(candidates)  # most ballots go one way: days end
        if self.tie_once and stage is not None and stage.kind in ("vote", "point"):
            self.tie_once = False
            voters = [seat for seat in living if seat not in quiet]
            voters = voters[: len(voters) // 2 * 2]
            pair = (voters[0], voters[1])
            for n, seat in enumerate(voters):
                when = start + timedelta(minutes=1, seconds=17 * n)
                posts.append(self.post(f"玩家{seat}", 5000 + seat, when, f"投{pair[n % 2]}号"))
            voters = []
        else:
            voters = [voter for voter in living if choose.chance(80)]
        for n, seat in enumerate(voters):
            when = start + timedelta(minutes=1, seconds=17 * n)
            if stage is not None and stage.phase == "knife":
                body = choose.pick(["刀", "刀", "刀", "过", "顶"])
            else:
                other = choose.pick(candidates)
                body = choose.pick(
                    [f"投{favourite}号"] * 4 + [f"投{other}号", "弃权", "顶", "投99号"]
                )
            if seat in quiet and body not in ("顶",):
                body = "顶"  # a player silenced in one twin casts no ballot in either
            posts.append(self.post(f"玩家{seat}", 5000 + seat, when, body))
        thread = self.save(round_no, number, posts, deadline)
        closes = deadline.strftime("%Y-%m-%d %H:%M:%S")
        day = ["tally", thread, "--deadline", closes]
        self.judges_day(round_no, number, thread, start, closes, choose)
        for fmt in ("text", "json", "audit"):
            self.run(f"tally {round_no}.{number} {fmt}", *day, "--format", fmt)
        self.run(f"tally {round_no}.{number}", *day, "--record", "--round", round_no)
        for twin in self.twins:  # a count announces who it puts out: true once recorded
            recorded = twin.seen[-1]
            for dry in twin.seen[-4:-1]:
                dry.alive, dry.roles, dry.over = recorded.alive, recorded.roles, recorded.over
        self.run("history", "history", "--format", choose.pick(["bbcode", "text", "json"]))
        self.run("status hidden", "status", "--hidden")
        lurkers = ["lurkers", thread, "--round", round_no, "--min", 2, "--record"]
        self.run(f"lurkers {round_no}", *lurkers)
        self.run("audit", "audit", "--format", choose.pick(["text", "bbcode"]))
        if choose.chance(30):
            seat = choose.pick(living)
            day = (start + timedelta(days=1)).strftime("%Y-%m-%d")
            self.run("leave", "leave", seat, "--day", day)
            penalty = ["penalty", seat, "--round", round_no, "--kind", "cancel"]
            self.run("penalty", *penalty, "--choice", "取消一轮")

    def judges_day(
        self, round_no: int, number: int, thread: Path, start: datetime, closes: str, choose
    ) -> None:
        """The vote's other posts, the clock set before its deadline: the opening post, the
        provisional count as of a floor and as of now, the reminder with its @mentions."""
        import killmod.commands.open as open_command
        import killmod.commands.remind as remind_command
        import killmod.commands.tally as tally_command

        label = f"{round_no}.{number}"
        with pytest.MonkeyPatch.context() as patch:
            for module in (open_command, remind_command, tally_command):
                patch.setattr(module, "now", lambda: start + timedelta(minutes=30))
            fmt = choose.pick(["bbcode", "text"])
            self.run(
                f"open {label}", "open", "--round", round_no, "--deadline", closes, "--format", fmt
            )
            fmt = choose.pick(["bbcode", "text", "json"])
            self.run(
                f"as-of {label}",
                "tally",
                thread,
                "--deadline",
                closes,
                "--as-of",
                3,
                "--format",
                fmt,
            )
            self.run(f"so far {label}", "tally", thread, "--deadline", closes)
            self.run(f"remind {label}", "remind", thread, "--deadline", closes, "--mention")

    def post(self, author: str, uid: int, when: datetime, body: str) -> FakePost:
        self.pid += 1
        return FakePost(self.pid, author, uid, when, body, time_style="absolute")

    def save(self, round_no: int, number: int, posts: list[FakePost], deadline) -> Path:
        folder = self.threads / f"round{round_no}-vote{number}"
        folder.mkdir()
        thread = FakeThread(8100 + round_no, "【投票帖】", posts, deadline + timedelta(hours=6))
        for page in range(1, thread.page_count + 1):
            (folder / f"page{page}.html").write_bytes(render_discuz_x_page(thread, page))
        return folder


# --- what must never be seen ------------------------------------------------------------


# Words that only tell of a hidden night effect, the police's answers or the judge's
# resolution: never in a public output of the set (the rules announce none of them).
HIDDEN_WORDS = {
    "v4": ("癫狂", "沉默", "frenzy", "标记", "濒死", "蝶衣", "注射", "狙杀", "指认", "marks"),
    "x": ("验人结果", "裁判手势", "checks"),
    "2.0": (
        *("验人结果", "裁判手势", "checks", "生死状", "附体成功", "遭遇附体", "已被鬼匪附体"),
        *("验过您", "守护能力失效", "不守护", "无人可守", "notices"),
    ),
}


def role_words(rules: str, variants: tuple[str, ...]) -> tuple[str, ...]:
    """Every role of the rule set (a name like 玩家3 holds none of them)."""
    module = rule_set(rules)
    roles = set(module.ROLES) if hasattr(module, "ROLES") else set()
    if variants:
        from killmod.rules import variants as variant_rules

        roles |= set(variant_rules.ROLES)
    return tuple(sorted(roles, key=len, reverse=True))


def public_part(text: str, hostile: bool) -> str:
    """The output without the game-over post (揭秘), which reveals every role by design."""
    if hostile:
        return re.split(r"^### TEMPLATE gameover\.bbcode\.j2$", text, flags=re.M)[0]
    return text.split(GAME_OVER)[0]


def seats_named(line: str) -> set[int]:
    """The seats a line names: ``5号`` in a post, ``seat=5`` in a data dump."""
    return {int(a or b) for a, b in re.findall(r"(?<![\d.])(\d+)号|seat=(\d+)", line)}


def leaks(seen: Seen, words: tuple[str, ...], rules: str, hostile: bool = False) -> list[str]:
    """What ``seen``'s public output tells that it may not: a living player's role, a
    hidden night effect, a line of a private file, the lots before the draw, a private
    template's output."""
    if seen.over or seen.label == "rules":
        return []  # the game is over: the rules reveal every role (揭秘)
    text = public_part(seen.stdout, hostile)
    if seen.label.startswith("open"):  # the rule text's own voting rules name roles
        sentences = [line for lines in rule_set(rules).VOTE_RULES.values() for line in lines]
        text = "\n".join(
            line for line in text.splitlines() if not any(s in line for s in sentences)
        )
    found = [
        f"{seen.label}: {word!r}, a hidden night effect"
        for word in HIDDEN_WORDS.get(rules, ())
        if word in text
    ]
    dead_roles = {role for seat, role in seen.roles.items() if seat not in seen.alive}
    if "鬼匪" in words:  # 鬼匪 5: a dead 鬼匪 is shown as 杀手
        from killmod.rules.variants import shown_identity

        dead_roles |= {shown_identity(role) for role in dead_roles}
    living_only = [
        w
        for w in words
        if any(seen.roles.get(s) == w for s in seen.alive)
        and not any(w in dead for dead in dead_roles)
    ]
    for word in living_only:
        if word in text:
            found.append(f"{seen.label}: the role {word}, held by the living only")
    for line in text.splitlines():
        seats = seats_named(line)
        for seat in seats & seen.alive:
            role = seen.roles.get(seat)
            shown = any(seen.roles.get(d) == role for d in seats - seen.alive)
            if role and role in line and not shown:
                found.append(f"{seen.label}: {seat}号's role {role} in {line!r}")
    for name, private in seen.private.items():
        if name in seen.lots_open or hostile:  # a dump of a private view: see the marker
            continue
        lines = [line.strip() for line in private.splitlines()]
        if "lottery" in name:  # the commitment in it is public: the lots and the salt are not
            lines = [line for line in lines if "号签：" in line or "killmod-lottery/1|" in line]
        for line in lines:
            if len(line) >= 8 and not line.startswith("——") and line in text:
                found.append(f"{seen.label}: the private line {line!r} of {name}")
    if "PRIVATE-TEMPLATE-OUTPUT" in text:
        found.append(f"{seen.label}: a private template's output on stdout")
    return found


def compare_twins(game: Game2) -> list[str]:
    """Public outputs that differ between the twins (a hidden night action showing).

    When a step was recorded is no secret, and the twins record theirs a moment apart; so
    is when a vote thread was read, which the vote's evidence (and its SHA-256) holds."""
    first, second = game.twins
    assert len(first.seen) == len(second.seen)
    return [
        f"{a.label}: the twins differ\n--- {a.stdout}\n+++ {b.stdout}"
        for a, b in zip(first.seen, second.seen, strict=True)
        if same_moment(a.stdout) != same_moment(b.stdout) and not (a.over or b.over)
    ]


def same_moment(text: str) -> str:
    """``text`` with the moments that differ between twins (and the hashes over them) masked."""
    text = _RECORDED_AT.sub("recorded_at", text)
    text = _READ_AT.sub('"read_at":"…"', text)
    return _EVIDENCE.sub(r"\1…", text)


_RECORDED_AT = re.compile(r"recorded_at(?:='[^']*'| = \S+)")
_READ_AT = re.compile(r'"read_at":"[^"]*"')
_EVIDENCE = re.compile(r"(计票证据 SHA-256：|evidence='|evidence = |\"sha256\": \")[0-9a-f]{64}")
