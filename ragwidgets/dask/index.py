"""What the run explorer's questions need of one partition, built once and kept on its worker.

A :class:`PartIndex` holds, per metric, compact columns of the partition's scores (float64
values, int8 status codes), the positions of its defined rows sorted by value (ascending and
descending, ties in the run's order: a sort is ``order[kept[order]][:n]``), each row's chart bin
and scatter bin (-1 where not defined or outside [0, 1]) and each row's distinct value, so that
a view's pieces are bincounts under the filter's mask rather than passes over pandas columns.

Totals are :mod:`.totals`' ``[defined, undefined, not_computable, sum]``; ``sum`` is the exact
sum of the defined values (units of ``2**-SHIFT``, :mod:`ragwidgets.engine.sums`) computed as
each distinct value's exact units times how many kept rows hold it, equal to ``exact_sum`` of
those values: each row of a metric has a slot (its distinct value's place, or Undefined, or not
computable), and one bincount of the kept rows' slots counts every metric at once. A metric with
more than ``DISTINCT`` distinct values in a partition (or a non-finite value) has one slot for
its defined rows and is summed by ``exact_sum`` of the kept values. numpy and pandas: nothing of
Dask here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..analysis.aggregates import BINS
from ..analysis.filtering import expression_mask
from ..analysis.table import DEFINED_CODE, NOT_COMPUTABLE_CODE, UNDEFINED_CODE
from ..engine.sums import exact_sum, exact_units

DISTINCT = 4096  # distinct values of a metric in a partition summed by counts (RAGChecker's: ratios of counts)
SCATTER_BINS = 20  # analysis.aggregates.scatter_cells' grid
EDGES = np.histogram([], bins=BINS, range=(0.0, 1.0))[1].round(6).tolist()  # distribution()'s edges


def bins_of(values: np.ndarray, codes: np.ndarray, bins: int) -> np.ndarray:
    """Each row's bin of ``np.histogram(defined values, bins, range=(0, 1))`` (edges[i] <= v <
    edges[i + 1], the last bin including 1; as histogram2d's per axis); -1 where the row is not
    defined or its value lies outside [0, 1]."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    out = np.searchsorted(edges, values, side="right") - 1
    out[values == 1.0] = bins - 1
    with np.errstate(invalid="ignore"):
        out[(codes != DEFINED_CODE) | ~((values >= 0.0) & (values <= 1.0))] = -1
    return out.astype(np.int8)


@dataclass
class Column:
    """One metric of one partition (see the module docstring); ``whole``: the totals of all rows."""

    values: np.ndarray  # float64, NaN unless defined
    codes: np.ndarray  # int8 status codes
    ascending: np.ndarray  # int32 positions of the defined rows, by value (ties: by position)
    descending: np.ndarray  # the same, highest first (ties: by position)
    chart: np.ndarray  # int8 bin of the distribution (BINS), -1 none
    cell: np.ndarray  # int8 bin of the scatter's axis (SCATTER_BINS), -1 none
    slot: np.ndarray  # per row: start + its value's place in ``units`` if defined, else start + width - 2
    # (Undefined) or start + width - 1 (not computable)
    units: list[int] | None  # the distinct defined values' exact units; None: one slot, summed by exact_sum
    whole: tuple[int, ...] = ()
    start: int = 0  # the first of this metric's slots in its partition's slot table

    @classmethod
    def of(cls, values, codes) -> Column:
        values = np.asarray(values, dtype=float)
        codes = np.asarray(codes, dtype=np.int8)
        defined = np.flatnonzero(codes == DEFINED_CODE)
        held = values[defined]
        ascending = defined[np.argsort(held, kind="stable")].astype(np.int32)
        descending = defined[np.argsort(-held, kind="stable")].astype(np.int32)
        distinct, inverse = np.unique(held, return_inverse=True)
        units = exact_units(distinct) if len(distinct) <= DISTINCT and np.isfinite(distinct).all() else None
        width = (1 if units is None else len(units)) + 2
        slot = np.where(codes == UNDEFINED_CODE, width - 2, width - 1).astype(np.int32)
        slot[defined] = 0 if units is None else inverse.reshape(-1)
        column = cls(values, codes, ascending, descending, bins_of(values, codes, BINS),
                     bins_of(values, codes, SCATTER_BINS), slot, units)
        column.whole = tuple(column.total(slice(None)))
        return column

    @property
    def width(self) -> int:
        """How many slots a row of this metric can be in."""
        return (1 if self.units is None else len(self.units)) + 2

    def total(self, rows) -> list[int]:
        """Totals of the rows ``rows`` selects (a bool mask or positions; None: all, kept from the start)."""
        if rows is None:
            return list(self.whole)
        return self.of_slots(np.bincount(self.slot[rows], minlength=self.start + self.width)[self.start:], rows)

    def of_slots(self, seen: np.ndarray, rows) -> list[int]:
        """Totals of the rows ``rows`` whose slots were counted ``seen``."""
        defined = seen[:-2]
        counts = [int(defined.sum()), int(seen[-2]), int(seen[-1])]
        if self.units is None:
            return counts + [exact_sum(self.values[rows][self.codes[rows] == DEFINED_CODE])]
        held = np.flatnonzero(defined)
        return counts + [sum(self.units[k] * c for k, c in zip(held.tolist(), defined[held].tolist()))]


@dataclass(frozen=True)
class Groups:
    """A group column of one partition: its distinct values (``names``; NaN left out, as pandas'
    groupby does) and the positions of each one's rows."""

    names: list
    members: list[np.ndarray]

    @classmethod
    def of(cls, values: pd.Series) -> Groups:
        codes, names = pd.factorize(values, sort=False)
        order = np.argsort(codes, kind="stable")
        bounds = np.searchsorted(codes[order], np.arange(len(names) + 1))
        return cls(list(names), [order[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:])])


@dataclass(frozen=True)
class PartIndex:
    """One partition's scores, indexed (see the module docstring); ``frame`` is the partition's
    score frame (filter expressions read it; the table's rows are taken from it)."""

    frame: pd.DataFrame
    columns: dict[str, Column]
    groups: dict[str, Groups]
    slots: np.ndarray  # every metric's slots (Column.slot), one row each

    @classmethod
    def of(cls, frame: pd.DataFrame, metrics, group_columns) -> PartIndex:
        frame = frame.reset_index(drop=True)
        columns = {m: Column.of(frame[m].to_numpy(), frame[m + "_status"].to_numpy()) for m in metrics}
        starts = np.cumsum([0] + [c.width for c in columns.values()]).tolist()
        slots = np.zeros((len(columns), len(frame)), dtype=np.int16 if starts[-1] <= 2 ** 15 else np.int32)
        for k, (column, start) in enumerate(zip(columns.values(), starts)):
            slots[k] = column.slot + start
            column.slot, column.start = slots[k], start  # a view of the table: the slots held once
        return cls(frame, columns, {g: Groups.of(frame[g]) for g in group_columns}, slots)

    def totals(self, kept: np.ndarray | None) -> dict[str, list[int]]:
        """Every metric's totals over the kept rows: one gather and one bincount for all of them."""
        if kept is None:
            return {m: list(c.whole) for m, c in self.columns.items()}
        seen = np.bincount(self.slots[:, kept].ravel(), minlength=sum(c.width for c in self.columns.values()))
        out, start = {}, 0
        for m, column in self.columns.items():
            out[m] = column.of_slots(seen[start:start + column.width], kept)
            start += column.width
        return out

    def masks(self, expression: str, brush: dict) -> tuple[np.ndarray | None, np.ndarray | None]:
        """(rows the expression keeps, rows the expression and the brush keep) as bool masks; None
        for every row. ``brush``: ``{}``, ``{"metric", "lo", "hi"}`` (defined values in [lo, hi])
        or ``{"metric", "undefined": True}``."""
        unbrushed = expression_mask(self.frame, expression) if expression.strip() else None
        if not brush.get("metric"):
            return unbrushed, unbrushed
        column = self.columns[brush["metric"]]
        if brush.get("undefined"):
            inside = column.codes == UNDEFINED_CODE
        else:
            values = column.values
            with np.errstate(invalid="ignore"):
                inside = ((column.codes == DEFINED_CODE) & (values >= float(brush.get("lo", 0)))
                          & (values <= float(brush.get("hi", 1))))
        return unbrushed, inside if unbrushed is None else unbrushed & inside

    def first(self, metric: str, descending: bool, n: int, kept: np.ndarray | None) -> tuple[np.ndarray, int]:
        """Positions of the first ``n`` kept rows with ``metric`` defined, by its value (highest
        first when ``descending``; ties in the run's order), and how many kept rows have it defined."""
        column = self.columns[metric]
        order = column.descending if descending else column.ascending
        chosen = order if kept is None else order[kept[order]]
        return chosen[:n], len(chosen)

    def distribution(self, metric: str, kept: np.ndarray | None) -> dict:
        """analysis.aggregates.distribution of ``metric`` over the kept rows."""
        column = self.columns[metric]
        rows = slice(None) if kept is None else kept
        counts = np.bincount(column.chart[rows].astype(np.intp) + 1, minlength=BINS + 1)[1:]
        status = np.bincount(column.codes[rows], minlength=3)
        return {"edges": EDGES, "counts": counts.tolist(), "undefined": int(status[UNDEFINED_CODE]),
                "not_computable": int(status[NOT_COMPUTABLE_CODE])}

    def group_totals(self, metric: str, by: str, kept: np.ndarray | None) -> dict:
        """Totals of ``metric`` per value of group column ``by`` over the kept rows (groups with
        no kept row left out)."""
        column, groups = self.columns[metric], self.groups[by]
        out = {}
        for name, rows in zip(groups.names, groups.members):
            rows = rows if kept is None else rows[kept[rows]]
            if len(rows):
                out[name] = column.total(rows)
        return out

    def scatter(self, x: str, y: str, kept: np.ndarray | None) -> dict:
        """analysis.aggregates.scatter_cells of ``x`` against ``y`` over the kept rows, its cells
        counted (``{(ix, iy): count}``)."""
        rows = slice(None) if kept is None else kept
        cx, cy = self.columns[x], self.columns[y]
        both = np.count_nonzero((cx.codes[rows] == DEFINED_CODE) & (cy.codes[rows] == DEFINED_CODE))
        bx, by = cx.cell[rows].astype(np.intp), cy.cell[rows].astype(np.intp)
        inside = (bx >= 0) & (by >= 0)
        counts = np.bincount(bx[inside] * SCATTER_BINS + by[inside], minlength=SCATTER_BINS ** 2)
        cells = np.flatnonzero(counts)
        kept_rows = len(self.frame) if kept is None else int(np.count_nonzero(kept))
        return {"bins": SCATTER_BINS, "left_out": kept_rows - both,
                "cells": Counter({divmod(k, SCATTER_BINS): c for k, c in zip(cells.tolist(), counts[cells].tolist())})}
