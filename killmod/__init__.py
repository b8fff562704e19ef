"""killmod: tools for the judges (法官) of forum Mafia games (版杀).

``from killmod import tally`` is what ``killmod tally`` does, as a function.
Heavy modules are imported on first use so that the command starts fast.
"""

from __future__ import annotations

__all__ = ["tally"]


def __getattr__(name: str):
    if name == "tally":
        from killmod.usecases.tally import tally

        return tally
    raise AttributeError(f"module 'killmod' has no attribute {name!r}")
