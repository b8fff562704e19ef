"""A tally's posts as ``tally``, ``watch`` and the judge's page write them: the
announcement (or the JSON document), the provisional count, the notes for the judge and
the judge's secrets, and what a recorded tally hands out."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from killmod.core.model import TallyResult
    from killmod.game.delivery import Handout
    from killmod.game.store import Game
    from killmod.usecases.provisional import Provisional
    from killmod.usecases.replacing import Replacement


def tally_handout(
    result: TallyResult,
    game: Game | None,
    fmt: str,
    templates: Path | None,
    *,
    print_secrets: bool = False,
    capture: Callable[[str], str] | None = None,
) -> Handout:
    """What a recorded tally hands the judge: the announcement (the game-over post when the
    game ended; handed to ``capture``, as ``--post`` keeps it), the notice of a substitute
    its warnings bring, and the notes for the judge once the step is committed; and the
    announcement alone (``bbcode``/``text``), which the vote's evidence keeps as printed."""
    from killmod.announce.notices import hand_substitutes_their_notices
    from killmod.game.delivery import Handout

    public, notes, announcement = _posts(result, game, fmt, templates, print_secrets=print_secrets)
    if capture is not None:
        public = capture(public)
    handout = Handout(public=public, notes=[notes] if notes else [], announcement=announcement)
    if game is not None and result.recorded is not None:  # the substitutes' notices
        hand_substitutes_their_notices(game, result.warnings, handout, templates)
    return handout


def render_provisional(counted: Provisional, fmt: str, templates: Path | None) -> str:
    """The provisional count's post (``bbcode``/``text``) or its JSON document."""
    from killmod.rules import rule_set

    if fmt == "json":
        from killmod.announce.views import provisional_json

        return json.dumps(provisional_json(counted), ensure_ascii=False, indent=1) + "\n"
    from killmod.announce.render import render_public
    from killmod.announce.views import provisional_view

    view = provisional_view(counted, rule_set(counted.result.rules))
    return render_public(f"provisional.{fmt}.j2", templates, view)


def tally_outputs(
    result: TallyResult,
    game: Game | None,
    fmt: str,
    templates: Path | None,
    *,
    print_secrets: bool,
) -> tuple[str, str]:
    """The public post (the announcement or the JSON, the game-over post when the game
    ended; with ``--print-secrets`` the judge's secrets after it) and the notes for the
    judge (stderr): times to the minute, slips of the pen, loose readings, names nobody
    has, posts a hidden effect left uncounted."""
    public, notes, _ = _posts(result, game, fmt, templates, print_secrets=print_secrets)
    return public, notes


def _posts(
    result: TallyResult,
    game: Game | None,
    fmt: str,
    templates: Path | None,
    *,
    print_secrets: bool,
) -> tuple[str, str, str | None]:
    """``tally_outputs``, and the announcement alone (None for the JSON and the audit)."""
    from killmod.rules import rule_set

    rules = rule_set(result.rules)
    winner = result.recorded.winner if result.recorded else None
    announcement = None
    # Each output imports what it needs only: no Jinja2 for the JSON document.
    if fmt == "json":
        from killmod.game.tallyjson import public_tally_json, tally_json

        document = tally_json(result, rules) if print_secrets else public_tally_json(result, rules)
        if winner:  # stdout stays one JSON document: the game's end is a key of it
            document["game_over"] = winner.as_json()
        public = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    else:
        from killmod.announce.render import render_game_over, render_tally

        public = render_tally(result, fmt, rules, templates)
        announcement = public if fmt in ("bbcode", "text") else None
        if winner:
            public += render_game_over(winner, game.roster(), templates)
    if print_secrets and fmt != "json":
        secrets = tally_secrets(result, templates)
        public += "\n" + secrets if secrets.strip() else ""
    notes = tally_notes(result, templates, game_file=game is not None)
    return public, notes, announcement


def tally_notes(
    result: TallyResult, templates: Path | None, *, game_file: bool = True, page: bool = False
) -> str:
    """The notes for the judge: times to the minute, slips of the pen, loose readings
    (a part of a name, another script), names nobody has with the command that makes
    them an alias (``game_file``: else the roster's aliases; ``page``: the judge's page's
    记为别名 button instead), posts a hidden effect left uncounted, and a recorded vote
    counted again against its record (empty when there is
    nothing to note)."""
    if templates is None and not _may_note(result):
        return ""  # nothing to note: the tally's views (~2 ms to load) are not needed
    from killmod.announce.tallyviews import tally_notes_view

    view = tally_notes_view(result, game_file=game_file, page=page)
    # The bundled notes say nothing when there is nothing to note: no template to render.
    noted = ("recount", "flags", "hidden", "loose", "unsure", "unknown", "api_sizes")
    if templates is None and not any(view.values[key] for key in noted):
        return ""
    from killmod.announce.render import render_public

    notes = render_public("tally.notes.text.j2", templates, view)
    return notes.rstrip("\n") if notes.strip() else ""


def _may_note(result: TallyResult) -> bool:
    """Whether the bundled notes may say anything: what each of them needs, looked at
    without building their view (a flag, a recount, a loose reading, a name nobody has, a
    read of the API)."""
    return bool(
        result.flags
        or result.recount
        or any(view.view == "api" for view in result.source.views)
        or any(
            v.read_as == "part" or "script" in v.notes or v.verdict == "unknown_target"
            for v in result.verdicts
        )
    )


def tally_secrets(result: TallyResult, templates: Path | None) -> str:
    """The judge's secret detail of a tally (``--print-secrets``): whose posts a hidden
    night effect left uncounted."""
    from killmod.announce.render import render_private
    from killmod.announce.tallyviews import tally_secrets_view

    return render_private("tally.private.j2", templates, tally_secrets_view(result))


def replacement_text(done: Replacement, templates: Path | None) -> str:
    """What recording a vote again would change, for the judge to confirm."""
    from killmod.announce.render import render_public
    from killmod.announce.views import replacement_view

    return render_public("tally.replace.text.j2", templates, replacement_view(done)).rstrip("\n")
