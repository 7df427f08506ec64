"""One row per sample of a run: its query, its item counts and every metric, with each value's status.

The table is what every analysis reads: ``frame`` (query_id index; ``query``, ``response``,
``n_response_claims``, ``n_gt_claims``, ``n_passages`` and one float column per metric, NaN
where not defined) and ``status`` (same rows, one int8 column per metric: 0 defined,
1 Undefined, 2 not computable), so that Undefined is never confused with not computable.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..engine.evaluate import NOT_COMPUTABLE, UNDEFINED, Scores

DEFINED_CODE, UNDEFINED_CODE, NOT_COMPUTABLE_CODE = 0, 1, 2
COUNT_COLUMNS = ("n_response_claims", "n_gt_claims", "n_passages")


def status_codes(status: np.ndarray) -> np.ndarray:
    """The engine's per-sample status strings as int8 codes (0 defined, 1 Undefined, 2 not computable)."""
    codes = np.zeros(len(status), dtype=np.int8)
    codes[status == UNDEFINED] = UNDEFINED_CODE
    codes[status == NOT_COMPUTABLE] = NOT_COMPUTABLE_CODE
    return codes


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


def run_table(scores: Scores) -> RunTable:
    """The per-sample table of ``scores`` (metrics not computable on any sample are left out)."""
    b = scores.batch
    samples = b.samples
    index = pd.Index([s.query_id for s in samples], name="query_id")
    columns = {
        "query": [s.query for s in samples],
        "response": [s.response for s in samples],
        "n_response_claims": np.diff(b.resp_offset),
        "n_gt_claims": np.diff(b.gt_offset),
        "n_passages": np.diff(b.psg_offset),
    }
    status = {}
    for name, value, stat, _ in (column for part in scores.parts for column in part.columns()):
        codes = status_codes(stat)
        if (codes == NOT_COMPUTABLE_CODE).all():
            continue
        columns[name] = value
        status[name] = codes
    return RunTable(scores=scores, frame=pd.DataFrame(columns, index=index),
                    status=pd.DataFrame(status, index=index))
