"""The model's plain data: what its hand-written pieces must keep of a dataclass."""

from __future__ import annotations

import inspect
import pickle
from dataclasses import MISSING, FrozenInstanceError, fields, replace
from datetime import datetime

import pytest

from killmod.core.model import Post
from tests.support.pagebuilder import SHANGHAI

AT = datetime(2019, 5, 12, 21, 59, 59, tzinfo=SHANGHAI)


def test_posts_own_init_takes_the_fields_in_order_with_their_defaults():
    """``Post.__init__`` is written by hand (one dict update, not twelve frozen setattrs):
    it takes every field, in the dataclass's order, with the dataclass's defaults."""
    parameters = list(inspect.signature(Post.__init__).parameters.values())[1:]
    assert [p.name for p in parameters] == [f.name for f in fields(Post)]
    for parameter, field in zip(parameters, fields(Post), strict=True):
        default = field.default if field.default is not MISSING else inspect.Parameter.empty
        assert parameter.default == default, field.name


def test_a_post_is_still_a_frozen_dataclass():
    post = Post(7, 2, "meer", 2000, AT, "second", "投5号", hidden=("投6号",))
    assert post == Post(
        pid=7, floor=2, author="meer", uid=2000, posted_at=AT, precision="second",
        body="投5号", hidden=("投6号",),
    )  # fmt: skip
    assert hash(post) == hash(replace(post))
    assert replace(post, body="投6号").body == "投6号" and post.body == "投5号"
    assert pickle.loads(pickle.dumps(post)) == post
    with pytest.raises(FrozenInstanceError):
        post.body = "投6号"  # type: ignore[misc]
    assert (post.quotes, post.edited_at, post.banned, post.page) == ((), None, False, 1)
