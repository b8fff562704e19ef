"""A night and a day of a 1.2 game run through the fake board, as a judge types it.

killmod deal --send (16 站内短信), the killers write the judge, killmod night --from-pm
--post (the 尸体 post replied to the game thread), the vote, killmod tally --record
--post (the announcement replied to the vote thread); undo then says what stays posted.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from killmod.game import outbox
from killmod.game.store import Game
from tests.support.boardgames import GAME_TID, board_game, ok, uid
from tests.support.gamefiles import JUDGE, TID, vote_thread
from tests.support.pagebuilder import SHANGHAI

ROLES = dict.fromkeys(range(1, 17))


@pytest.mark.slow
def test_a_night_and_a_day_through_the_board(tmp_path: Path, serve_site):
    game = board_game(tmp_path, serve_site, "1.2", ROLES)
    board = game.board
    ok(game.run("deal", "--seed", 20, "--send", "--board", game.game_url, "--interval", 0, "--yes"))
    assert sorted(letter.to for letter in board.letters) == [uid(seat) for seat in range(1, 17)]
    with Game.open(game.db) as opened:
        roles = {p.seat: p.role for p in opened.roster().players}
    killers = [seat for seat, role in roles.items() if role == "杀手"]
    victim = next(seat for seat, role in roles.items() if role == "水民")
    for minute, killer in enumerate(killers):
        game.player_writes(
            killer, f"杀 {victim}号", datetime(2024, 3, 1, 13, minute, tzinfo=SHANGHAI)
        )
    night = game.run(
        "night",
        "--round",
        1,
        "--from-pm",
        "--since",
        "2024-03-01 12:00",
        "--until",
        "2024-03-01 18:00",
        "--at",
        "2024-03-01 18:30",
        "--post",
        game.game_url,
        "--interval",
        0,
        "--yes",
    )
    assert night.exit_code == 0, night.output
    ((tid, night_pid, night_post),) = board.replies
    assert tid == GAME_TID and night_post == night.stdout
    assert f"{victim}号" in night_post and "杀手" not in night_post.replace("杀手方", "")
    # the day: everyone votes for the first killer
    target = killers[0]
    rows = [(seat, f"20:{seat:02d}:00", f"投{target}号") for seat in range(1, 17) if seat != victim]
    board.add_thread(vote_thread(rows))
    vote_url = game.thread_url(TID)
    day = game.run(
        "tally",
        vote_url,
        "--deadline",
        "2024-03-01 22:00",
        "--record",
        "--post",
        vote_url,
        "--interval",
        0,
        "--yes",
    )
    assert day.exit_code == 0, day.output
    (tid, tally_pid, tally_post) = board.replies[-1]
    assert tid == TID and tally_post == day.stdout and f"{target}号" in tally_post
    with Game.open(game.db) as opened:
        posts = [r for r in outbox.records(opened).values() if r.what == "post"]
        steps = {step.id: step.kind for step in opened.steps()}
    assert [(r.data["thread"], r.data["pid"]) for r in posts] == [
        (GAME_TID, night_pid),
        (TID, tally_pid),
    ]
    assert [steps[r.data["for_step"]] for r in posts] == ["night", "tally"]
    # undo takes the day back, not the post: it says the post stays on the board
    undone = game.run("undo")
    assert undone.exit_code == 0, undone.output
    assert f"回复到帖子 {TID}的公告（pid {tally_pid}）不会撤回" in undone.output
    assert len(board.replies) == 2
    # the judge's own account posted every reply, and no 站内短信 went to anyone twice
    assert {reply[0] for reply in board.replies} == {GAME_TID, TID}
    assert all(letter.sender == JUDGE[1] for letter in board.letters if letter.to != JUDGE[1])
    assert len({letter.to for letter in board.letters if letter.sender == JUDGE[1]}) == 16
