"""``ScoringResult``: what ``RagChecker.score`` returns."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

import pandas as pd

from ..atomic import atomic_write
from ..engine.metrics import REQUIRED_PREFIX
from ..judges.claims import claim_triple
from ..loaders import parse_sample
from ..reviews import ReviewProblem, Reviews, as_reviews, gone, match, warn_problems
from .aggregations import AggregatedMetric
from .columns import STORED_FIELDS, write_back
from .evaluation import score_records

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
    Reviewed (:meth:`reviewed`, ``RagChecker.score(..., reviews=)``): ``reviews``, the
    ``review_problems`` (reviews that did not match, not applied) and ``judge_result``, the
    result under the judge's own labels; the frame, metrics and records hold the reviewed labels.
    """

    config: "RagChecker"
    frame: pd.DataFrame
    score_columns: tuple[str, ...]
    metrics: dict[str, AggregatedMetric]
    usage: "Usage"
    records: list[dict] = field(repr=False)
    reviews: Optional[Reviews] = None
    review_problems: list[ReviewProblem] = field(default_factory=list)
    judge_result: Optional["ScoringResult"] = field(default=None, repr=False)

    def reviewed(self, reviews) -> "ScoringResult":
        """The same scoring with ``reviews`` (a reviews file's path or an in-memory object:
        :func:`ragwidgets.reviews.as_reviews`) applied to the judge's labels; no judge call. Reviews
        replace those of an already reviewed result, never stack. A review that does not match
        its row is left out, listed in ``review_problems`` and warned about."""
        base = self.judge_result or self
        reviews = as_reviews(reviews)
        records, problems = review_records(base.records, reviews)
        warn_problems(problems)
        out = build_result(self.config, base.frame, records, base.usage)
        out.reviews, out.review_problems, out.judge_result = reviews, problems, base
        return out

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


def build_result(config: "RagChecker", frame: pd.DataFrame, records: list[dict], usage: "Usage") -> ScoringResult:
    """The scores of filled records, written back into the frame, and the metrics over them."""
    values, reasons = score_records(records, config.scores, config.mode)
    renamed = {prefix + name: prefix + column for name, column in config.score_names.items() if name != column
               for prefix in ("", REQUIRED_PREFIX)}
    if renamed:
        values = values.rename(columns=renamed)
        reasons = [{renamed.get(k, k): v for k, v in row.items()} for row in reasons]
    out = write_back(frame.drop(columns=[UNJUDGED_COLUMN], errors="ignore"), records,
                     [f for f in STORED_FIELDS if f in config.needs])
    for column in values.columns:
        out[column] = values[column].to_numpy()
    out[REASONS_COLUMN] = pd.Series(reasons, index=out.index, dtype=object)
    if any(record.get("unjudged") for record in records):
        out[UNJUDGED_COLUMN] = pd.Series([record.get("unjudged") or [] for record in records], index=out.index,
                                         dtype=object)
    metrics = {template.name: template.compute(out[template.score], out) for template in config.aggregations}
    return ScoringResult(config, out, tuple(values.columns), metrics, usage, records)


def review_records(records: list[dict], reviews: Reviews) -> tuple[list[dict], list[ReviewProblem]]:
    """The records with ``reviews`` applied (copies of the reviewed records' label lists; the input
    untouched) and the reviews that did not match (as :func:`ragwidgets.reviews.apply_to_sample`
    finds them)."""
    position = {str(r.get("query_id", p)): p for p, r in enumerate(records)}
    problems = gone(reviews, position)
    out = list(records)
    for qid in reviews.query_ids:
        if qid not in position:
            continue
        p = position[qid]
        record = dict(records[p])
        sample = parse_sample({k: v for k, v in record.items() if k != "unjudged"}, p)
        found, wrong = match(sample, reviews.for_sample(qid))
        problems += wrong
        for review, cell in found:
            labels = record[review.kind] = [list(row) if isinstance(row, list) else row for row in record[review.kind]]
            if len(cell) == 1:
                labels[cell[0]] = review.label
            else:
                labels[cell[0]][cell[1]] = review.label
        out[p] = record
    return out, problems


def _nan(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
