"""Running a ``RagChecker``: rows → records → judge only what is missing → engine → frame + metrics."""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Optional, Union

import pandas as pd

from ..judges import DryRun, FillInputError, Judge, JudgeRunStopped, Usage, fill_labels, get_judge, plan_fill
from ..judges.repeats import Policy, check_repeats, fill_repeats, plan_repeats
from .columns import as_scoring_error, frame_to_records, row_texts, source_columns, source_frame
from .result import ScoringResult, build_result

if TYPE_CHECKING:
    from .config import RagChecker


def as_frame(config: "RagChecker", data: Any) -> pd.DataFrame:
    """``data`` as a DataFrame under the configured columns: :func:`~.columns.source_frame`."""
    return source_frame(config, data)


def missing_work(records: list[dict], needs: set[str]) -> int:
    """How many claim lists and label entries in ``needs`` are absent or unjudged (None)."""
    count = 0
    for record in records:
        for name in needs:
            value = record.get(name)
            if value is None:
                count += 1
            elif not name.endswith("_claims"):
                count += sum(v is None for row in value for v in (row if isinstance(row, list) else [row]))
    return count


def resolve_judge(config: "RagChecker", judge: Union[Judge, str, None], work: int) -> Judge:
    """The judge to use: ``judge`` (an object or a registry key), else ``config.judge_model_key``."""
    if isinstance(judge, str):
        return get_judge(judge)
    if judge is not None:
        return judge
    if config.judge_model_key is None:
        raise ValueError(
            f"{work} claim list(s) or label(s) that the scores need are missing, and no judge is set: "
            "give judge_model_key (see ragwidgets.judges.register_judge) or pass judge= to score()"
        )
    return get_judge(config.judge_model_key)


@contextmanager
def _rows_named(config: "RagChecker", frame: pd.DataFrame):
    """A judge input error re-raised naming the frame's row and column."""
    try:
        yield
    except FillInputError as err:
        raise as_scoring_error(err, f"row {frame.index[err.index]!r}", source_columns(config, frame)) from None


def check_metric_columns(config: "RagChecker", frame: pd.DataFrame) -> None:
    """Every column a configured metric reads is in the frame (checked before any judge work)."""
    for template in config.aggregations:
        for column in template.columns:
            if column not in frame.columns:
                raise ValueError(f"metric {template.name!r} reads column {column!r}, which the DataFrame lacks")


def score(config: "RagChecker", data: Any, judge: Union[Judge, str, None] = None, *,
          progress: Optional[bool] = None, repeats: int = 1, policy: Policy = "majority") -> ScoringResult:
    """See ``RagChecker.score``."""
    check_repeats(repeats, policy)
    frame = as_frame(config, data)
    check_metric_columns(config, frame)
    records = frame_to_records(config, frame)
    work = missing_work(records, config.needs)
    if not work:
        return build_result(config, frame, records, Usage())
    judge = resolve_judge(config, judge, work)
    try:
        instructions = dict(extraction_instructions=row_texts(frame, config.claim_extraction_instructions),
                            labeling_instructions=row_texts(frame, config.claim_labeling_instructions))
        with _rows_named(config, frame):
            if repeats == 1:
                records = fill_labels(records, judge, config.needs, progress=progress, **instructions)
            else:
                records = fill_repeats(records, judge, config.needs, repeats=repeats, policy=policy,
                                       progress=progress, **instructions)
    except JudgeRunStopped as stop:
        stop.result = build_result(config, frame, stop.records, stop.records.usage)
        stop.args = (f"{stop} The scores of what finished: the error's .result.",)
        raise
    return build_result(config, frame, records, records.usage)


def dry_run(config: "RagChecker", data: Any, judge: Union[Judge, str, None] = None, *, repeats: int = 1) -> DryRun:
    """See ``RagChecker.dry_run``."""
    check_repeats(repeats)
    frame = as_frame(config, data)
    check_metric_columns(config, frame)
    records = frame_to_records(config, frame)
    work = missing_work(records, config.needs)
    if not work:
        return DryRun()
    instructions = dict(extraction_instructions=row_texts(frame, config.claim_extraction_instructions),
                        labeling_instructions=row_texts(frame, config.claim_labeling_instructions))
    with _rows_named(config, frame):
        judge = resolve_judge(config, judge, work)
        if repeats == 1:
            return plan_fill(records, judge, config.needs, **instructions)
        return plan_repeats(records, judge, config.needs, repeats=repeats, **instructions)
