"""The held frame's rows as a :class:`~.protocol.Query` keeps and orders them: :class:`Rows`
filters (run, text, expression, slice, chosen samples, brush), sorts (any column, or the difference from the
baseline run) and reads windows of rows, each from arrays found once."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..filtering import TextIndex, expression_mask
from ..table import COUNT_COLUMNS, DEFINED_CODE, NOT_COMPUTABLE_CODE, UNDEFINED_CODE
from .protocol import Query


def order_by(values: np.ndarray, descending: bool) -> np.ndarray:
    """Positions of ``values`` in ascending (or descending) order, ties in position order, NaN last."""
    order = np.argsort(-values if descending else values, kind="stable")
    missing = np.isnan(values[order])
    return np.concatenate([order[~missing], order[missing]])


class Rows:
    """Filter, sort and window ``frame`` (``run``, ``query_id``, query, response, numbers; one
    block of rows per run of ``runs``, the first the baseline), its ``status`` codes per metric.

    ``values`` / ``codes``: each metric's and each ``external`` column's values and status codes
    (an external NaN: not computable), the arrays a review replaces (:meth:`changed`);
    ``slice_rows``: each slice's rows, kept by the run model.
    """

    def __init__(self, frame: pd.DataFrame, status: pd.DataFrame, runs: list[str], metrics: list[str],
                 external: list[str], slice_rows: dict[str, np.ndarray]):
        self.frame, self.status, self.runs, self.slice_rows = frame, status, runs, slice_rows
        self.run_code = pd.Categorical(frame["run"], categories=runs).codes
        self.values = {m: frame[m].to_numpy(dtype=float) for m in metrics}
        self.codes = {m: status[m].to_numpy() for m in metrics}
        for c in external:  # other tools' numbers: charted and filtered like a metric, NaN = missing
            self.values[c] = frame[c].to_numpy(dtype=float)
            self.codes[c] = np.where(np.isnan(self.values[c]), NOT_COMPUTABLE_CODE, DEFINED_CODE).astype(np.int8)
        self._text_index = TextIndex.later(frame.set_index("query_id"))  # built beside the rest; a search waits
        self._numeric = frame.drop(columns=["query", "response", "run", "query_id"])
        self._text_cache: tuple[str, np.ndarray] | None = None
        self._expression_cache: tuple[str, np.ndarray | None] = ("", None)
        self._samples_cache: tuple[tuple[str, ...], np.ndarray | None] = ((), None)
        self._ranks: dict[str, np.ndarray] = {}  # other column -> each row's value or rank, for sorting
        self._orders: dict[tuple[str, bool], tuple[np.ndarray, np.ndarray]] = {}  # (key, descending) -> (values, order)

    def changed(self, metrics: list[str]) -> None:
        """Read ``metrics`` again from ``frame`` / ``status`` (a review changed them)."""
        for m in metrics:
            self.values[m] = self.frame[m].to_numpy(dtype=float)
            self.codes[m] = self.status[m].to_numpy()
        self._numeric = self.frame.drop(columns=["query", "response", "run", "query_id"])
        self._expression_cache = ("", None)

    def set_columns(self, columns: dict[str, np.ndarray]) -> None:
        """Add or replace ``columns`` (one value per row; not a metric's) in ``frame``, for the
        filter, the sort and the windows (a failure mode's column after a note)."""
        for name, values in columns.items():
            self.frame[name] = values
            self._numeric[name] = values
            self._ranks.pop(name, None)
        self._expression_cache = ("", None)

    def drop_columns(self, names) -> None:
        """Drop ``set_columns``' columns ``names`` from ``frame`` (a failure mode no note carries any more)."""
        for name in names:
            del self.frame[name]
            if name in self._numeric:
                del self._numeric[name]
            self._ranks.pop(name, None)
        self._expression_cache = ("", None)

    def check_expression(self, expression: str) -> None:
        """ValueError when ``expression`` does not evaluate on the rows; its mask is kept for the filter."""
        if expression.strip() and self._expression_cache[0] != expression:
            self._expression_cache = (expression, expression_mask(self._numeric, expression))

    def _text_mask(self, text: str) -> np.ndarray:
        if self._text_cache is None or self._text_cache[0] != text:
            self._text_cache = (text, self._text_index.result().mask(text))
        return self._text_cache[1]

    def _samples_mask(self, samples: tuple[str, ...]) -> np.ndarray:
        """The rows whose query_id is one of ``samples`` (found once per set of samples)."""
        if self._samples_cache[0] != samples:
            self._samples_cache = (samples, self.frame["query_id"].isin(samples).to_numpy())
        return self._samples_cache[1]

    def mask(self, q: Query, with_brush: bool = True) -> np.ndarray:
        """Mask of the rows ``q`` keeps (the brush only when ``with_brush``)."""
        mask = np.ones(len(self.frame), dtype=bool)
        if q.run:
            mask &= self.run_code == self.runs.index(q.run)
        if q.text:
            mask &= self._text_mask(q.text)
        if q.expression.strip():
            self.check_expression(q.expression)
            mask &= self._expression_cache[1]
        if q.slice:
            inside = np.zeros(len(mask), dtype=bool)
            inside[self.slice_rows[q.slice]] = True
            mask &= inside
        if q.samples:
            mask &= self._samples_mask(q.samples)
        b = q.brush
        if with_brush and b.get("metric") in self.values:
            codes = self.codes[b["metric"]]
            if b.get("undefined"):
                mask &= codes == UNDEFINED_CODE
            else:
                v = self.values[b["metric"]]
                with np.errstate(invalid="ignore"):
                    mask &= (codes == DEFINED_CODE) & (v >= float(b.get("lo", 0))) & (v <= float(b.get("hi", 1)))
        return mask

    def sort(self, rows: np.ndarray, q: Query) -> np.ndarray:
        """``rows`` (positions, ascending) in the order of ``q.sort_by``, Undefined last either way,
        ties in row order: every row's order is found once per key and direction (again when a
        review changed the key's values), then the kept rows are read off it."""
        key = q.sort_by
        if not key:
            return rows
        if key == "difference":
            order = order_by(self.difference(q.compare_metric), q.descending)
        else:
            values = self.column_values(key)
            last = self._orders.get((key, q.descending))
            if last is None or last[0] is not values:
                last = self._orders[(key, q.descending)] = (values, order_by(values, q.descending))
            order = last[1]
        kept = np.zeros(len(self.frame), dtype=bool)
        kept[rows] = True
        return order[kept[order]]

    def column_values(self, key: str) -> np.ndarray:
        """Every row's value of ``key`` as floats: a metric's (the array a review replaces), a
        numeric column's, else (to sort by) a text's rank; the last two found once."""
        if key in self.values:
            return self.values[key]
        if key not in self._ranks:
            column = self.frame[key]
            self._ranks[key] = (column.to_numpy(dtype=float) if pd.api.types.is_numeric_dtype(column)
                                else pd.factorize(column, sort=True)[0].astype(float))
        return self._ranks[key]

    def difference(self, metric: str) -> np.ndarray:
        """Per row: its ``metric`` minus the baseline run's on the same query (NaN where either is
        not defined, on the baseline's rows, and everywhere for one run)."""
        if len(self.runs) < 2 or metric not in self.values:
            return np.full(len(self.frame), np.nan)
        value = np.where(self.codes[metric] == DEFINED_CODE, self.values[metric], np.nan)
        base = pd.Series(value[self.run_code == 0], index=self.frame["query_id"][self.run_code == 0])
        diff = value - self.frame["query_id"].map(base).to_numpy(dtype=float)
        diff[self.run_code == 0] = np.nan
        return diff

    def window(self, rows: np.ndarray, metrics: list[str], external: list[str], compare_metric: str,
               more: list[str] = ()) -> dict:
        """The rows at ``rows`` (positions in ``frame``): their text columns and numeric ones (the
        item counts, ``metrics``, ``external``, ``more`` (other numeric columns: the failure modes')
        and, comparing runs, the difference in ``compare_metric``)."""
        comparing = len(self.runs) > 1
        numeric = [*COUNT_COLUMNS, *metrics, *external, *more] + (["difference"] if comparing else [])
        diff = self.difference(compare_metric) if comparing else None
        at = rows.tolist()
        # Only the window's rows leave pandas, a text one cell at a time: a take from an Arrow
        # column of many chunks joins them all first (~17 ms for 200 rows of a 1M-sample run).
        texts = {}
        for c in ("run", "query_id", "query"):
            column = self.frame[c]
            texts[c] = [column.iat[i] for i in at]
        return {"positions": rows, "run": texts["run"], "query_id": texts["query_id"], "query": texts["query"],
                "numeric": {name: (diff if name == "difference" else self.column_values(name))[rows]
                            for name in numeric},
                "status": {m: self.codes[m][rows] for m in (*metrics, *external)}}
