"""Typed errors that carry the Chinese message the judge reads.

A ``KillmodError`` is an expected, user-facing failure: the CLI prints its
message and exits with its ``exit_code``, never a traceback.  It may also say what
it is about — the command's ``option`` (``--deadline``, or an argument by its metavar,
``座位号``) and the ``line`` of the judge's file — so that the judge's page shows it
beside the field at fault (``about`` tags the errors of a block with the option whose
value it reads).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*")
# The seat argument (``killmod sub 座位号 替补``…), as the commands' usage names it.
SEAT = "座位号"


class KillmodError(Exception):
    """A failure the user can act on; ``str(error)`` is the Chinese message."""

    exit_code = 1

    def __init__(self, message: str, *, option: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.named = option
        self.line = line

    @property
    def option(self) -> str | None:
        """The option or argument at fault: the one given where the error was raised,
        else the only option the message names (none when it names a command to run,
        or several options)."""
        if self.named is not None:
            return self.named
        if "killmod " in self.message:
            return None
        named = set(_OPTION.findall(self.message))
        return named.pop() if len(named) == 1 else None


class BadInput(KillmodError):
    """Bad usage or input (a roster, deadline, rulings file…): exit 2."""

    exit_code = 2


class TallyFailed(KillmodError):
    """The tally could not be done (a page failed, a login page…): exit 1."""

    exit_code = 1


@contextmanager
def about(option: str) -> Iterator[None]:
    """The errors raised inside are about ``option`` (one that names its own keeps it)."""
    try:
        yield
    except KillmodError as error:
        if error.named is None:
            error.named = option
        raise
