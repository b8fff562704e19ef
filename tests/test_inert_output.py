"""Names and post texts carrying markup come out inert in every output format.

A whole game is played twice on a local board: once with the demo players' own names, once
with names (and a thread title, a substitute, an outsider, post texts) full of BBCode
(``[/color]``, ``[url=…]``, ``[quote]``), HTML and Jinja syntax (``{{ }}``, ``{% %}``).
Every output is then parsed back:

- BBCode posts: a small BBCode tokenizer (the way Discuz reads tags: ``[tag]``, ``[tag=…]``,
  ``[/tag]``; ``[[i][/i]`` is a bracket and an empty italic) gives the sequence of tags; with
  empty tag pairs dropped (they render nothing) it must be the same as with plain names, and
  balanced, and the visible text must hold every name verbatim;
- plain text and audits hold every name verbatim;
- JSON stays valid and gives back every name exactly;
- Jinja syntax in a name is never evaluated.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from tests.support.pagebuilder import DEMO_SEATS, DEMO_TID, JUDGE, demo_thread, discuz_x_site

DEADLINE = "2019-05-12 22:00"
PASSERBY = "路过的"
SUBSTITUTE = "替补甲"
TITLE = "【第二天投票帖】22:00 截止"
# Seat → a name full of markup.  Seat 5 keeps its name: floor 8 votes for it by name.
EVIL = {
    1: "[/color]米儿",
    2: "[url=http://evil.example/]阿狸[/url]",
    3: "[quote]路人甲[/quote]",
    4: "<b>狼人</b>杀手",
    6: "[/size][/b]潜水员",
    7: "{{ 1234*5678 }}",
    8: "[img]http://evil.example/x.png[/img]",
    9: "{% if true %}小明{% endif %}",
    10: "</textarea><script>alert(1)</script>",
    12: "[spoiler]白开水",
    13: '"夜猫子"&amp;\'',
    14: "{# 注释 #}老王",
    15: "[size=7][color=red]红豆",
    16: "[/spoiler][/quote]小透明\\",
}
EVIL_PASSERBY = "[b]路过的[/b]{{ passerby }}"
EVIL_SUBSTITUTE = "[/b]替补{{ sub }}[color=red]"
EVIL_TITLE = "【投票】[/color][url=x]{{ title }}{% raw %}"
EVIL_TEXTS = ("[color=red]{{ 1234*5678 }}[/color]", "{% for x in y %}[/quote]")
EVALUATED = str(1234 * 5678)

# Discuz's BBCode tags (discuzcode()): what a pasted post could turn into markup.
TAGS = (
    "b|i|u|s|p|color|size|font|align|backcolor|url|email|img|quote|code|list|\\*|indent|float"
    "|table|tr|td|hr|free|hide|sup|sub|qq|media|flash|audio|attach|attachimg|spoiler|em"
)
TAG = re.compile(rf"\[(/?)({TAGS})(=[^\[\]]*)?\]", re.IGNORECASE)


def tokens(post: str) -> list[tuple[str, str]]:
    """The post as Discuz's BBCode parser sees it: ("open"/"close", tag) and ("text", …)."""
    found: list[tuple[str, str]] = []
    position = 0
    for tag in TAG.finditer(post):
        if tag.start() > position:
            found.append(("text", post[position : tag.start()]))
        found.append(("close" if tag.group(1) else "open", tag.group(2).lower()))
        position = tag.end()
    if position < len(post):
        found.append(("text", post[position:]))
    return found


def rendered(post: str) -> tuple[list[tuple[str, str]], str]:
    """(the tags that render something, in order; the visible text)."""
    kept: list[tuple[str, str]] = []
    for token in tokens(post):
        if token[0] == "close" and kept and kept[-1] == ("open", token[1]):
            kept.pop()  # an empty pair ([i][/i]): renders nothing
            continue
        kept.append(token)
    tags = [token for token in kept if token[0] != "text"]
    text = "".join(token[1] for token in kept if token[0] == "text")
    return tags, text


def assert_balanced(tags: list[tuple[str, str]]) -> None:
    stack: list[str] = []
    for kind, tag in tags:
        if kind == "open":
            stack.append(tag)
        else:
            assert stack and stack[-1] == tag, f"[/{tag}] closes {stack}"
            stack.pop()
    assert not stack, f"unclosed {stack}"


# --- the game, played with a name table ---------------------------------------------------------


def roster_toml(names: dict[int, str], substitute: str) -> str:
    """The demo roster with ``names`` (TOML strings written as JSON strings, which TOML reads)."""
    lines = [
        'rules = "1.2"',
        'timezone = "Asia/Shanghai"',
        f"judges = [{json.dumps(JUDGE[0], ensure_ascii=False)}]",
        f"substitutes = [{json.dumps(substitute, ensure_ascii=False)}]",
    ]
    lines += ["[warnings]", '"9" = 1']  # seat 9's second warning: the substitute takes over
    for seat in DEMO_SEATS:
        lines += [
            "[[players]]",
            f"seat = {seat.seat}",
            f"name = {json.dumps(names[seat.seat], ensure_ascii=False)}",
            f"uid = {seat.uid}",
            f"aliases = {json.dumps(list(seat.aliases), ensure_ascii=False)}",
            f"alive = {'true' if seat.alive else 'false'}",
            f'role = "{seat.role}"',
        ]
    return "\n".join(lines) + "\n"


def thread_with(names: dict[int, str], passerby: str, title: str, texts: tuple[str, ...]):
    """The demo vote thread with every player's (and the passer-by's) name replaced."""
    demo = demo_thread()
    by_old = {seat.name: names[seat.seat] for seat in DEMO_SEATS} | {PASSERBY: passerby}
    posts = []
    for post in demo.posts:
        quote = post.quote and (by_old.get(post.quote[0], post.quote[0]), *post.quote[1:])
        post = replace(post, author=by_old.get(post.author, post.author), quote=quote)
        if post.body == "围观" and texts:  # a passer-by's chatter: markup in a post text
            post = replace(post, body=texts[0])
        if post.body.startswith("还没想好") and texts:  # seat 16's post without a vote
            post = replace(post, body=f"还没想好 {texts[1]}")
        posts.append(post)
    return replace(demo, posts=posts, title=title)


def cli(*args: object, ok: bool = True) -> str:
    """A command's public output (stdout)."""
    result = CliRunner().invoke(main, [str(arg) for arg in args])
    if ok:
        assert result.exit_code == 0, result.output
    return result.stdout


def play(folder: Path, serve_site, evil: bool) -> dict[str, str]:
    """Every public output of a game: tally formats, night, lottery, lurkers, audit, game over."""
    names = {seat.seat: seat.name for seat in DEMO_SEATS} | (EVIL if evil else {})
    substitute = EVIL_SUBSTITUTE if evil else SUBSTITUTE
    thread = thread_with(
        names,
        EVIL_PASSERBY if evil else PASSERBY,
        EVIL_TITLE if evil else TITLE,
        EVIL_TEXTS if evil else (),
    )
    folder.mkdir()
    roster = folder / "roster.toml"
    roster.write_text(roster_toml(names, substitute), encoding="utf-8")
    url = f"{serve_site(discuz_x_site(thread))}/forum.php?mod=viewthread&tid={DEMO_TID}"
    day = ["tally", url, "--deadline", DEADLINE]
    out = {
        f"tally.{fmt}": cli(*day, "--roster", roster, "--format", fmt)
        for fmt in ("bbcode", "text", "json", "audit")
    }
    # a recorded day (5 out, 9/14/16 warned), its night, the lurkers and the audit
    db = folder / "game.db"
    cli("init", "--roster", roster, "--db", db)
    out["tally.recorded"] = cli(*day, "--db", db, "--record", "--round", 1)
    night = ["night", "--round", 2, "--kill", 7, "--at", "2019-05-12 23:00", "--db", db]
    out["night.bbcode"] = cli(*night)
    out["night.text"] = cli(*night, "--replace", "--format", "text")
    out["night.json"] = cli(*night, "--replace", "--format", "json")
    for fmt in ("bbcode", "text"):
        out[f"lurkers.{fmt}"] = cli("lurkers", url, "--round", 1, "--format", fmt, "--db", db)
        out[f"audit.{fmt}"] = cli("audit", "--format", fmt, "--db", db)
    # a tie (a ruling makes it 5–7), its lottery and the result
    tied = folder / "tied.db"
    rulings = folder / "rulings.toml"
    rulings.write_text("[19]\ntarget = 7\n", encoding="utf-8")
    cli("init", "--roster", roster, "--db", tied)
    out["tally.tie"] = cli(*day, "--db", tied, "--record", "--round", 1, "--rulings", rulings)
    out["lottery.public"] = cli("lottery", "make", "--round", 1, "--seed", 1, "--db", tied)
    out["lottery.reveal"] = cli("lottery", "reveal", "--round", 1, "--lot", 1, "--db", tied)
    # killers 14 and 9 out in one night (a kill, a veto): the game ends, every role revealed
    ended = folder / "ended.db"
    cli("init", "--roster", roster, "--db", ended)
    cli(*day, "--db", ended, "--record", "--round", 1)
    out["gameover"] = cli(
        "night", "--round", 2, "--kill", 14, "--veto", 9, "--at", "2019-05-12 23:00",
        "--yes", "--db", ended,
    )  # fmt: skip
    out["status.reveal"] = cli("status", "--reveal", "--db", ended)
    return out


BBCODE = (
    "tally.bbcode",
    "tally.recorded",
    "tally.tie",
    "night.bbcode",
    "lurkers.bbcode",
    "audit.bbcode",
    "lottery.public",
    "lottery.reveal",
    "gameover",
    "status.reveal",
)
TEXT = ("tally.text", "tally.audit", "night.text", "lurkers.text", "audit.text")


@pytest.fixture(scope="module")
def games(tmp_path_factory, request) -> tuple[dict[str, str], dict[str, str]]:
    from contextlib import ExitStack

    from tests.support.forumserver import serve

    with ExitStack() as stack, pytest.MonkeyPatch.context() as patch:
        # fetched pages are cached in the user cache directory: the tests' own, here
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache-home")))

        def serve_site(site):
            return stack.enter_context(serve(site))

        plain = play(tmp_path_factory.mktemp("plain") / "game", serve_site, evil=False)
        evil = play(tmp_path_factory.mktemp("evil") / "game", serve_site, evil=True)
    return plain, evil


def names_shown(output: str) -> list[str]:
    """The evil names an output is expected to show (every one it shows in the plain game)."""
    return [name for name in (*EVIL.values(), EVIL_PASSERBY, EVIL_SUBSTITUTE) if name in output]


@pytest.mark.parametrize("name", BBCODE)
def test_bbcode_posts_keep_their_structure_and_show_names_verbatim(games, name):
    plain, evil = games
    plain_tags, _ = rendered(plain[name])
    evil_tags, visible = rendered(evil[name])
    assert_balanced(plain_tags)
    assert evil_tags == plain_tags
    # every name the plain game shows, the evil game shows as the same visible text
    plain_visible = rendered(plain[name])[1]
    for seat, evil_name in EVIL.items():
        plain_name = next(s.name for s in DEMO_SEATS if s.seat == seat)
        if plain_name in plain_visible:
            assert evil_name in visible, f"{evil_name!r} not shown verbatim in {name}"
    assert EVALUATED not in evil[name]


def test_the_evil_names_do_reach_the_posts(games):
    """The check above is not empty: the announcements do show the markup-laden names."""
    _, evil = games
    visible = rendered(evil["tally.bbcode"])[1]
    shown = [name for name in EVIL.values() if name in visible]
    assert len(shown) >= 10
    assert EVIL_PASSERBY in visible  # a rejected outsider
    assert EVIL_TITLE in visible  # the thread's title
    assert EVIL_SUBSTITUTE in visible  # seat 9's second warning brings the substitute
    assert EVIL[7] in rendered(evil["night.bbcode"])[1]  # killed at night


@pytest.mark.parametrize("name", TEXT)
def test_text_outputs_show_names_verbatim(games, name):
    plain, evil = games
    for seat, evil_name in EVIL.items():
        plain_name = next(s.name for s in DEMO_SEATS if s.seat == seat)
        if plain_name in plain[name]:
            assert evil_name in evil[name], f"{evil_name!r} not verbatim in {name}"
    assert "[i][/i]" not in evil[name]  # BBCode escaping is for BBCode only
    assert EVALUATED not in evil[name]


def test_the_audit_shows_post_texts_verbatim_and_unevaluated(games):
    _, evil = games
    audit = evil["tally.audit"]
    assert EVIL_TEXTS[0] in audit or EVIL_PASSERBY in audit
    assert EVIL_PASSERBY in audit
    assert EVALUATED not in audit


@pytest.mark.parametrize("name", ["tally.json", "night.json"])
def test_json_is_valid_and_gives_back_the_exact_names(games, name):
    _, evil = games
    doc = json.loads(evil[name])
    assert EVALUATED not in evil[name]
    if name == "tally.json":
        assert {b["seat"]: b["name"] for b in doc["ballots"]} == {
            seat.seat: EVIL.get(seat.seat, seat.name) for seat in DEMO_SEATS if seat.alive
        }
        assert {c["name"] for c in doc["counts"]} <= {*EVIL.values(), "预言家本家"}
        assert EVIL_PASSERBY in {r["author"] for r in doc["rejected"]}
        assert doc["source"]["title"] == EVIL_TITLE
        verdicts = {v["author"] for v in doc["verdicts"]}
        assert verdicts >= {EVIL[1], EVIL[2], EVIL[16], EVIL_PASSERBY}
        seat16 = next(v for v in doc["verdicts"] if v["author"] == EVIL[16])
        assert seat16["verdict"] == "no_vote"


def test_jinja_syntax_in_names_is_never_evaluated(games):
    _, evil = games
    for output in evil.values():
        assert EVALUATED not in output
    assert EVIL[7] in evil["tally.text"]
    assert EVIL[9] in evil["tally.text"]
    assert EVIL[14] in evil["tally.text"]
