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
import pyarrow as pa
import pyarrow.compute as pc

from .expression import parse

TEXT_COLUMNS = ("query", "response")


def expression_mask(frame: pd.DataFrame, expression: str) -> np.ndarray:
    """Rows of ``frame`` where ``expression`` holds; an ExpressionError (a ValueError) naming the
    part at fault when it is refused or cannot be evaluated."""
    return parse(expression, frame.columns).mask(frame)


class TextIndex:
    """Case-insensitive substring search over query_id, query and response: one Arrow column of
    the three joined by NUL and lowercased once (as ``str.lower`` does: Arrow's lowercasing for
    ASCII rows, Python's for the others), searched by ``pyarrow.compute.match_substring``."""

    def __init__(self, frame: pd.DataFrame):
        parts = [_strings(frame.index)] + [_strings(frame[c]) for c in TEXT_COLUMNS if c in frame]
        joined = pc.binary_join_element_wise(*parts, pa.scalar("\x00", pa.large_string()))
        lowered = pc.ascii_lower(joined)
        other = np.flatnonzero(~pc.string_is_ascii(joined).to_numpy(zero_copy_only=False))
        if len(other):  # full Unicode case mapping (İ -> i̇), as str.lower
            fixed = pa.array([t.lower() for t in joined.take(other).to_pylist()], type=pa.large_string())
            mask = np.zeros(len(joined), dtype=bool)
            mask[other] = True
            lowered = pc.replace_with_mask(lowered, pa.array(mask), fixed)
        self._text = lowered

    def mask(self, text: str) -> np.ndarray:
        """Rows whose query_id, query or response contains ``text`` (all rows for an empty text)."""
        if not text:
            return np.ones(len(self._text), dtype=bool)
        return pc.match_substring(self._text, text.lower()).to_numpy(zero_copy_only=False)


def _strings(values) -> pa.Array:
    """``values`` (a pandas column or index) as one Arrow large_string array (Arrow-backed: not copied)."""
    array = pa.array(values) if isinstance(values.dtype, pd.StringDtype) else pa.array(values.astype(str).to_numpy())
    return array.cast(pa.large_string()) if array.type != pa.large_string() else array


def filter_rows(frame: pd.DataFrame, text: str = "", expression: str = "",
                index: TextIndex | None = None) -> np.ndarray:
    """Positions of the rows matching both the text search and the expression (each optional)."""
    mask = (index or TextIndex(frame)).mask(text) if text else np.ones(len(frame), dtype=bool)
    if expression.strip():
        mask &= expression_mask(frame, expression)
    return np.flatnonzero(mask)
