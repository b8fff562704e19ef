"""The ``killmod`` command: a group whose subcommands live in ``killmod/commands/``.

Each subcommand module is imported only when it runs (or when ``--help``
lists it), and heavy modules are imported inside the commands, so that
``killmod --help`` starts fast.  Errors reach the judge as Chinese messages
with an exit code, never as a traceback.
"""

from __future__ import annotations

import codecs
import gc
import importlib
import logging
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any

import click

from killmod import __version__
from killmod.commands.clitext import VERSION_OPTION_HELP, Group, usage_message

# name → "module:function" of each subcommand, in the order --help lists them.
COMMANDS = {
    "new": "killmod.commands.new:new",
    "init": "killmod.commands.init:init",
    "deal": "killmod.commands.deal:deal",
    "open": "killmod.commands.open:open_vote",
    "tally": "killmod.commands.tally:tally",
    "alias": "killmod.commands.alias:alias",
    "watch": "killmod.commands.watch:watch",
    "remind": "killmod.commands.remind:remind",
    "lottery": "killmod.commands.lottery:lottery",
    "night": "killmod.commands.night:night",
    "lurkers": "killmod.commands.lurkers:lurkers",
    "leave": "killmod.commands.leave:leave",
    "audit": "killmod.commands.audit:audit",
    "penalty": "killmod.commands.audit:penalty",
    "sub": "killmod.commands.sub:sub",
    "status": "killmod.commands.status:status",
    "history": "killmod.commands.history:history",
    "evidence": "killmod.commands.evidence:evidence",
    "verify": "killmod.commands.verify:verify",
    "thread": "killmod.commands.thread:thread",
    "undo": "killmod.commands.undo:undo",
    "notices": "killmod.commands.notices:notices",
    "upgrade": "killmod.commands.upgrade:upgrade",
    "rules": "killmod.commands.rules:rules",
    "suicide": "killmod.commands.suicide:suicide",
    "out": "killmod.commands.out:out",
    "post": "killmod.commands.post:post",
    "judge": "killmod.commands.judge:judge",
    "serve": "killmod.commands.serve:serve",
}


class _Notices(logging.Handler):
    """Shows killmod's logged warnings (in Chinese) on stderr while a command runs."""

    def emit(self, record: logging.LogRecord) -> None:
        from killmod.core.redact import redact

        click.echo(f"注意：{redact(record.getMessage())}", err=True)


def user_errors(command: Callable) -> Callable:
    """Print a KillmodError's Chinese message and exit with its code: no traceback.

    Warnings killmod logs on the way (``logging``) are shown on stderr.  A login in a URL
    (``user:password@``) is never shown (``killmod.core.redact``).
    """

    @wraps(command)
    def wrapper(*args, **kwargs):
        from killmod.core.errors import KillmodError
        from killmod.core.redact import redact

        notices = _Notices(logging.WARNING)
        logging.getLogger("killmod").addHandler(notices)
        try:
            return command(*args, **kwargs)
        except KillmodError as error:
            click.echo(f"错误：{redact(error.message)}", err=True)
            sys.exit(error.exit_code)
        except OverflowError:  # a number no game has, past what the game file can hold
            click.echo("错误：输入的数字太大，超出了游戏文件能记的范围。", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("已取消。", err=True)
            sys.exit(130)
        finally:
            logging.getLogger("killmod").removeHandler(notices)

    return wrapper


class LazyGroup(Group):
    """A group that imports a subcommand's module only when it is needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, function = COMMANDS[name].split(":")
        return getattr(importlib.import_module(module), function)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run, turning click's usage errors into a Chinese message and exit code 2."""
        try:
            return super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except click.Abort:
            click.echo("已取消。", err=True)
            sys.exit(130)
        except click.UsageError as error:
            click.echo(usage_message(error), err=True)
            sys.exit(2)
        except click.ClickException as error:
            click.echo(f"错误：{error.format_message()}", err=True)
            sys.exit(error.exit_code)


@click.group(
    "killmod",
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="每个命令的说明：killmod 命令 --help，如 killmod tally --help。"
    "第一次用：killmod new 写一份名单模板（见 README 的“第一个小时”）。",
)
@click.version_option(
    version=__version__,
    prog_name="killmod",
    message="%(prog)s %(version)s",
    help=VERSION_OPTION_HELP,
)
def main() -> None:
    """killmod：版杀法官的工具——计票、公告、审计。"""


class _Marks:
    """Characters a console could not show, each written as ``?`` (counted for a notice)."""

    name = "killmod-mark"
    count = 0

    @classmethod
    def handler(cls, error: UnicodeError) -> tuple[str, int]:
        cls.count += error.end - error.start
        return "?" * (error.end - error.start), error.end


def configure_stdout() -> None:
    """Output that cannot be encoded never crashes a command (README, “The game file”).

    To a file or a pipe (``> post.txt``) killmod writes UTF-8, whatever the console's
    code page: the post is saved whole.  A console that cannot show a character (a GBK
    console and an emoji in a player's name) gets a visible ``?`` in its place, and a
    notice on stderr at the end.
    """
    stream = sys.stdout
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is None:
        return
    codecs.register_error(_Marks.name, _Marks.handler)
    try:
        if stream.isatty():
            reconfigure(errors=_Marks.name)
        else:
            reconfigure(encoding="utf-8", errors=_Marks.name)
    except (OSError, ValueError):
        return


def _mark_notice() -> None:
    if _Marks.count:
        click.echo(
            f"注意：终端显示不了 {_Marks.count} 个字符，已用 ? 代替；"
            "要原样保存，请输出到文件（如 killmod … > post.txt，文件是 UTF-8）。",
            err=True,
        )


def run() -> None:
    """The ``killmod`` program.

    A command lives for seconds, so Python's cyclic garbage collector runs less often:
    at its default (a pass every 700 new objects) importing the modules alone makes ~85
    passes, ~40 ms of every start.  At exit, what the command made is left to the end of
    the process rather than walked by the collector's last passes (~0.15 s after reading
    a long thread).  Nothing is lost by that: every command closes the game file with
    ``with`` before it returns, and a recorded step is in the file at its ``COMMIT``
    (rollback journal, no WAL to checkpoint: ``killmod.game.dbfile``).
    """
    gc.set_threshold(100_000, 50, 100)
    configure_stdout()
    try:
        main()
    finally:
        _mark_notice()
        gc.freeze()


if __name__ == "__main__":
    run()
