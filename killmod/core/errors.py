"""Typed errors that carry the Chinese message the judge reads.

A ``KillmodError`` is an expected, user-facing failure: the CLI prints its
message and exits with its ``exit_code``, never a traceback.
"""

from __future__ import annotations


class KillmodError(Exception):
    """A failure the user can act on; ``str(error)`` is the Chinese message."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadInput(KillmodError):
    """Bad usage or input (a roster, deadline, rulings file…): exit 2."""

    exit_code = 2


class TallyFailed(KillmodError):
    """The tally could not be done (a page failed, a login page…): exit 1."""

    exit_code = 1
