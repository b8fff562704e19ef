"""killmod: tools for the judges (法官) of forum Mafia games (版杀).

Each command's work is a function of the same name: ``from killmod import tally`` is
what ``killmod tally`` does, ``from killmod import undo`` what ``killmod undo`` does
(``USE_CASES`` lists them).  Heavy modules are imported on first use so that the
command starts fast.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

# The command's name → the use case that does its work ("module:function").
USE_CASES = {
    "tally": "killmod.usecases.tally:tally",
    "alias": "killmod.usecases.alias:record_alias",
    "audit": "killmod.usecases.audit:audit",
    "deal": "killmod.usecases.deal:deal",
    "evidence": "killmod.usecases.evidence:evidence",
    "history": "killmod.usecases.history:chronicle",
    "leave": "killmod.usecases.lurkers:record_leave",
    "lottery": "killmod.usecases.lottery:make_lottery",
    "lurkers": "killmod.usecases.lurkers:lurkers",
    "night": "killmod.usecases.night:record_night",
    "notices": "killmod.usecases.deal:current_notices",
    "open": "killmod.usecases.open:open_vote",
    "out": "killmod.usecases.out:record_out",
    "penalty": "killmod.usecases.penalty:record_penalty",
    "status": "killmod.usecases.status:game_status",
    "sub": "killmod.usecases.sub:substitute",
    "suicide": "killmod.usecases.day:record_suicide",
    "undo": "killmod.usecases.undo:undo",
    "verify": "killmod.usecases.verify:verify",
    "watch": "killmod.usecases.watch:watch",
}

__all__ = sorted(USE_CASES)


def __getattr__(name: str) -> Any:
    """The use case ``name``, imported when first asked for."""
    if name not in USE_CASES:
        raise AttributeError(f"module 'killmod' has no attribute {name!r}")
    module, function = USE_CASES[name].split(":")
    found = getattr(import_module(module), function)
    globals()[name] = found
    return found


def __dir__() -> list[str]:
    return sorted([*globals(), *USE_CASES])
