"""What a recorded step hands the judge, written before the step is committed.

The order of a recorded step (README, “The game file”): compute → render every output →
write the private files, then the public post → ``COMMIT``.  A ``Handout`` is the
rendered part: the public post (stdout), the private files (``killmod.game.private_files``:
new files only, 0600, all or none) and the notes for the judge (stderr, shown once the
step is committed).  Handed to ``Step.deliver``, it is written at the end of the step;
if the commit then fails, the files are removed again and the error says that nothing
was recorded.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

import click

from killmod.core.errors import BadInput
from killmod.game.private_files import write_private_files


@dataclass
class Handout:
    """The public post, the private files by folder, the notes (and other things to do)
    for after the commit; ``announcement`` is the tally's announcement alone (no game-over
    post, no secret), which its evidence keeps as printed."""

    public: str = ""
    private: dict[Path, dict[str, str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    later: list[Callable[[], None]] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    announcement: str | None = None

    def add_private(self, path: Path, text: str) -> Path:
        """Add the private file ``path`` (written as a new file, never over another)."""
        self.private.setdefault(path.parent, {})[path.name] = text
        return path

    def files(self) -> list[Path]:
        """The private files it writes."""
        return [folder / name for folder, texts in self.private.items() for name in texts]

    def write(self) -> None:
        """Write the private files, then the public post; on any failure, none stays."""
        try:
            for folder, texts in self.private.items():
                self.written += write_private_files(folder, texts)
            if self.public:
                print_public(self.public)
        except BaseException:
            self.retract()
            raise

    def retract(self) -> None:
        """Remove the private files written (the step they belong to was not recorded)."""
        for path in self.written:
            with suppress(FileNotFoundError):
                os.unlink(path)
        self.written = []

    def announce(self) -> None:
        """The notes, on stderr, once the step is in the game file (then ``later``)."""
        for note in self.notes:
            click.echo(note, err=True)
        for then in self.later:
            then()


def print_public(text: str) -> None:
    """``text`` on stdout, flushed: a stdout that cannot take it (a full disk, a closed
    pipe) is an error here, before anything is recorded."""
    try:
        click.echo(text, nl=False)
    except OSError as error:
        _silence_stdout()
        raise BadInput(
            f"无法输出公告（{error.strerror or error}）：本步没有记录。"
            "换一个输出位置（如另一个磁盘上的文件）后重试。"
        ) from None


def _silence_stdout() -> None:
    """After a failed write, send what Python still flushes at exit nowhere."""
    with suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
