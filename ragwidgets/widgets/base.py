"""What every widget of the package shares: its bundle read from ``static/``, a constructor
that refuses a keyword it does not know (a typo in a control's name fails loudly instead of
being dropped with a hidden warning), and the one kind of trait a view travels in
(:func:`view_trait`: the view's JSON and its binary cells in one value, one message)."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import NamedTuple

import anywidget
import numpy as np
import traitlets

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


class View(NamedTuple):
    """A view trait's value: the view state as JSON text (:func:`view_json`) less the matrix's
    cells, and those cells as bytes (int8, row-major; b"" without a matrix). ``View()`` is no view
    (false)."""

    json: str = ""
    cells: bytes = b""

    def __bool__(self) -> bool:
        return bool(self.json)

    @property
    def state(self) -> dict | None:
        """The view state the JSON holds (without the cells); None for no view."""
        return json.loads(self.json) if self.json else None


def encode_view(view: dict | None) -> View:
    """A view dict as a :class:`View`: ``view["matrix"]["cells"]`` taken out as the bytes, the
    rest as JSON (None: no view)."""
    if view is None:
        return View()
    m = view.get("matrix")
    if m is None:
        return View(view_json(view))
    return View(view_json({**view, "matrix": {k: v for k, v in m.items() if k != "cells"}}), bytes(m["cells"]))


def _view_to_json(value: View, _widget) -> dict:
    """What the front end receives: ``{"json": text, "cells": buffer}``; ipywidgets sends the
    memoryview as a binary buffer of the same message (and saves it with the notebook's widget
    state), so JSON and cells always arrive together."""
    return {"json": value.json, "cells": memoryview(value.cells)}


def view_trait() -> traitlets.Instance:
    """A synced trait holding one :class:`View` (read in JS by ``viewOf(model, name)``)."""
    return traitlets.Instance(View, args=()).tag(sync=True, to_json=_view_to_json)


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
