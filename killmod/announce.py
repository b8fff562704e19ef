"""Turning results into what the judge posts: BBCode, plain text, the audit, JSON.

Every sentence comes from a Jinja2 template under ``templates/`` (or the
judge's own folder, ``--templates``); this module only hands them data.
Public templates get only what the rule set announces: a camp where it
announces camps (1.2), the identities its reveal rules show, never a role.
"""

from __future__ import annotations

from contextlib import suppress
from datetime import datetime
from importlib.resources import files
from pathlib import Path
from types import ModuleType

from jinja2 import (
    ChoiceLoader,
    Environment,
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
    TemplateError,
)
from jinja2.bccache import Bucket
from platformdirs import user_cache_path

from killmod.errors import BadInput
from killmod.model import DayStep, TallyResult
from killmod.rules import announced_camp
from killmod.times import format_iso

SCHEMA = "killmod.tally/1"


def environment(templates: Path | None = None) -> Environment:
    """The template environment; a judge's folder overrides the bundled templates."""
    loaders = [FileSystemLoader(str(files("killmod.templates")))]
    if templates is not None:
        if not templates.is_dir():
            raise BadInput(f"模板文件夹不存在：{templates}")
        loaders.insert(0, FileSystemLoader(str(templates)))
    env = Environment(
        loader=ChoiceLoader(loaders),
        bytecode_cache=_compiled_templates(),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["bb"] = inert_bbcode
    env.filters["hm"] = lambda moment: moment.strftime("%m-%d %H:%M:%S") if moment else "—"
    return env


class _CompiledTemplates(FileSystemBytecodeCache):
    """Jinja's compiled templates kept between commands; a folder that cannot be written
    (a full disk, a read-only home) only means they are compiled again."""

    def dump_bytecode(self, bucket: Bucket) -> None:
        with suppress(OSError):
            super().dump_bytecode(bucket)


def _compiled_templates() -> FileSystemBytecodeCache | None:
    """Where compiled templates are kept, in killmod's cache folder: compiling a command's
    templates takes ~40 ms of every start.  Jinja checks each against its source."""
    folder = user_cache_path("killmod") / "templates"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return _CompiledTemplates(str(folder))


def inert_bbcode(text: object) -> str:
    """Text placed in a BBCode post so that no tag in it is read as markup.

    Discuz has no escape for ``[``; an empty ``[i][/i]`` after each bracket
    breaks every tag while the reader still sees the same characters.
    """
    return str(text).replace("[", "[[i][/i]")


def render(name: str, templates: Path | None = None, **data: object) -> str:
    """Render template ``name`` with ``data``; a broken judge template is bad input."""
    try:
        return environment(templates).get_template(name).render(**data)
    except TemplateError as error:
        raise BadInput(f"模板 {name} 出错：{error}") from None


def render_tally(
    result: TallyResult, fmt: str, rules: ModuleType, templates: Path | None = None
) -> str:
    """The announcement (``bbcode``/``text``) or the per-post audit (``audit``)."""
    return render(f"tally.{fmt}.j2", templates, **tally_view(result, rules))


def tally_view(result: TallyResult, rules: ModuleType) -> dict:
    """What the tally templates see: the result, names by seat, public camps only, the
    rule set's tally policy and what the vote leads to (``day``)."""
    players = {player.seat: player for player in result.roster.players}
    revealed = {warning.seat for warning in result.warnings if warning.action == "out"}
    if result.outcome.kind == "eliminated":
        revealed.add(result.outcome.seat)
    camps = {seat: announced_camp(rules, players[seat].role) for seat in revealed}
    history: dict[int, list] = {}
    for verdict in result.verdicts:
        if verdict.seat is not None and verdict.verdict in ("counted", "superseded"):
            history.setdefault(verdict.seat, []).append(verdict)
    return {
        "result": result,
        "names": {seat: player.name for seat, player in players.items()},
        "ballots": {ballot.seat: ballot for ballot in result.ballots},
        "camps": camps,
        "history": history,
        "non_voters": [b for b in result.ballots if b.kind == "self"],
        "warnings": {warning.seat: warning for warning in result.warnings},
        "policy": rules.TALLY_POLICY,
        "day": result.day,
        "off_candidates": {v.pid for v in result.verdicts if "not_candidate" in v.notes},
    }


def tally_json(result: TallyResult, rules: ModuleType) -> dict:
    """The ``killmod.tally/1`` document of DESIGN §5 (plus ``verdicts``)."""
    outcome: dict = {"kind": result.outcome.kind}
    if result.outcome.kind == "eliminated":
        outcome["seat"] = result.outcome.seat
        camp = tally_view(result, rules)["camps"].get(result.outcome.seat)
        if camp:
            outcome["camp"] = camp
    elif result.outcome.kind == "tie":
        outcome["seats"] = list(result.outcome.seats)
    return {
        "schema": SCHEMA,
        "rules": result.rules,
        "round": result.round,
        "deadline": format_iso(result.deadline),
        "source": {
            "url": result.source.url,
            "title": result.source.title,
            "pages": result.source.pages,
            "posts": result.source.posts,
        },
        "ballots": [
            {
                "seat": b.seat,
                "name": b.name,
                "kind": b.kind,
                "target": b.target,
                "floor": b.floor,
                "posted_at": _iso(b.posted_at),
            }
            for b in result.ballots
        ],
        "counts": [
            {"seat": c.seat, "name": c.name, "votes": c.votes, "voters": list(c.voters)}
            for c in result.counts
        ],
        "outcome": outcome,
        "changes": [
            {
                "seat": c.seat,
                "floor": c.floor,
                "from": c.from_,
                "to": c.to,
                "posted_at": _iso(c.posted_at),
            }
            for c in result.changes
        ],
        "rejected": [
            {
                "floor": r.floor,
                "author": r.author,
                "seat": r.seat,
                "reason": r.reason,
                "pid": r.pid,
                "posted_at": _iso(r.posted_at),
            }
            for r in result.rejected
        ],
        "flags": [
            {
                "floor": f.floor,
                "seat": f.seat,
                "reason": f.reason,
                "detail": f.detail,
                **({"suggestion": f.suggestion} if f.suggestion is not None else {}),
            }
            for f in result.flags
        ],
        "warnings": [
            {
                "seat": w.seat,
                "name": w.name,
                "total": w.total,
                "action": w.action,
                **({"substitute": w.substitute} if w.substitute else {}),
            }
            for w in result.warnings
        ],
        "verdicts": [
            {
                "pid": v.pid,
                "floor": v.floor,
                "author": v.author,
                "seat": v.seat,
                "posted_at": _iso(v.posted_at),
                "verdict": v.verdict,
                "kind": v.kind,
                "target": v.target,
                "fragment": v.fragment,
                "ruling": v.ruling,
                "notes": list(v.notes),
            }
            for v in result.verdicts
        ],
        **({"day": _day_json(result.day)} if result.day else {}),
        **({"early": True} if result.early else {}),
    }


def _day_json(day: DayStep) -> dict:
    """What the vote leads to under the rule set: the stage, who is out, what is shown, next."""
    return {
        "stage": day.stage.as_json(),
        "out": list(day.out),
        "voted": list(day.voted),
        "shown": {str(seat): identity for seat, identity in day.shown},
        "next": day.next.as_json() if day.next else None,
        "posts": list(day.posts),
        "knife": day.knife.as_json() if day.knife else None,
        "over": day.over.as_json() if day.over else None,
    }


def _iso(moment: datetime | None) -> str | None:
    return format_iso(moment) if moment else None
