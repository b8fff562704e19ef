"""The judge's board session kept in the game's private folder: a cookies.txt imported
from the browser, or written by logging in through killmod (``killmod.board.login``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from http.cookiejar import Cookie, MozillaCookieJar
from pathlib import Path

from killmod.fetch.http import load_cookies


def keep_cookies(data: bytes, path: Path) -> int:
    """Keep the Netscape cookies.txt ``data`` at ``path`` (0600, the folder 0700), after
    reading it as ``--cookies`` reads one (a bad file is refused, naming no value); the
    number of cookies."""

    def write(partial: Path) -> None:
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)

    return _keep(write, path)


def keep_session(cookies: Iterable[Cookie], path: Path) -> int:
    """Keep a session's ``cookies`` at ``path`` as a Netscape cookies.txt (0600, the folder
    0700), read back as ``--cookies`` reads one; the number of cookies."""

    def write(partial: Path) -> None:
        jar = MozillaCookieJar()
        for cookie in cookies:
            jar.set_cookie(cookie)
        jar.save(str(partial), ignore_discard=True, ignore_expires=True)  # made 0600

    return _keep(write, path)


def _keep(write: Callable[[Path], None], path: Path) -> int:
    """``write`` a cookies.txt beside ``path`` (the folder made 0700), read it as
    ``--cookies`` reads one, and only then move it to ``path``; the number of cookies."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    write(partial)
    try:
        count = len(load_cookies(partial))
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(path)
    return count
