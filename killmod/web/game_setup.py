"""新游戏 and 发身份: a game file from the roster form or an imported roster file, then the deal."""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for

from killmod.announce.handouts import deal_handout
from killmod.announce.outputs import Outputs
from killmod.announce.roster_template import (
    RosterForm,
    RosterSeat,
    roster_origin,
    roster_template,
    roster_text,
    rule_set_choices,
)
from killmod.core.errors import BadInput, KillmodError
from killmod.usecases.deal import deal as record_deal
from killmod.usecases.gamefile import create_game, game_exists, read_roster
from killmod.web.pages import capturing, game, settings, show

pages = Blueprint("game_setup", __name__)
FORM_SOURCE = "新游戏表单"


@pages.get("/new")
def new_game():
    """Step one: the rule set, its player count and 花样玩法; step two (``?rules=``): the
    seats to fill in, with the V4.0 code the count has."""
    choices = rule_set_choices()
    rules = request.args.get("rules")
    if not rules:
        return show("web/new.html.j2", choices=choices, step=1, exists=game_exists(settings().db))
    variants = tuple(request.args.getlist("variants"))
    try:
        players = int(request.args["players"]) if request.args.get("players") else None
        made = roster_template(rules, players, variants)
    except (KillmodError, ValueError) as error:
        return show(
            "web/new.html.j2",
            choices=choices,
            step=1,
            exists=game_exists(settings().db),
            error=getattr(error, "message", "人数要是数字。"),
        )
    return show(
        "web/new.html.j2",
        choices=choices,
        step=2,
        rules=rules,
        players=made.players,
        variants=variants,
        code=made.code or "",
        exists=game_exists(settings().db),
        form={},
    )


def _number(text: str, what: str, field: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit():
        raise BadInput(f"{what}要是数字（论坛的用户编号），现在是「{text}」。", option=field)
    return int(text)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def form_roster(form) -> RosterForm:
    """The roster the form's fields give (read as a roster file is read)."""
    players = int(form["players"])
    seats = []
    for seat in range(1, players + 1):
        aliases = tuple(a for a in form.get(f"aliases{seat}", "").replace("，", ",").split(","))
        seats.append(
            RosterSeat(
                seat,
                form.get(f"name{seat}", "").strip(),
                _number(form.get(f"uid{seat}", ""), f"{seat}号的 uid ", f"uid{seat}"),
                tuple(a.strip() for a in aliases if a.strip()),
            )
        )
    judges = []
    for line in _lines(form.get("judges", "")):
        name, _, uid = line.rpartition(" ")
        if name and uid.strip().isdigit():
            judges.append((name.strip(), int(uid)))
        else:
            judges.append((line, None))
    return RosterForm(
        rules=form["rules"],
        players=tuple(seats),
        judges=tuple(judges),
        substitutes=tuple(_lines(form.get("substitutes", ""))),
        variants=tuple(form.getlist("variants")),
        code=form.get("code", "").strip() or None,
        timezone=form.get("timezone", "").strip() or "Asia/Shanghai",
    )


def _create(text: str, source: str):
    roster = read_roster(text, source)
    next_game = request.form.get("next_game") == "1"
    create_game(settings().db, roster, next_game=next_game)
    return redirect(url_for("game_setup.deal", made=len(roster.players)), code=303)


@pages.post("/new")
def create():
    """The game file from the form (``killmod init``): refused with the roster's own
    words, the form kept as filled in."""
    filled = None
    try:
        filled = form_roster(request.form)
        return _create(roster_text(filled), FORM_SOURCE)
    except KillmodError as error:
        return show(
            "web/new.html.j2",
            choices=rule_set_choices(),
            step=2,
            rules=request.form.get("rules", ""),
            players=int(request.form.get("players", "0") or 0),
            variants=tuple(request.form.getlist("variants")),
            code=request.form.get("code", ""),
            exists=game_exists(settings().db),
            form=request.form.to_dict(),
            error=error.message,
            error_field=_field_at_fault(error, filled),
        ), 422


def _field_at_fault(error: KillmodError, filled: RosterForm | None) -> str | None:
    """The form's field a refusal is about: the one that wrote the roster's line it names,
    or the field the form's own reading named; None for one the form does not show."""
    origin = roster_origin(filled, error.line) if filled is not None else None
    field = f"{origin[0]}{origin[1] or ''}" if origin else error.option
    shown = {"judges", "substitutes", "timezone", "code"}
    seats = int(request.form.get("players", "0") or 0)
    shown |= {f"{key}{seat}" for key in ("name", "uid", "aliases") for seat in range(1, seats + 1)}
    return field if field in shown else None


@pages.post("/new/import")
def import_roster():
    """The game file from a roster file the judge picks (what ``killmod init --roster``
    reads)."""
    upload = request.files.get("roster")
    try:
        if upload is None or not upload.filename:
            raise BadInput("请选择名单文件（TOML）。")
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise BadInput(f"{upload.filename} 不是 UTF-8 文本：名单文件要存为 UTF-8。") from None
        return _create(text, upload.filename)
    except KillmodError as error:
        return show(
            "web/new.html.j2",
            choices=rule_set_choices(),
            step=1,
            exists=game_exists(settings().db),
            error=error.message,
        ), 422


@pages.get("/deal")
def deal():
    """发身份: what the deal does, and its button."""
    if not game_exists(settings().db):
        return redirect(url_for("game_setup.new_game"))
    made = request.args.get("made")
    done = f"已建立游戏文件 {settings().db.name}：{made} 名玩家。" if made else None
    return show("web/deal.html.j2", done=done, folder=str(settings().private_dir))


@pages.post("/deal")
def deal_roles():
    """Deal (``killmod deal``): each notice a new private file, written before the deal is
    committed; the roles are shown on the 仅法官可见 page only."""
    dealt: dict[int, str] = {}
    try:
        with game() as opened:
            outputs = Outputs(settings().private_dir)
            deliver, captured = capturing(
                deal_handout(opened, outputs, settings().templates, dealt)
            )
            record_deal(opened, None, deliver=deliver)
    except KillmodError as error:
        return show(
            "web/deal.html.j2", error=error.message, folder=str(settings().private_dir)
        ), 422
    return show(
        "web/deal.html.j2",
        dealt=len(dealt),
        done="\n".join(captured.notes),
        folder=str(settings().private_dir),
    )
