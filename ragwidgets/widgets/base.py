"""What every widget of the package shares: its bundle read from ``static/``, a constructor
that refuses a keyword it does not know (a typo in a control's name fails loudly instead of
being dropped with a hidden warning), and the one kind of trait a view travels in
(:func:`view_trait`: the view's JSON and its binary cells in one value, one message), the one
request / reply channel from the front end (:meth:`Widget._handle_custom_msg`), the answer to its
liveness ping, and the text / HTML a host shows where it cannot draw the widget (no kernel, no
widget manager)."""

from __future__ import annotations

import difflib
import html
import itertools
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import numpy as np
import traitlets

from ..sources import plain
from ..engine.metrics import format_value, metric_label
from ._patch import patched, view_patch

STATIC = Path(__file__).resolve().parent.parent / "static"

log = logging.getLogger(__name__)

Handler = Callable[[dict, list], Any]  # (message, buffers) -> None | reply fields | (fields, buffers)
REBASE = 4  # a view whose patch would be over 1/REBASE of its base's JSON is sent whole, as a new base


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


class View:
    """A view trait's value: the view state as JSON text (:func:`view_json`) less the matrix's
    cells, and those cells as bytes (int8, row-major; b"" without a matrix). ``View()`` is no view
    (false). A view a widget sends as changes (:meth:`Widget._show`) carries ``patch``, the JSON
    of :func:`~._patch.view_patch` from the view numbered ``base`` (held in the trait named
    ``<trait>_base``); a base view carries its own number there. ``json`` is always the whole
    view: for a patched view it is made from the base and the patch when first read (a toggle
    does not encode the whole view again only to send its changes)."""

    __slots__ = ("_json", "_from", "cells", "patch", "base")

    def __init__(self, json: str = "", cells: bytes = b"", patch: str = "", base: int = 0,
                 *, origin: dict | None = None):
        self._json, self._from = json, origin  # origin: the base state the patch applies to
        self.cells, self.patch, self.base = cells, patch, base

    @property
    def json(self) -> str:
        if self._from is not None:
            self._json, self._from = view_json(patched(self._from, _loads(self.patch))), None
        return self._json

    def _replace(self, **fields) -> View:
        """This view with ``fields`` changed (its JSON made first: a new patch or base would not
        make the same JSON from the old origin)."""
        return View(**{"json": self.json, "cells": self.cells, "patch": self.patch, "base": self.base, **fields})

    def __bool__(self) -> bool:
        return self._from is not None or bool(self._json)

    def __eq__(self, other) -> bool:
        """Equal when the front end receives the same: a patched view by its patch, base and cells
        (its JSON, made lazily, is not needed to tell); else by JSON, cells and base."""
        if not isinstance(other, View):
            return NotImplemented
        if self.patch or other.patch:
            return (self.patch, self.base, self.cells) == (other.patch, other.base, other.cells)
        return (self.json, self.cells, self.base) == (other.json, other.cells, other.base)

    __hash__ = None

    def __repr__(self) -> str:
        return f"View({len(self.json):,} characters, {len(self.cells):,} cells, patch={len(self.patch):,}, base={self.base})"

    @property
    def state(self) -> dict | None:
        """The view state the JSON holds (without the cells); None for no view."""
        return _loads(self.json) if self else None


_loads = json.loads  # View's own field is called json


def _without_cells(view: dict) -> tuple[dict, bytes]:
    m = view.get("matrix")
    if m is None:
        return view, b""
    return {**view, "matrix": {k: v for k, v in m.items() if k != "cells"}}, bytes(m["cells"])


def encode_view(view: dict | None) -> View:
    """A view dict as a :class:`View`: ``view["matrix"]["cells"]`` taken out as the bytes, the
    rest as JSON (None: no view)."""
    if view is None:
        return View()
    state, cells = _without_cells(view)
    return View(view_json(state), cells)


def _view_to_json(value: View, _widget) -> dict:
    """What the front end receives: ``{"json", "cells", "patch", "base"}``: the whole view's JSON,
    or with ``patch`` true the JSON of its changes from the base view numbered ``base``
    (js/src/view_trait.js's ``viewOf`` applies them). ipywidgets sends the memoryview as a binary
    buffer of the same message (and saves it with the notebook's widget state), so JSON and cells
    always arrive together."""
    return {"json": value.patch or value.json, "cells": memoryview(value.cells),
            "patch": bool(value.patch), "base": value.base}


def view_trait() -> traitlets.Instance:
    """A synced trait holding one :class:`View` (read in JS by ``viewOf(model, name)``)."""
    return traitlets.Instance(View, args=()).tag(sync=True, to_json=_view_to_json)


HEADLINE = 4  # metrics named in a widget's text fallback


def view_summary(state: dict | None) -> tuple[str, list[tuple[str, str]]]:
    """A view state's title and (label, value) lines, for a text fallback: a sample view's title,
    state and first metric values; a run view's runs, sample count and first metric means
    (Undefined where a mean is None). ("", []) for no view."""
    if not state:
        return "", []
    if "card_groups" in state:
        cards = [c for g in state["card_groups"] for c in g["cards"] if c.get("status") != "not computable"]
        lines = [("state", state.get("state", ""))] if state.get("state") else []
        return state.get("title", ""), lines + [(c["label"], c.get("shown") or format_value(c.get("value")))
                                                for c in cards[:HEADLINE]] + _more(len(cards), "scores")
    if "summary" in state and "total" in state:
        rows = state["summary"]
        runs = [str(r) for r in state.get("runs") or dict.fromkeys(r["run"] for r in rows)]
        lines = [("runs" if len(runs) > 1 else "run", ", ".join(runs)), ("samples", str(state["total"]))]
        return "", lines + [(f"{metric_label(r['metric'])} ({r['run']})" if len(runs) > 1 else metric_label(r["metric"]),
                             format_value(r["mean"])) for r in rows[:HEADLINE]] + _more(len(rows), "means")
    return state.get("title", ""), []


def _more(total: int, what: str) -> list[tuple[str, str]]:
    """The line saying a fallback shows only the first HEADLINE of ``total`` (none when all show)."""
    return [("shown", f"first {HEADLINE} of {total} {what}")] if total > HEADLINE else []


def _request_number(content) -> int | str | None:
    request = content.get("request") if isinstance(content, dict) else None
    return None if isinstance(request, bool) or not isinstance(request, (int, str)) else request


def _failure(exc: BaseException) -> str:
    """A handler's exception as a reply's ``error``: ``"<ExceptionClass>: message"``."""
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


class Widget(anywidget.AnyWidget):
    """An anywidget whose keyword arguments must each name one of its traits. It answers the
    front end's ``{"type": "ping"}`` with ``{"type": "pong"}`` itself: a view that gets no answer
    is a saved snapshot without a kernel.

    Its other custom messages go to one dispatcher: ``_handlers()`` maps a message's ``type`` to
    a handler ``(content, buffers)``. A request (any type not in ``_notices``, and any message
    that is not an object) always gets exactly one reply carrying its ``request`` back:
    ``{"type": _reply_types.get(type, "reply"), "request", **fields}`` with the handler's result
    (a dict of fields, or (dict, buffers); any other value, e.g. an action's None, no fields), or ``{"type", "request", "error":
    "<ExceptionClass>: message"}`` when the handler raised anything or its reply could not be
    sent. A notice gets no reply. An exception is logged with its traceback (``logging``, logger
    ``ragwidgets.widgets.base``: a ValueError, an input refused with its reason, at DEBUG; any
    other at ERROR), never raised into the comm."""

    _reply_types: dict[str, str] = {}  # a request type -> its reply's type (default "reply")
    _notices: tuple[str, ...] = ()  # fire-and-forget types: handled, logged on failure, no reply

    def __init__(self, **kwargs):
        known = type(self).class_trait_names()
        unknown = sorted(set(kwargs) - set(known))
        if unknown:
            public = [n for n in known if not n.startswith("_")]
            close = difflib.get_close_matches(unknown[0], public, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {unknown[0]!r}{hint}")
        self._bases: dict[str, tuple[dict, int, int]] = {}  # a patched view trait -> its base's state, number, size
        self._numbers = itertools.count(1)  # base numbers, never reused: a patch names one base only
        super().__init__(**kwargs)

    def _show(self, name: str, view: dict | None) -> None:
        """Set view trait ``name`` (declared with its ``<name>_base`` view trait) to ``view``: as
        its changes from the base view when they are small (a passage toggle resends a few fields,
        not the sample's texts), else whole as a new base, both traits in one message. The base is
        kept as the front end has it (parsed from its JSON), so a view built later and edited in
        place never changes what the patches are computed from. None: no view, and no base."""
        if view is None:
            self._bases.pop(name, None)
            with self.hold_sync():
                setattr(self, f"{name}_base", View())
                setattr(self, name, View())
            return
        state, cells = _without_cells(view)
        if name in self._bases:
            base, number, size = self._bases[name]
            patch = view_json(view_patch(base, state))
            if len(patch) * REBASE <= size:
                setattr(self, name, View(cells=cells, patch=patch, base=number, origin=base))
                return
        whole = encode_view(view)
        number = next(self._numbers)
        self._bases[name] = (json.loads(whole.json), number, len(whole.json))
        with self.hold_sync():
            setattr(self, f"{name}_base", whole._replace(base=number))
            setattr(self, name, whole._replace(patch="[]", base=number))

    def _handlers(self) -> dict[str, Handler]:
        """The front end's message types this widget answers, each with its handler (none here:
        messages go to ``on_msg`` callbacks)."""
        return {}

    def _handle_custom_msg(self, content, buffers):
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            self.send({"type": "pong"})
            return
        handlers = self._handlers()
        if not handlers:
            super()._handle_custom_msg(content, buffers)
            return
        handler = handlers.get(kind) if isinstance(kind, str) else None
        notice = handler is not None and kind in self._notices
        reply = {"type": self._reply_types.get(kind, "reply") if isinstance(kind, str) else "reply",
                 "request": _request_number(content)}
        try:
            if not isinstance(content, dict):
                raise ValueError(f"a request must be an object with a 'type', not {content!r:.80}")
            if handler is None:
                raise ValueError(f"unknown request {kind!r:.80}; known: {', '.join(handlers)}")
            result = handler(content, list(buffers or []))
        except Exception as exc:  # noqa: BLE001 - every request gets a reply; a failure is its error
            self._log_failure(kind, exc)
            if not notice:
                self.send({**reply, "error": _failure(exc)})
            return
        if notice:
            return
        if not isinstance(result, tuple):
            result = (result if isinstance(result, dict) else {}, [])
        fields, data = result
        try:
            message = {**reply, **fields, "request": reply["request"]}
            if data:
                self.send(message, data)
            else:
                self.send(message)
        except Exception as exc:  # noqa: BLE001 - e.g. a reply that is not JSON: said instead
            self._log_failure(kind, exc)
            self.send({**reply, "error": _failure(exc)})

    def _log_failure(self, kind, exc: Exception) -> None:
        level = logging.DEBUG if isinstance(exc, ValueError) else logging.ERROR
        log.log(level, "%s: the front end's %r message failed", type(self).__name__, kind, exc_info=exc)

    def describe(self) -> tuple[str, list[tuple[str, str]]]:
        """What the widget shows, for its text / HTML fallback: a title and (label, value) lines
        (the run, n samples, the headline metrics). Default: read from its ``_view`` state
        (:func:`view_summary`); a widget without one overrides this."""
        view = getattr(self, "_view", None)
        return view_summary(view.state if isinstance(view, View) else None)

    def _repr_mimebundle_(self, **kwargs):
        """anywidget's bundle (the widget view) with a text/plain and a small text/html summary
        from :meth:`describe`, which a host shows where it cannot draw the widget."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle
        title, lines = self.describe()
        head = type(self).__name__ + (f": {title}" if title else "")
        note = "an interactive widget: run this cell with a kernel to explore it"
        data["text/plain"] = "\n".join([head, *(f"  {k}: {v}" for k, v in lines), f"({note})"])
        rows = "".join(f'<tr><th style="text-align:left">{html.escape(k)}</th><td>{html.escape(v)}</td></tr>'
                       for k, v in lines)
        data["text/html"] = (f'<div class="rw-fallback-summary"><b>{html.escape(head)}</b>'
                             + (f"<table>{rows}</table>" if rows else "") + f"<p><i>{html.escape(note)}</i></p></div>")
        return data, metadata
