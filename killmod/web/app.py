"""The judge's page as a Flask application: its pages, its door, its own files.

Flask: the well-kept WSGI framework whose request is plain synchronous Python, as every
use case here is (SQLite, requests); served by waitress (``killmod.web.server``), pure
Python on Windows as elsewhere.  Pages update in place with htmx (vendored in
``killmod/web/static/``: no CDN, the page works offline).
"""

from __future__ import annotations

import secrets
from importlib.resources import files
from pathlib import Path

from flask import Flask

from killmod.web import (
    board,
    day,
    evidence,
    game_setup,
    guard,
    lottery,
    lurkers,
    night,
    recording,
    seats,
    sending,
    steps,
    threads,
    today,
)
from killmod.web.guard import CSRF_FIELD, CSRF_HEADER
from killmod.web.pages import Settings

# The page's parts, each its own blueprint.
PARTS = (today, game_setup, day, recording, night, lottery, seats, lurkers, steps, threads)
PARTS += (evidence, board, sending)
MENU = (
    ("today.page", "今天"),
    ("game_setup.new_game", "新游戏"),
    ("game_setup.deal", "发身份"),
    ("day.vote", "计票"),
    ("night.night", "夜晚"),
    ("steps.index", "其他步骤"),
    ("steps.history", "历程"),
    ("board.login", "登录论坛"),
    ("today.private", "仅法官可见"),
)


def create_app(
    db: Path,
    *,
    token: str | None = None,
    templates: Path | None = None,
    cache: Path | None = None,
    refresh: int = 15,
    interval: float = 16.0,
) -> Flask:
    """The page of the game file ``db`` (which it may create from the 新游戏 form); the
    access ``token`` is made here unless given."""
    app = Flask(
        "killmod.web",
        template_folder=str(files("killmod.templates")),
        static_folder=str(files("killmod.web") / "static"),
    )
    app.jinja_options = {
        **app.jinja_options,
        "autoescape": True,
        "trim_blocks": True,
        "lstrip_blocks": True,
    }
    config = Settings(
        db=Path(db),
        token=token or secrets.token_urlsafe(24),
        csrf=secrets.token_urlsafe(24),
        templates=templates,
        cache=cache,
        refresh=refresh,
        interval=interval,
    )
    app.config["KILLMOD"] = config
    app.config["MAX_CONTENT_LENGTH"] = 4 * 1024 * 1024  # a roster or cookies.txt, no more
    guard.install(app, config.token, config.csrf)

    @app.context_processor
    def everywhere() -> dict:
        return {
            "csrf_field": CSRF_FIELD,
            "csrf_header": CSRF_HEADER,
            "csrf": config.csrf,
            "menu": MENU,
            "db_name": config.db.name,
        }

    for module in PARTS:
        app.register_blueprint(module.pages)
    return app
