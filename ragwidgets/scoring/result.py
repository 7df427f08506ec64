"""``ScoringResult``: what ``RagChecker.score`` returns."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

import pandas as pd

from ..atomic import atomic_write
from ..judges.claims import claim_triple
from .aggregations import AggregatedMetric

if TYPE_CHECKING:
    from ..judges import Usage
    from .config import RagChecker

REASONS_COLUMN = "undefined_reasons"
UNJUDGED_COLUMN = "unjudged"


@dataclass
class ScoringResult:
    """Scores, the claims and labels behind them, and the per-task metrics.

    ``frame``: the input rows plus one column per score (NaN = Undefined), the claim and label
    columns (RAGChecker's names: ``response_claims``, ``answer2response``, ...; save the frame
    and score it again to spend nothing), ``undefined_reasons`` (score → why it is NaN) and, when
    the judge left something unjudged, ``unjudged``. ``metrics``: key → ``AggregatedMetric``.
    ``usage``: the judge work of this run (calls, cache hits, tokens, failures).
    """

    config: "RagChecker"
    frame: pd.DataFrame
    score_columns: tuple[str, ...]
    metrics: dict[str, AggregatedMetric]
    usage: "Usage"
    records: list[dict] = field(repr=False)

    @property
    def scores(self) -> pd.DataFrame:
        """Just the score columns."""
        return self.frame[list(self.score_columns)]

    @property
    def reasons(self) -> pd.DataFrame:
        """Rows × scores: why each NaN score is Undefined (None where the score is defined)."""
        rows = [{c: reasons.get(c) for c in self.score_columns} for reasons in self.frame[REASONS_COLUMN]]
        return pd.DataFrame(rows, index=self.frame.index, columns=list(self.score_columns))

    def metrics_frame(self) -> pd.DataFrame:
        """One row per metric: score, type, value, defined and Undefined sample counts."""
        return pd.DataFrame(
            [{"metric": m.key, "score": m.score, "type": m.type, "value": m.value, "defined": m.defined,
              "undefined": m.undefined} for m in self.metrics.values()]
        ).set_index("metric")

    def explain(self, row: Any, *, required: Optional[bool] = None):
        """How one row's scores are derived (``row``: an index label), by ``ragwidgets.evaluate``.

        ``required``: explain the scores over the required claims (default: as ``mode`` computes
        the unprefixed scores).
        """
        from ..engine import evaluate
        from .evaluation import engine_record
        from .requirements import sides_of

        if required is None:
            required = self.config.mode == "required_only"
        record = engine_record(self.records[self.frame.index.get_loc(row)], sides_of(self.config.scores), required)
        mode = "required_only" if required else "all_claims"
        return evaluate([record], list(self.config.scores), mode=mode).explain(0)

    def to_ragchecker(self) -> dict:
        """``{"results": [...]}``: the records in RAGChecker's format, claims as triples, with ``metrics``."""
        results = []
        for record, (_, row) in zip(self.records, self.frame.iterrows()):
            out = {k: ([claim_triple(c) for c in v] if k.endswith("_claims") and v is not None else v)
                   for k, v in record.items()}
            out["metrics"] = {c: (None if _nan(row[c]) else float(row[c])) for c in self.score_columns}
            results.append(out)
        return {"results": results}

    def to_ragchecker_json(self, path: Union[str, Path, None] = None, *, indent: Optional[int] = 2) -> str:
        """The RAGChecker-format results as JSON text; written to ``path`` when given."""
        text = json.dumps(self.to_ragchecker(), ensure_ascii=False, indent=indent)
        if path is not None:
            with atomic_write(path, encoding="utf-8") as out:  # the old file stays if this fails
                out.write(text)
        return text

    def __repr__(self) -> str:
        undefined = {c: int(self.frame[c].isna().sum()) for c in self.score_columns}
        shown = ", ".join(f"{c} {n}" for c, n in undefined.items() if n) or "none"
        size = f"{_count(len(self.frame), 'row')} × {_count(len(self.score_columns), 'score')}"
        usage = self.usage
        return (f"ScoringResult({self.config.name}: {size}, {_count(len(self.metrics), 'metric')}; "
                f"Undefined: {shown}; judge: {usage.calls} calls, {usage.cache_hits} cache hits, "
                f"{usage.total_tokens} tokens, {usage.failures} failures)")


def _nan(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
