"""click's frame in Chinese: the help, the usage line and the usage errors.

click writes its own words (``Usage:``, ``Options:``, ``[default: 4]``, ``INTEGER RANGE``,
``No such option``) through ``gettext``, which picks a language from the locale — and a
judge's Windows sets none.  So killmod uses the hooks click offers instead: a ``Context``
whose ``formatter_class`` writes 用法 and wraps by display width (``killmod.announce.textwidth``),
``Command``/``Group`` classes whose ``format_*`` and ``get_help_option`` methods write the
sections and each option's help record from click's own ``get_help_extra``, and usage
errors told from the exception's fields (its parameter, the option's name, click's close
matches) rather than by rewriting click's English text.

Every command is made with :func:`command` (or a :class:`Group`'s ``.command()``).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import click

from killmod.announce.textwidth import display_width, join_lines, wrap

HELP_OPTION_HELP = "显示此帮助并退出"
VERSION_OPTION_HELP = "显示版本号并退出"
OPTIONS_METAVAR = "[选项]"
SUBCOMMAND_METAVAR = "命令 [参数]..."


class HelpFormatter(click.HelpFormatter):
    """click's formatter with Chinese headings, wrapped by display width."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        """The usage line: ``用法：killmod tally [选项] 投票帖``."""
        head = f"{' ' * self.current_indent}{'用法：' if prefix is None else prefix}{prog}"
        if not args:
            self.write(f"{head}\n")
            return
        indent = display_width(head) + 1
        if self.width - indent < 20:
            indent = self.current_indent + 4
            self.write(f"{head}\n{' ' * indent}")
        else:
            self.write(f"{head} ")
        lines = wrap(args, self.width - indent)
        self.write(f"\n{' ' * indent}".join(lines) + "\n")

    def write_heading(self, heading: str) -> None:
        """A section's heading, with a Chinese colon."""
        self.write(f"{' ' * self.current_indent}{heading}：\n")

    def write_text(self, text: str) -> None:
        """Paragraphs (split at blank lines) rewrapped by display width and indented."""
        indent = " " * self.current_indent
        paragraphs = _paragraphs(text)
        for index, paragraph in enumerate(paragraphs):
            if index:
                self.write("\n")
            for line in wrap(paragraph, self.width - self.current_indent):
                self.write(f"{indent}{line}\n")

    def write_dl(
        self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        """A definition list (options, commands): terms in a column, text wrapped after it."""
        rows = list(rows)
        if not rows:
            return
        first_col = min(max(display_width(term) for term, _ in rows), col_max) + col_spacing
        text_width = max(self.width - self.current_indent - first_col, 10)
        margin = " " * (self.current_indent + first_col)
        for term, text in rows:
            self.write(" " * self.current_indent + term)
            if not text:
                self.write("\n")
                continue
            if display_width(term) + col_spacing <= first_col:
                self.write(" " * (first_col - display_width(term)))
            else:
                self.write(f"\n{margin}")
            lines = [
                line for paragraph in _paragraphs(text) for line in wrap(paragraph, text_width)
            ]
            self.write(f"\n{margin}".join(lines) + "\n")


def _paragraphs(text: str) -> list[str]:
    """A help text's paragraphs, each joined into one line."""
    paragraphs, lines = [], []
    for line in [*inspect.cleandoc(text).splitlines(), ""]:
        if line.strip():
            lines.append(line)
        elif lines:
            paragraphs.append(join_lines(lines))
            lines = []
    return paragraphs


class Context(click.Context):
    """click's context, formatting help with :class:`HelpFormatter`."""

    formatter_class = HelpFormatter


class Command(click.Command):
    """A click command whose help, usage line and parse errors are Chinese."""

    context_class = Context

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("options_metavar", OPTIONS_METAVAR)
        super().__init__(*args, **kwargs)

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = HELP_OPTION_HELP
        return option

    def get_short_help_str(self, limit: int = 45) -> str:
        """The help's first sentence (to the first 。), cut to ``limit`` columns."""
        text = join_lines(inspect.cleandoc(self.short_help or self.help or "").splitlines())
        sentence = text.split("。")[0] + "。" if "。" in text else text
        if display_width(sentence) <= limit:
            return sentence
        cut = ""
        for char in sentence:
            if display_width(cut + char) > limit - 1:
                break
            cut += char
        return cut + "…"

    def format_arguments(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The 参数 section, when an argument has help of its own."""
        arguments = [p for p in self.get_params(ctx) if isinstance(p, click.Argument)]
        if any(argument.help for argument in arguments):
            with formatter.section("参数"):
                formatter.write_dl((metavar(a), a.help or "") for a in arguments)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The 选项 section: every option's help record, in Chinese."""
        rows = [
            option_record(param, ctx)
            for param in self.get_params(ctx)
            if isinstance(param, click.Option) and not param.hidden
        ]
        if rows:
            with formatter.section("选项"):
                formatter.write_dl(rows)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Parse as click does; words left over are refused with :class:`ExtraArguments`."""
        strict = not ctx.allow_extra_args
        ctx.allow_extra_args = True
        try:
            rest = super().parse_args(ctx, args)
        except click.UsageError as error:
            error.ctx = (
                error.ctx or ctx
            )  # click's parser raises some without: the usage line needs it
            raise
        finally:
            ctx.allow_extra_args = not strict
        if strict and rest and not ctx.resilient_parsing:
            raise ExtraArguments(rest, ctx)
        return rest


class Group(Command, click.Group):
    """A click group of :class:`Command`; run bare, it shows its help (exit 0)."""

    command_class = Command

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("subcommand_metavar", SUBCOMMAND_METAVAR)
        kwargs.setdefault("invoke_without_command", True)
        super().__init__(*args, **kwargs)
        self.callback = _help_when_bare(self.callback)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        Command.format_options(self, ctx, formatter)
        self.format_commands(ctx, formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The 命令 section: each command with the first sentence of its help."""
        names = [name for name in self.list_commands(ctx)]
        if not names:
            return
        limit = formatter.width - formatter.current_indent - max(map(len, names)) - 6
        rows = []
        for name in names:
            found = self.get_command(ctx, name)
            if found is not None and not found.hidden:
                rows.append((name, found.get_short_help_str(limit)))
        with formatter.section("命令"):
            formatter.write_dl(rows)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command named first in ``args``; a misspelt one names the nearest."""
        try:
            return super().resolve_command(ctx, args)
        except click.NoSuchCommand as error:
            raise click.NoSuchCommand(
                error.command_name, possibilities=self.list_commands(ctx), ctx=ctx
            ) from None


def _help_when_bare(callback: Callable | None) -> Callable:
    """The group's callback, showing the group's help when no command follows it."""

    def run(*args: Any, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        if ctx.invoked_subcommand is None:
            click.echo(ctx.get_help())
            return None
        return callback(*args, **kwargs) if callback else None

    return functools.wraps(callback)(run) if callback else run


def command(name: str | None = None, **attrs: Any) -> Callable[[Callable], Command]:
    """``click.command`` making a :class:`Command`."""
    return click.command(name, cls=Command, **attrs)


def group(name: str | None = None, **attrs: Any) -> Callable[[Callable], Group]:
    """``click.group`` making a :class:`Group`."""
    return click.group(name, cls=Group, **attrs)


class ExtraArguments(click.UsageError):
    """Words on the command line that no argument or option takes."""

    def __init__(self, words: Sequence[str], ctx: click.Context) -> None:
        super().__init__(f"多余的参数：{' '.join(words)}", ctx)
        self.words = tuple(words)


# --- help records -----------------------------------------------------------------------


def metavar(param: click.Parameter) -> str:
    """What a parameter's value is, in Chinese: 数字, 文件, 文件夹, 文字, or its choices."""
    if param.metavar:
        return param.metavar
    kind = param.type
    if isinstance(kind, click.Choice):
        return f"[{'|'.join(map(str, kind.choices))}]"
    if isinstance(kind, click.types.IntParamType | click.types.FloatParamType):
        return "数字"
    if isinstance(kind, click.Path):
        return "文件夹" if not kind.file_okay else "文件"
    return "文字"


def option_record(option: click.Option, ctx: click.Context) -> tuple[str, str]:
    """An option's two columns in the help: its spellings with the value's name, and its
    help with 默认值, the range and 必填 (from click's ``get_help_extra``)."""
    spellings = ", ".join(sorted(option.opts, key=len))
    if option.secondary_opts:
        spellings += " / " + ", ".join(option.secondary_opts)
    if not option.is_flag and not option.count:
        spellings += f" {metavar(option)}"
    extra = option.get_help_extra(ctx)
    notes = []
    if "default" in extra:
        notes.append(f"默认值：{extra['default']}")
    if "range" in extra:
        notes.append(describe_range(option.type))
    if "required" in extra:
        notes.append("必填")
    text = option.help or ""
    if notes:
        text = f"{text}  [{'；'.join(notes)}]" if text else f"[{'；'.join(notes)}]"
    return spellings, text


def describe_range(kind: click.ParamType) -> str:
    """A number range in words: 至少 1, 最多 16, 1 到 16 (open ends: 大于/小于)."""
    low, high = getattr(kind, "min", None), getattr(kind, "max", None)
    low_open, high_open = getattr(kind, "min_open", False), getattr(kind, "max_open", False)
    if low is not None and high is not None and not (low_open or high_open):
        return f"{low} 到 {high}"
    parts = []
    if low is not None:
        parts.append(f"{'大于' if low_open else '至少'} {low}")
    if high is not None:
        parts.append(f"{'小于' if high_open else '最多'} {high}")
    return "，".join(parts)


def expected(param: click.Parameter) -> str:
    """What a parameter takes, for the message of a value it refused."""
    kind = param.type
    if isinstance(kind, click.Choice):
        return f"可选：{'、'.join(map(str, kind.choices))}"
    if isinstance(kind, click.types.IntParamType | click.types.FloatParamType):
        number = "整数" if isinstance(kind, click.types.IntParamType) else "数字"
        span = describe_range(kind) if isinstance(kind, click.types._NumberRangeBase) else ""
        return f"应为 {span} 的{number}" if span else f"应为{number}"
    if isinstance(kind, click.Path):
        return "应为文件夹" if not kind.file_okay else "应为文件"
    return ""


# --- usage errors -----------------------------------------------------------------------


def usage_message(error: click.UsageError) -> str:
    """A usage error in Chinese: the usage line, what is wrong, the nearest spelling."""
    ctx = error.ctx
    usage = ctx.get_usage() if ctx else ""
    path = ctx.command_path if ctx else "killmod"
    return f"{usage}\n错误：{what_is_wrong(error)}（用 {path} --help 查看说明）".lstrip()


def what_is_wrong(error: click.UsageError) -> str:
    """The Chinese sentence for one usage error, from the exception's own fields."""
    if isinstance(error, click.NoSuchOption):
        return f"没有这个选项：{error.option_name}{_did_you_mean(error.possibilities)}"
    if isinstance(error, click.NoSuchCommand):
        known = _commands(error.ctx)
        nearest = _did_you_mean(error.possibilities)
        return f"没有这个命令：{error.command_name}{nearest or '。可用命令：' + '、'.join(known)}"
    if isinstance(error, click.MissingParameter):
        param = error.param
        if isinstance(param, click.Argument):
            return f"缺少参数 {metavar(param)}" if error.ctx else "缺少参数"
        return f"缺少选项 {_spellings(param)}"
    if isinstance(error, click.BadOptionUsage):
        option = _option_named(error.ctx, error.option_name)
        if option is not None and option.is_flag:
            return f"{error.option_name} 是开关，后面不带值"
        return f"{error.option_name} 后面要跟一个值"
    if isinstance(error, click.BadParameter) and error.param is not None:
        wanted = expected(error.param)
        if not wanted:
            return f"{_spellings(error.param)} 的值无效：{error.message}"
        return f"{_spellings(error.param)} 的值无效，{wanted}"
    return error.message


def _did_you_mean(possibilities: Sequence[str] | None) -> str:
    """click's closest match (difflib's, best first), as a question."""
    if not possibilities:
        return ""
    return f"。是不是 {possibilities[0]}？"


def _spellings(param: click.Parameter | None) -> str:
    if param is None:
        return "?"
    if isinstance(param, click.Argument):
        return param.metavar or param.human_readable_name
    return "/".join(param.opts)


def _option_named(ctx: click.Context | None, name: str) -> click.Option | None:
    if ctx is None:
        return None
    for param in ctx.command.get_params(ctx):
        if isinstance(param, click.Option) and name in (*param.opts, *param.secondary_opts):
            return param
    return None


def _commands(ctx: click.Context | None) -> list[str]:
    if ctx is None or not isinstance(ctx.command, click.Group):
        return []
    return ctx.command.list_commands(ctx)
