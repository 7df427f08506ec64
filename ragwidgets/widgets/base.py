"""What every widget of the package shares: its bundle read from ``static/``, and a constructor
that refuses a keyword it does not know (a typo in a control's name fails loudly instead of
being dropped with a hidden warning)."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import anywidget
import numpy as np

from ..analysis.run import plain

STATIC = Path(__file__).resolve().parent.parent / "static"


def bundled(name: str) -> str:
    """A file of ``static/`` as text, for a widget's ``_esm`` / ``_css``. Given a path, anywidget
    keeps every instance alive (its file watcher's signal holds a callback on each one), so a
    closed widget would never be freed."""
    return (STATIC / name).read_text(encoding="utf-8")


def view_json(state: dict) -> str:
    """A view state as the JSON a view trait carries, compact, UTF-8 as is; numpy integers and
    booleans as numbers. A NaN is refused (ValueError): the views write Undefined as null, and the
    browser's JSON.parse would refuse the ``NaN`` token."""
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_json_default)


def _json_default(v):
    return plain(v) if isinstance(v, np.generic) else str(v)


class Widget(anywidget.AnyWidget):
    """An anywidget whose keyword arguments must each name one of its traits."""

    def __init__(self, **kwargs):
        known = type(self).class_trait_names()
        unknown = sorted(set(kwargs) - set(known))
        if unknown:
            public = [n for n in known if not n.startswith("_")]
            close = difflib.get_close_matches(unknown[0], public, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {unknown[0]!r}{hint}")
        super().__init__(**kwargs)
