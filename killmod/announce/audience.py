"""The two audiences a template is written for: what each kind of template receives.

A public template (a post, the status, the judge's page) renders a ``PublicView``; a private
one (a notice, the lots, the night for the judge) a ``PrivateView``.  The views are built by
``killmod.announce.tallyviews`` (the tally's) and ``killmod.announce.views`` (every other
command's); ``killmod.announce.render`` checks that each template gets its own kind.  Here
apart, so that a command that renders a tally loads no other command's views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PublicView:
    """The values a public template receives (built by ``killmod.announce.views``
    and ``killmod.announce.tallyviews``)."""

    values: dict[str, Any]


@dataclass(frozen=True)
class PrivateView:
    """The values a private template receives: for the judge or one player only."""

    values: dict[str, Any]
