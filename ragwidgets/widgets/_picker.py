"""The sample picker's search, server side: the front end sends what the user typed, Python
answers with the first matching samples. Nothing of the run's size ever enters the view.

A search is words and conditions: ``museum faithfulness<0.5 hallucination=undefined``. Words
match the query text or the query_id (case-insensitive, all must match); a condition compares a
metric (``<``, ``<=``, ``>``, ``>=``, ``=``, ``!=``) with a number or ``undefined``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..analysis.filtering import expression_mask

CONDITION = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=|!=|<|>|=)\s*(undefined|[-+]?\d*\.?\d+)$", re.IGNORECASE)
SHOWN_METRICS = ("faithfulness", "hallucination", "claim_recall", "context_precision", "precision", "recall")
QUERY_CHARS = 140  # of a result's query text


@dataclass
class Search:
    words: list[str]
    conditions: list[tuple[str, str, float | None]]  # (metric, operator, value; None = Undefined)


def parse_search(text: str, metrics) -> Search:
    """Split a search into words and metric conditions; ValueError names an unknown metric."""
    tokens = re.sub(r"\s*(<=|>=|!=|<|>|=)\s*", r"\1", str(text)).split()
    words, conditions = [], []
    for token in tokens:
        m = CONDITION.match(token)
        if not m:
            words.append(token.lower())
            continue
        name, op, value = m.group(1).lower(), m.group(2), m.group(3).lower()
        if name not in metrics:
            raise ValueError(f"unknown metric {name!r} in the search; known: {', '.join(metrics)}")
        if value == "undefined" and op not in ("=", "!="):
            raise ValueError(f"{name}{op}undefined: only = and != compare with undefined")
        conditions.append((name, op, None if value == "undefined" else float(value)))
    return Search(words, conditions)


def condition_expression(conditions) -> str:
    """The conditions as one filter expression (``faithfulness<0.5`` → ``faithfulness < 0.5``,
    ``=undefined`` → ``== None``), for the evaluator that serves every filter."""
    return " and ".join(f"{name} {'==' if op == '=' else op} {'None' if value is None else repr(value)}"
                        for name, op, value in conditions)


class SampleIndex:
    """What the picker searches: each sample's query_id and query text, and (given, or computed
    on the first search) a samples x metrics frame with NaN for Undefined."""

    def __init__(self, query_ids: list[str], queries: list[str], frame=None, compute_frame=None):
        self.query_ids = pd.Series(query_ids, dtype=object)
        self.queries = pd.Series(queries, dtype=object)
        self._haystack = None
        self._frame = frame
        self._compute_frame = compute_frame

    def __len__(self) -> int:
        return len(self.query_ids)

    @property
    def frame(self) -> pd.DataFrame:
        if self._frame is None:
            self._frame = self._compute_frame()
        return self._frame

    def _text(self) -> pd.Series:
        if self._haystack is None:
            self._haystack = (self.query_ids.astype(str) + "\n" + self.queries.astype(str)).str.lower()
        return self._haystack

    def search(self, text: str, limit: int = 50) -> dict:
        """{"matches": how many samples match, "rows": the first ``limit`` of them, each
        {index, query_id, query (cut), metrics: {name: value or None}}}."""
        frame = self.frame
        s = parse_search(text, list(frame.columns))
        mask = np.ones(len(self), dtype=bool)
        haystack = self._text()
        for word in s.words:
            mask &= haystack.str.contains(word, regex=False).to_numpy()
        if s.conditions:
            mask &= expression_mask(frame, condition_expression(s.conditions))
        hits = np.flatnonzero(mask)
        shown = [n for n in dict.fromkeys([c[0] for c in s.conditions] + list(SHOWN_METRICS)) if n in frame.columns]
        rows = []
        for i in hits[:limit]:
            query = str(self.queries.iat[i])
            rows.append({"index": int(i), "query_id": str(self.query_ids.iat[i]),
                         "query": query if len(query) <= QUERY_CHARS else query[:QUERY_CHARS - 1] + "…",
                         "metrics": {n: (None if np.isnan(v) else round(float(v), 3))
                                     for n in shown for v in [frame[n].iat[i]]}})
        return {"matches": int(len(hits)), "rows": rows}
