"""Filling RAGChecker-format records with the claims and labels a scorer needs.

A record has ``query``, ``gt_answer``, ``response``, ``retrieved_context: [{doc_id, text}]`` and
may already have ``response_claims``, ``gt_answer_claims``, the label matrices
``answer2response[j]`` (response claim j vs the gt answer), ``response2answer[i]`` (gt claim i vs
the response), ``retrieved2response[j][k]`` / ``retrieved2answer[i][k]`` (claim vs passage k), and
``response_claim_labels`` / ``gt_answer_claim_labels`` (REQUIRED/OPTIONAL). ``fill_labels`` adds
only the fields in ``needs`` and only the entries that are missing (absent or None); nothing
present is judged again. Entries the judge could not judge stay None and are explained in the
record's ``unjudged`` list: ``{"field", "index", "reason"}`` (index None for a whole field).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional, Union

from .claims import AssumedClaim, ClaimLike, Reference, claim_facts, claim_triple, sentences
from .errors import FillInputError, JudgeRunStopped
from .jobs import CheckJob, DryRun, ExtractJob, Job, LabelJob
from .protocol import Judge
from .results import JudgeResult, Usage
from .sync import run_sync

JUDGE_NEEDS: tuple[str, ...] = (
    "response_claims",
    "gt_answer_claims",
    "answer2response",
    "response2answer",
    "retrieved2response",
    "retrieved2answer",
    "response_claim_labels",
    "gt_answer_claim_labels",
)


@dataclass(frozen=True)
class _Side:
    """The fields of one side of a sample: the response's claims or the gt answer's."""

    claims: str
    text: str
    against: str
    against_claims: str
    matrix: str
    retrieved: str
    labels: str


SIDES = (
    _Side("response_claims", "response", "gt_answer", "gt_answer_claims", "answer2response", "retrieved2response", "response_claim_labels"),
    _Side("gt_answer_claims", "gt_answer", "response", "response_claims", "response2answer", "retrieved2answer", "gt_answer_claim_labels"),
)


@dataclass
class _Target:
    """Where the values of one job go: ``record[field][j]`` (or ``[j][column]``) for j in ``rows``."""

    record: int
    field: str
    rows: list[int]
    column: Optional[int] = None


def _expand(needs: Collection[str]) -> set[str]:
    unknown = sorted(set(needs) - set(JUDGE_NEEDS))
    if unknown:
        raise ValueError(f"unknown needs {unknown}; known: {list(JUDGE_NEEDS)}")
    expanded = set(needs)
    for side in SIDES:
        if expanded & {side.matrix, side.retrieved, side.labels}:
            expanded.add(side.claims)
    return expanded


def _answer_reference(text: str, claims: Optional[Sequence[ClaimLike]]) -> Reference:
    """The other answer as a reference; with authored facts on its claims, their union as its facts."""
    facts = [claim_facts(c) for c in claims or []]
    if any(f is not None for f in facts):
        return {"text": text, "facts": sorted({x for f in facts if f for x in f})}
    return text


def _vector(record: dict, field: str, n: int, i: int, unit: str = "entries") -> list:
    """A copy of ``record[field]``: one entry per claim (all None when absent)."""
    value = record.get(field)
    if value is None:
        return [None] * n
    if not isinstance(value, list) or len(value) != n:
        size = len(value) if isinstance(value, list) else type(value).__name__
        raise FillInputError(f"has {size} {unit} but there are {n} claims", index=i, record=record, field=field)
    return list(value)


def _matrix(record: dict, field: str, n: int, m: int, i: int) -> list:
    """A copy of ``record[field]``: a row per claim, a label per passage (None rows and entries when absent)."""
    rows = _vector(record, field, n, i, unit="rows")
    for j, row in enumerate(rows):
        if row is None:
            row = [None] * m
        if not isinstance(row, list) or len(row) != m:
            raise FillInputError(f"row {j} does not have one label per passage ({m})",
                                 index=i, record=record, field=field)
        rows[j] = list(row)
    return rows


def _passages(record: Mapping[str, Any], i: int) -> list[Reference]:
    passages = record.get("retrieved_context")
    if passages is None:
        raise FillInputError("missing: the retrieved passages are needed",
                             index=i, record=record, field="retrieved_context")
    if not isinstance(passages, list) or not all(isinstance(p, (str, Mapping)) for p in passages):
        raise FillInputError("must be a list of {doc_id, text} passages",
                             index=i, record=record, field="retrieved_context")
    return passages


class FilledRecords(list):
    """The filled records, with ``usage``: the judge work this fill did (its own, even when other
    threads share the judge)."""

    def __init__(self, records: list[dict], usage: Usage):
        super().__init__(records)
        self.usage = usage


def _usage(results: Sequence[Optional[JudgeResult]]) -> Usage:
    total = Usage()
    for result in results:
        if result is not None:
            total = total + result.usage
    return total


def _validate(records: list[dict], needs: set[str]) -> None:
    """Every input error the fill can meet, found before any request: labels given without the
    claims they label, and what the checks need (the other answer, the passages, matrix sizes)."""
    trial = []
    for i, record in enumerate(records):
        record = dict(record)
        for side in SIDES:
            if record.get(side.claims) is not None:
                continue
            for field in (side.labels, side.matrix, side.retrieved):
                if field in needs and record.get(field) is not None:
                    raise FillInputError(f"is given, but not {side.claims}, the claims it is about (extracted "
                                         "claims would not line up with it)", index=i, record=record, field=field)
            record[side.claims] = []
        trial.append(record)
    _label_jobs(trial, needs, None)


Instructions = Union[str, None, Sequence[Optional[str]]]
"""Instructions for the prompts: one text for every record, or one per record."""


def _for_record(instructions: Instructions, i: int) -> Optional[str]:
    return instructions if instructions is None or isinstance(instructions, str) else instructions[i]


def _extraction_jobs(records: list[dict], needs: set[str], instructions: Instructions) -> tuple[list[Job], list[_Target]]:
    jobs: list[Job] = []
    targets: list[_Target] = []
    for i, record in enumerate(records):
        for side in SIDES:
            if side.claims in needs and record.get(side.claims) is None:
                text = record.get(side.text)
                if text is None:
                    raise FillInputError(
                        f"missing: it is needed to extract {side.claims}", index=i, record=record, field=side.text
                    )
                jobs.append(ExtractJob(str(text), str(record.get("query") or ""), _for_record(instructions, i)))
                targets.append(_Target(i, side.claims, []))
    return jobs, targets


def _label_jobs(
    records: list[dict], needs: set[str], instructions: Instructions
) -> tuple[list[Job], list[_Target], dict[int, list[dict]]]:
    """Check and label jobs for every missing entry; records get their matrices (None-padded)."""
    jobs: list[Job] = []
    targets: list[_Target] = []
    blocked: dict[int, list[dict]] = {}
    for i, record in enumerate(records):
        for side in SIDES:
            wanted = [f for f in (side.matrix, side.retrieved, side.labels) if f in needs]
            claims = record.get(side.claims)
            if not wanted:
                continue
            if claims is None:
                blocked.setdefault(i, []).extend(
                    {"field": f, "index": None, "reason": f"{side.claims} are unjudged"} for f in wanted
                )
                continue
            if not isinstance(claims, list):
                raise FillInputError("must be a list of claims", index=i, record=record, field=side.claims)
            n = len(claims)
            if side.matrix in needs:
                against = record.get(side.against)
                if against is None:
                    raise FillInputError(f"missing: it is needed for {side.matrix}",
                                         index=i, record=record, field=side.against)
                values = record[side.matrix] = _vector(record, side.matrix, n, i)
                rows = [j for j in range(n) if values[j] is None]
                if rows:
                    reference = _answer_reference(str(against), record.get(side.against_claims))
                    jobs.append(CheckJob([claims[j] for j in rows], reference))
                    targets.append(_Target(i, side.matrix, rows))
            if side.retrieved in needs:
                passages = _passages(record, i)
                matrix = record[side.retrieved] = _matrix(record, side.retrieved, n, len(passages), i)
                for k, passage in enumerate(passages):
                    rows = [j for j in range(n) if matrix[j][k] is None]
                    if rows:
                        jobs.append(CheckJob([claims[j] for j in rows], passage))
                        targets.append(_Target(i, side.retrieved, rows, k))
            if side.labels in needs:
                values = record[side.labels] = _vector(record, side.labels, n, i)
                rows = [j for j in range(n) if values[j] is None]
                if rows:
                    jobs.append(LabelJob(list(claims), str(record.get("query") or ""), _for_record(instructions, i)))
                    targets.append(_Target(i, side.labels, rows))
    return jobs, targets, blocked


async def afill_labels(
    records: Iterable[Mapping[str, Any]],
    judge: Judge,
    needs: Collection[str] = JUDGE_NEEDS,
    *,
    extraction_instructions: Instructions = None,
    labeling_instructions: Instructions = None,
    progress: Optional[bool] = None,
) -> list[dict]:
    """Async form of ``fill_labels``."""
    wanted = _expand(needs)
    out = [dict(r) for r in records]
    notes: dict[int, list[dict]] = {i: [] for i in range(len(out))}
    touched: dict[int, set[str]] = {i: set() for i in range(len(out))}

    jobs, targets = _extraction_jobs(out, wanted, extraction_instructions)
    _validate(out, wanted)
    extracted, stopped = await _run(judge, jobs, targets, out, progress, "extracting claims")
    for target, result in zip(targets, extracted):
        touched[target.record].add(target.field)
        if result.judged:
            out[target.record][target.field] = [claim_triple(c) for c in result]  # as RAGChecker writes them
        else:
            notes[target.record].append({"field": target.field, "index": None, "reason": result.failure})

    jobs, targets, blocked = _label_jobs(out, wanted, labeling_instructions) if stopped is None else ([], [], {})
    for i, entries in blocked.items():
        notes[i].extend(entries)
        touched[i].update(e["field"] for e in entries)
    checked, stopped = await _run(judge, jobs, targets, out, progress, "checking claims") if jobs else ([], stopped)
    for target, result in zip(targets, checked):
        record = out[target.record]
        touched[target.record].add(target.field)
        whole_list = target.field.endswith("_labels")
        for pos, j in enumerate(target.rows):
            at = j if whole_list else pos
            value = result[at]
            if target.column is None:
                record[target.field][j] = value
            else:
                record[target.field][j][target.column] = value
            if value is None:
                index = j if target.column is None else [j, target.column]
                reason = result.reasons.get(at, "unjudged")
                notes[target.record].append({"field": target.field, "index": index, "reason": reason})

    for i, record in enumerate(out):
        kept = [n for n in record.get("unjudged") or [] if n.get("field") not in touched[i]]
        if kept or notes[i] or "unjudged" in record:
            record["unjudged"] = kept + notes[i]
    filled = FilledRecords(out, _usage(extracted) + _usage(checked))
    if stopped is not None:
        stopped.records = filled
        raise stopped
    return filled


NOT_REACHED = "not judged: the run stopped before it"


def _not_reached(job: Job) -> JudgeResult:
    """The result of a job a stopped run never finished: unjudged, saying why."""
    if isinstance(job, ExtractJob):
        return JudgeResult([], failure=NOT_REACHED)
    return JudgeResult([None] * len(job.claims), reasons={i: NOT_REACHED for i in range(len(job.claims))})


async def _run(judge: Judge, jobs: list[Job], targets: list[_Target], records: list[dict],
               progress: Optional[bool], desc: str) -> tuple[list[JudgeResult], Optional[JudgeRunStopped]]:
    """``judge.arun(jobs)``, and None; a stopped run's finished results (the others unjudged) and its
    error, whose message names the samples whose calls failed."""
    try:
        return await judge.arun(jobs, progress=progress, desc=desc), None
    except JudgeRunStopped as stop:
        named = "; ".join(f"sample {records[targets[j].record].get('query_id', targets[j].record)!r} "
                          f"({targets[j].field}): {why}" for j, why in stop.failures[:5])
        error = JudgeRunStopped(f"{stop} First failed samples: {named}", results=stop.results, failures=stop.failures)
        return [r if r is not None else _not_reached(job) for r, job in zip(stop.results, jobs)], error


def fill_labels(
    records: Iterable[Mapping[str, Any]],
    judge: Judge,
    needs: Collection[str] = JUDGE_NEEDS,
    *,
    extraction_instructions: Instructions = None,
    labeling_instructions: Instructions = None,
    progress: Optional[bool] = None,
) -> list[dict]:
    """Copies of ``records`` with the missing claims and labels in ``needs`` judged by ``judge``.

    ``needs`` ⊆ ``JUDGE_NEEDS``; a label field brings the claims it is about. Claims are extracted first
    (with ``extraction_instructions`` appended to the extraction prompt), then every missing
    check and REQUIRED/OPTIONAL label (``labeling_instructions``) runs concurrently. Present values
    are kept as they are. Works inside a running event loop too.
    """
    return run_sync(
        afill_labels(
            records,
            judge,
            needs,
            extraction_instructions=extraction_instructions,
            labeling_instructions=labeling_instructions,
            progress=progress,
        )
    )


def plan_fill(
    records: Iterable[Mapping[str, Any]],
    judge: Judge,
    needs: Collection[str] = JUDGE_NEEDS,
    *,
    extraction_instructions: Instructions = None,
    labeling_instructions: Instructions = None,
) -> DryRun:
    """What ``fill_labels`` would send, without calling the model: the same jobs, cache lookups and batches.

    Claims the cache already holds size the checks that follow exactly; a text whose claims are
    not extracted yet is taken to state one claim per sentence (``DryRun.estimated_texts``).
    Input errors are raised as ``fill_labels`` raises them, before any request.
    """
    wanted = _expand(needs)
    out = [dict(r) for r in records]
    jobs, targets = _extraction_jobs(out, wanted, extraction_instructions)
    _validate(out, wanted)
    estimated = 0
    for job, target in zip(jobs, targets):
        cached = judge.cached_claims(job) if hasattr(judge, "cached_claims") else None
        if cached is None:
            cached = [AssumedClaim(sentence) for sentence in sentences(job.text)]
            estimated += 1
        out[target.record][target.field] = cached
    check_jobs, _, _ = _label_jobs(out, wanted, labeling_instructions)
    plan = judge.dry_run(jobs + check_jobs)
    plan.estimated_texts = estimated
    return plan
