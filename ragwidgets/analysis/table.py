"""One row per sample of a run: its query, its item counts and every metric, with each value's status.

The table is what every analysis reads: ``frame`` (query_id index; ``query``, ``response`` as
Arrow string columns, ``n_response_claims``, ``n_gt_claims``, ``n_passages`` and one float
column per metric, NaN where not defined; by default the metrics defined on at least one
sample, so a metric that is only Undefined or not computable in this run does not crowd the
table: ``Scores.aggregate()`` still counts it) and ``status`` (same rows, one int8 column per
metric: 0 defined, 1 Undefined, 2 not computable), so that Undefined is never confused with not computable.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..engine.evaluate import DEFINED, NOT_COMPUTABLE, STATUS_CODES, UNDEFINED, Scores

DEFINED_CODE, UNDEFINED_CODE, NOT_COMPUTABLE_CODE = (STATUS_CODES[s] for s in (DEFINED, UNDEFINED, NOT_COMPUTABLE))
COUNT_COLUMNS = ("n_response_claims", "n_gt_claims", "n_passages")


@dataclass(eq=False)
class RunTable:
    """A run's per-sample table (see the module docstring) and the Scores it came from."""

    scores: Scores
    frame: pd.DataFrame
    status: pd.DataFrame

    @property
    def metrics(self) -> list[str]:
        """The metric columns, in the engine's order."""
        return list(self.status.columns)

    @property
    def n(self) -> int:
        return len(self.frame)


def defined_metrics(scores: Scores) -> list[str]:
    """The metrics of ``scores`` defined on at least one sample, in the engine's order."""
    return [shown for part in scores.parts for shown, _, _, name in part.columns()
            if (part.code[name] == DEFINED_CODE).any()]


def run_table(scores: Scores, metrics: list[str] | None = None, *, share: bool = False) -> RunTable:
    """The per-sample table of ``scores`` with the columns of ``metrics`` (default: those defined
    on at least one sample; a metric the scores lack is not computable on every row). ``share``:
    the metric columns are read-only views of the engine's arrays, not copies (a run model's
    tables: at 1M samples a 1M x 14 copy less; a write into them raises rather than changing the
    Scores); otherwise the table owns its columns."""
    b = scores.batch
    index = pd.Index(b.query_ids, name="query_id")
    columns = {
        "query": pd.array(b.text_column("query"), dtype="str"),  # Arrow strings, not copied
        "response": pd.array(b.text_column("response"), dtype="str"),
        "n_response_claims": np.diff(b.resp_offset),
        "n_gt_claims": np.diff(b.gt_offset),
        "n_passages": np.diff(b.psg_offset),
    }
    have = {shown: (value, part.code[name]) for part in scores.parts for shown, value, _, name in part.columns()}
    status = {}
    for name in (defined_metrics(scores) if metrics is None else metrics):
        value, code = have.get(name, (np.full(b.n_samples, np.nan),
                                      np.full(b.n_samples, NOT_COMPUTABLE_CODE, dtype=np.int8)))
        columns[name] = _read_only(value) if share else value
        status[name] = _read_only(code) if share else code
    return RunTable(scores=scores, frame=pd.DataFrame(columns, index=index, copy=not share),
                    status=pd.DataFrame(status, index=index, copy=not share))


def _read_only(values: np.ndarray) -> np.ndarray:
    view = values.view()
    view.flags.writeable = False
    return view
