"""What a DatasetExplorer panel sees and gives back. The core (``core.py``) holds the widget; a
panel (one module here, one in ``js/src/dataset/``) holds the run model (its table, order, runs,
capabilities), gets a :class:`Context` (the widget's plain values), returns its part of the view
and answers its requests with dicts, and never reaches the widget. The small tables every panel
sends are :func:`frame_view`'s."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .._paths import front_end_path

NOTHING, DRILL, VIEW, ROWS, REVIEWED = "", "drill", "view", "rows", "reviewed"  # what a request redraws


@dataclass(frozen=True)
class Context:
    """The widget's plain values a panel sees, besides its run model: the controls' values, the
    selected row, the folder the front end's files are confined to and whether they may be
    replaced there, the name new reviews carry, the judge whose traces open and the reading
    queue the samples read were drawn by (``reading``: {run: ReadingQueue}; None: none)."""

    controls: dict
    selected: int
    files_root: Path
    overwrite: bool
    reviewer: str
    judge: object
    reading: dict | None = None


class Panel:
    """A panel over the run model ``model``: its part of the view and the requests it answers.
    ``requests`` maps each request type to what the core redraws after it (NOTHING, DRILL: the
    drill-down, VIEW: the view, ROWS: the model's rows and the view, REVIEWED: labels were
    reviewed: every panel's :meth:`reviewed`, the rows, the view and the drill-down); the
    request's answer is the method ``on_<type>(ctx, message)``, returning the reply's fields (a
    dict, or (dict, buffers); None: none). ``key`` is its JS twin's."""

    key = ""
    requests: dict[str, str] = {}

    def __init__(self, model):
        self.model = model

    def defaults(self) -> dict:
        """The controls' values the explorer opens with, as this panel chooses them."""
        return {}

    def part(self, ctx: Context, view: dict) -> dict:
        """The keys this panel adds to the view (or replaces in ``view``, the model's view data)."""
        return {}

    def reviewed(self, ctx: Context) -> None:
        """Labels of the run were reviewed (the model holds them)."""


def judged_scores(model) -> dict:
    """The judge's Scores per run (the model's scores carry the reviews); none for a run that cannot review."""
    return {run: s.judge_scores or s for run, s in model.scores.items()} if "reviews" in model.capabilities else {}


def front_end_file(ctx: Context, content: dict, *, write: bool) -> Path:
    """The file a request's ``path`` names, confined to ``files_root`` (see ``widgets._paths``):
    never out of it, and a file to write new unless Python set ``overwrite``."""
    return front_end_path(ctx.files_root, content.get("path"), write=write, overwrite=ctx.overwrite)


def frame_view(frame: pd.DataFrame) -> dict:
    """A small table as the view carries it: its columns and rows, NaN and None as None (Undefined)."""
    rows = [[None if (isinstance(v, float) and math.isnan(v)) else (v.item() if isinstance(v, np.generic) else v)
             for v in row] for row in frame.itertuples(index=False)]
    return {"columns": [str(c) for c in frame.columns], "rows": rows}


def whole(value, name: str, lo: int | None, hi: int | None) -> int:
    """``value`` as an int, or ValueError unless it is a whole number from ``lo`` to ``hi`` (None: no bound)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or (
            lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f" from {lo} to {hi}" if hi is not None else f" ≥ {lo}" if lo is not None else ""
        raise ValueError(f"{name} must be a whole number{bounds}, not {value!r:.80}")
    return int(value)


def text(content: dict, name: str) -> str:
    """``content[name]``, or ValueError unless it is a non-blank string."""
    value = content.get(name)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string, not {value!r:.80}")
    return value
