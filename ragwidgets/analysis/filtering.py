"""Row filters over a run's table: a text search and a filter expression.

An expression reads the table's columns (metrics, ``n_response_claims``, ``n_gt_claims``,
``n_passages``): ``hallucination > 0 and claim_recall < 1``, in the language of
:mod:`ragwidgets.analysis.expression` (parsed against a whitelist, never evaluated as Python). A
comparison with an Undefined value (NaN) is false, so Undefined samples never pass a threshold by
accident.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .expression import parse

TEXT_COLUMNS = ("query", "response")


def expression_mask(frame: pd.DataFrame, expression: str) -> np.ndarray:
    """Rows of ``frame`` where ``expression`` holds; an ExpressionError (a ValueError) naming the
    part at fault when it is refused or cannot be evaluated."""
    return parse(expression, frame.columns).mask(frame)


class TextIndex:
    """Case-insensitive substring search over query_id, query and response, lowercased once."""

    def __init__(self, frame: pd.DataFrame):
        parts = [frame.index.astype(str).str.lower()]
        parts += [frame[c].astype(str).str.lower() for c in TEXT_COLUMNS if c in frame]
        self._text = pd.Series(parts[0], copy=False)
        for part in parts[1:]:
            self._text = self._text + "\x00" + np.asarray(part, dtype=object)

    def mask(self, text: str) -> np.ndarray:
        """Rows whose query_id, query or response contains ``text`` (all rows for an empty text)."""
        if not text:
            return np.ones(len(self._text), dtype=bool)
        return np.array(self._text.str.contains(text.lower(), regex=False), dtype=bool)


def filter_rows(frame: pd.DataFrame, text: str = "", expression: str = "",
                index: TextIndex | None = None) -> np.ndarray:
    """Positions of the rows matching both the text search and the expression (each optional)."""
    mask = (index or TextIndex(frame)).mask(text) if text else np.ones(len(frame), dtype=bool)
    if expression.strip():
        mask &= expression_mask(frame, expression)
    return np.flatnonzero(mask)
