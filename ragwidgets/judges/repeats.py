"""Asking the judge each check ``repeats`` times: every answer kept, one label chosen by a policy.

Claims are extracted once (repeat 0), so every repeat labels the same claims; each check and
REQUIRED/OPTIONAL label is then asked once per repeat ``r`` by ``repeat_of(judge, r)``: the same
judge (its cache, counters and connection limit shared) whose cache key holds ``"repeat": r``
(repeat 0 keeps the key of a judge asked once) and, for an ``OpenAICompatibleJudge`` given a
``seed``, the request's seed ``seed + r``. Each repeat's answers are cached as they arrive, so a
rerun sends nothing and an interrupted run resumes from what was answered.

Each filled record keeps ``label_repeats``: per label field, that field as each repeat gave it
(a list of ``repeats`` copies); the field itself holds the label the policy picks:

- ``"majority"``: the label most repeats gave (unjudged answers not counted; none judged: None);
  a tie goes to the tied label given in the earliest repeat ("first repeat among the tied");
- an integer ``r``: repeat ``r``'s labels, one repeat at a time.

A jury of several judges is the same policy over their label sets (``combine``); ``pick``
re-picks filled records' labels by another policy (one repeat's records: ``pick(records, r)``).
How often labels flip across repeats: :mod:`ragwidgets.analysis.judge_variance`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Optional, Union

from .errors import JudgeRunStopped
from .fill import JUDGE_NEEDS, FilledRecords, Instructions, fill_labels, plan_fill
from .jobs import DryRun
from .protocol import Judge
from .results import Usage

LABEL_FIELDS = ("answer2response", "response2answer", "retrieved2response", "retrieved2answer",
                "response_claim_labels", "gt_answer_claim_labels")
REPEATS_FIELD = "label_repeats"
Policy = Union[str, int]


def repeat_of(judge: Judge, r: int) -> Judge:
    """``judge`` asking its ``r``-th repeat: a copy sharing its cache, stats, limits and session."""
    if not isinstance(r, int) or isinstance(r, bool) or r < 0:
        raise ValueError(f"a repeat index is a whole number of at least 0, got {r!r}")
    if r == getattr(judge, "repeat", 0):
        return judge
    if not hasattr(judge, "repeat"):
        raise TypeError(f"{type(judge).__name__} has no repeat index: repeats need a BaseJudge")
    copy = object.__new__(type(judge))
    copy.__dict__.update(judge.__dict__)
    copy.repeat = r
    return copy


def majority(values: Sequence[Any]) -> Any:
    """The value most entries give (None entries not counted; all None: None); ties: the tied
    value that appears first."""
    counts: dict[Any, int] = {}
    for v in values:
        if v is not None:
            counts[v] = counts.get(v, 0) + 1
    return max(counts, key=counts.get) if counts else None  # max keeps the first of equal counts


def _pick(copies: Sequence[Any], policy: Policy) -> Any:
    """One label field from its copies (lists, or lists of rows) by ``policy``."""
    if isinstance(policy, int):
        return copies[policy]
    first = copies[0]
    if first is None:
        return None
    if first and isinstance(first[0], list):
        return [[majority([c[j][k] for c in copies]) for k in range(len(row))] for j, row in enumerate(first)]
    return [majority([c[j] for c in copies]) for j in range(len(first))]


def check_policy(policy: Policy, n: int) -> None:
    if policy == "majority":
        return
    if isinstance(policy, int) and not isinstance(policy, bool) and 0 <= policy < n:
        return
    raise ValueError(f"policy must be 'majority' or a repeat index 0..{n - 1}, got {policy!r}")


def combine(label_sets: Sequence[Sequence[Mapping[str, Any]]], policy: Policy = "majority") -> list[dict]:
    """Records whose label fields are picked by ``policy`` from several label sets of the same
    records (repeats, or the judges of a jury), each record keeping ``label_repeats``."""
    check_policy(policy, len(label_sets))
    out = []
    for copies in zip(*label_sets):
        record = dict(copies[0])
        kept = {}
        for name in LABEL_FIELDS:
            if name in record:
                kept[name] = [c.get(name) for c in copies]
                record[name] = _pick(kept[name], policy)
        record[REPEATS_FIELD] = kept
        out.append(record)
    return out


def check_repeats(repeats: int, policy: Optional[Policy] = None) -> None:
    """A ValueError unless ``repeats`` is a whole number of at least 1 (and ``policy``, if given, fits it)."""
    if not isinstance(repeats, int) or isinstance(repeats, bool) or repeats < 1:
        raise ValueError(f"repeats must be a whole number of at least 1, got {repeats!r}")
    if policy is not None:
        check_policy(policy, repeats)


def fill_repeats(records: Iterable[Mapping[str, Any]], judge: Judge, needs: Collection[str] = JUDGE_NEEDS, *,
                 repeats: int = 3, policy: Policy = "majority", extraction_instructions: Instructions = None,
                 labeling_instructions: Instructions = None, progress: Optional[bool] = None) -> FilledRecords:
    """``fill_labels`` asking each check ``repeats`` times (see the module docstring); labels given
    in ``records`` are kept in every repeat. A run stopped by ``max_failures`` raises
    ``JudgeRunStopped`` whose ``records`` hold every repeat (the labels not answered unjudged,
    the repeats not reached all unjudged) with the policy's pick."""
    check_repeats(repeats, policy)
    given = [dict(r) for r in records]
    sets: list[list[dict]] = []
    usage = Usage()
    for r in range(repeats):
        asked = given if r == 0 else [dict(f, **{n: g.get(n) for n in LABEL_FIELDS if n in f})
                                      for f, g in zip(sets[0], given)]
        try:
            filled = fill_labels(asked, repeat_of(judge, r), needs, extraction_instructions=extraction_instructions,
                                 labeling_instructions=labeling_instructions, progress=progress)
        except JudgeRunStopped as stop:
            done = sets + [list(stop.records)]
            unasked = [dict(f, **{n: g[n] if n in g else _unjudged(f[n]) for n in LABEL_FIELDS if n in f})
                       for f, g in zip(done[0], given)]
            stop.records = FilledRecords(combine(done + [unasked] * (repeats - len(done)), policy),
                                         usage + stop.records.usage)
            stop.args = (f"{stop} (stopped in repeat {r} of 0..{repeats - 1})",)
            raise
        sets.append(list(filled))
        usage = usage + filled.usage
    return FilledRecords(combine(sets, policy), usage)


def _unjudged(labels: Any) -> Any:
    """A label field of the same shape with every label unjudged (None)."""
    if labels is None:
        return None
    return [[None] * len(row) if isinstance(row, list) else None for row in labels]


def plan_repeats(records: Iterable[Mapping[str, Any]], judge: Judge, needs: Collection[str] = JUDGE_NEEDS, *,
                 repeats: int = 3, extraction_instructions: Instructions = None,
                 labeling_instructions: Instructions = None) -> DryRun:
    """What ``fill_repeats`` would send: ``plan_fill`` per repeat, extraction counted once."""
    check_repeats(repeats)
    records = [dict(r) for r in records]
    total = DryRun()
    for r in range(repeats):
        plan = plan_fill(records, repeat_of(judge, r), needs, extraction_instructions=extraction_instructions,
                         labeling_instructions=labeling_instructions)
        if r:
            plan.by_operation.pop("extract", None)
            plan.estimated_texts = 0
        total = total + plan
    return total


def repeats_of(records: Sequence[Mapping[str, Any]]) -> int:
    """How many repeats filled ``records`` hold (the length of each ``label_repeats`` list; 1 when
    none has any); records holding different numbers raise a ValueError naming the sample."""
    seen = None
    for i, record in enumerate(records):
        for name, copies in (record.get(REPEATS_FIELD) or {}).items():
            if seen is None:
                seen = (len(copies), i)
            elif len(copies) != seen[0]:
                raise ValueError(f"sample {i} (query_id {record.get('query_id')!r}): {REPEATS_FIELD}[{name!r}] holds "
                                 f"{len(copies)} repeats, sample {seen[1]} holds {seen[0]}")
    return 1 if seen is None else seen[0]


def pick(records: Sequence[Mapping[str, Any]], policy: Policy) -> list[dict]:
    """Copies of filled ``records`` whose label fields are picked again by ``policy`` from their
    ``label_repeats`` (a record without them is copied as it is)."""
    check_policy(policy, repeats_of(records))
    out = []
    for record in records:
        record = dict(record)
        for name, copies in (record.get(REPEATS_FIELD) or {}).items():
            record[name] = _pick(copies, policy)
        out.append(record)
    return out
