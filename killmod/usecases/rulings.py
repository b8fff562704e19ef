"""The judge's rulings kept for a round by the judge's page: one rulings file per round,
the same file ``tally --rulings`` reads, ruled one post (by its pid) at a time."""

from __future__ import annotations

import json
from pathlib import Path

from killmod.ballots.rulings import Ruling, load_rulings, parse_rulings
from killmod.core.errors import BadInput

IGNORE = "ignore"
ABSTAIN = "abstain"


def rulings_path(folder: Path, round_no: int) -> Path:
    """The round's rulings file in ``folder``."""
    return folder / f"round{round_no}-rulings.toml"


def current_rulings(path: Path) -> dict[int, str]:
    """The rulings by pid, each as ``ignore``, ``abstain`` or the seat voted for."""
    if not path.exists():
        return {}
    return {ruling.pid: _choice(ruling) for ruling in load_rulings(path) if ruling.pid}


def rule_post(path: Path, pid: int, choice: str, note: str = "") -> None:
    """Rule the post ``pid``: ``ignore`` (no ballot), ``abstain``, a seat's number (a vote
    for it), or ``""`` (the ruling withdrawn).  The file is checked as ``--rulings`` checks
    it before it replaces the old one."""
    kept = {ruling.pid: ruling for ruling in load_rulings(path)} if path.exists() else {}
    if choice == "":
        kept.pop(pid, None)
    elif choice == IGNORE:
        kept[pid] = Ruling(None, ignore=True, note=note, pid=pid)
    elif choice == ABSTAIN:
        kept[pid] = Ruling(None, abstain=True, note=note, pid=pid)
    elif choice.isdigit():
        kept[pid] = Ruling(None, target=int(choice), note=note, pid=pid)
    else:
        raise BadInput(f"裁定要是“不计”“弃权”或一个座位号，现在是「{choice}」。")
    text = "".join(_table(ruling) for _, ruling in sorted(kept.items()))
    parse_rulings(text, str(path))
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)


def _choice(ruling: Ruling) -> str:
    if ruling.ignore:
        return IGNORE
    if ruling.abstain:
        return ABSTAIN
    return str(ruling.target)


def _table(ruling: Ruling) -> str:
    lines = [f"[pid.{ruling.pid}]"]
    if ruling.ignore:
        lines.append("ignore = true")
    elif ruling.abstain:
        lines.append('target = "abstain"')
    else:
        lines.append(f"target = {ruling.target}")
    if ruling.note:
        lines.append(f"note = {json.dumps(ruling.note, ensure_ascii=False)}")
    return "\n".join(lines) + "\n\n"
