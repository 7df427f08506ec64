"""``ComposedJudge``: one judge made of parts, each operation answered by the part given for it.

The usual composition: claims extracted and REQUIRED / OPTIONAL labels given by an LLM judge,
claims checked against passages by a :class:`~ragwidgets.judges.LocalChecker` on this machine.
Each part keeps its own cache, counters, limits and traces (a part's answers are the ones it gives
alone, so a cache filled by the LLM judge serves the composition and the other way round); a run's
jobs go to their parts at once (a part serving two operations runs their jobs as one run), and its
results come back in job order. Repeats reach every part (``repeats.repeat_of`` copies the
composition; each part asks its own repeat). A part that stops (``max_failures``) or fails stops
the others at once, with every part's finished results.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, Optional

from .claims import ClaimLike, Reference
from .base import BaseJudge
from .errors import JudgeRunStopped
from .jobs import CheckJob, DryRun, ExtractJob, Job, LabelJob
from .results import JudgeResult, JudgeStats

OPERATIONS = {ExtractJob: "extract", CheckJob: "check", LabelJob: "label"}


@dataclass(frozen=True)
class ComposedRecipe:
    """What a worker process builds a ComposedJudge from: each part's recipe (a part that has
    one, so its key stays here) or the part itself (pickled)."""

    parts: dict[str, Any]

    def build(self) -> "ComposedJudge":
        built: dict[int, Any] = {}
        parts = {}
        for name, part in self.parts.items():  # one part serving two operations is built once
            if id(part) not in built:
                built[id(part)] = part.build() if hasattr(part, "build") else part
            parts[name] = built[id(part)]
        return ComposedJudge(**parts)


def _part(name: str, part):
    """A part: a judge, or a registered judge's key."""
    if isinstance(part, str):
        from .registry import get_judge

        part = get_judge(part)
    if not all(hasattr(part, m) for m in ("arun", "dry_run", "stats")):
        raise TypeError(f"{name}: a judge (with arun, dry_run and stats) or a registered judge's key is needed, "
                        f"got {type(part).__name__}")
    return part


class ComposedJudge:
    """Claims from ``extract``, checks from ``check``, REQUIRED / OPTIONAL labels from ``label``
    (see the module docstring): judges or registered judges' keys. ``extract`` defaults to
    ``check`` (a LocalChecker's sentence splitter), ``label`` to ``extract``."""

    repeat = 0  # which asking this composition makes (``repeats.repeat_of``); each part asks the same

    def __init__(self, *, check, extract=None, label=None):
        check = _part("check", check)
        extract = check if extract is None else _part("extract", extract)
        label = extract if label is None else _part("label", label)
        self.parts = {"extract": extract, "check": check, "label": label}

    def __repr__(self) -> str:
        return "ComposedJudge(" + ", ".join(f"{name}={part!r}" for name, part in self.parts.items()) + ")"

    def _distinct(self) -> list:
        return list({id(p): p for p in self.parts.values()}.values())

    @property
    def stats(self) -> JudgeStats:
        """The parts' counters summed (a part serving two operations counted once)."""
        total = JudgeStats()
        for part in self._distinct():
            for f in fields(JudgeStats):
                if f.name == "per_call":
                    total.per_call.extend(part.stats.per_call)
                elif f.name == "retry_reasons":
                    total.retry_reasons.update(part.stats.retry_reasons)
                elif f.name != "_lock":
                    setattr(total, f.name, getattr(total, f.name) + getattr(part.stats, f.name))
        return total

    @property
    def sends_requests(self) -> bool:
        return any(getattr(p, "sends_requests", False) for p in self._distinct())

    def part(self, operation: str):
        """The part answering ``operation`` ("extract", "check" or "label"), asking this composition's repeat."""
        from .repeats import repeat_of

        part = self.parts[operation]
        return repeat_of(part, self.repeat) if self.repeat else part

    def recipe(self) -> ComposedRecipe:
        """For another process: each part's recipe where it has one, else the part."""
        made = {id(p): p.recipe() if hasattr(p, "recipe") else p for p in self._distinct()}  # one per part
        return ComposedRecipe({name: made[id(part)] for name, part in self.parts.items()})

    # -- runs -------------------------------------------------------------------------------------
    def _split(self, jobs: Sequence[Job]) -> dict[str, list[int]]:
        """Each operation's jobs (their places in ``jobs``)."""
        out: dict[str, list[int]] = {}
        for i, job in enumerate(jobs):
            if type(job) not in OPERATIONS:
                raise TypeError(f"not a judge job: {job!r}")
            out.setdefault(OPERATIONS[type(job)], []).append(i)
        return out

    def _groups(self, jobs: Sequence[Job]) -> list[tuple[Any, list[int], list[str]]]:
        """Each distinct part (asking this composition's repeat) with its jobs' places and the
        operations it answers: a part serving two operations runs their jobs as one run (one
        progress bar, one count of failures, one bound on its jobs in flight)."""
        by_part: dict[int, tuple[Any, list[int], list[str]]] = {}
        for op, places in self._split(jobs).items():
            part = self.parts[op]
            _, held, ops = by_part.setdefault(id(part), (part, [], []))
            held += places
            ops.append(op)
        return [(self.part(ops[0]), sorted(places), ops) for _, places, ops in by_part.values()]

    async def arun(self, jobs: Sequence[Job], *, progress: Optional[bool] = None,
                   desc: str = "judging") -> list[JudgeResult]:
        """Each part runs its jobs, all parts at once; results in job order. A part that stops
        (JudgeRunStopped) or fails stops the others: JudgeRunStopped with every part's finished
        results (None: not finished), or the part's error."""
        jobs = list(jobs)
        return await self._arun(jobs, [None] * len(jobs), progress, desc)

    async def _arun(self, jobs: list[Job], results: list[Optional[JudgeResult]], progress: Optional[bool],
                    desc: str) -> list[JudgeResult]:
        """``arun``, filling ``results`` as jobs finish (so an interrupted caller sees what finished)."""
        groups = self._groups(jobs)
        if not groups:
            return results
        buffers: list[list] = [[None] * len(places) for _, places, _ in groups]

        async def one(k: int) -> None:
            part, places, ops = groups[k]
            label = f"{desc} ({', '.join(ops)})"
            try:
                if hasattr(part, "_arun"):  # a BaseJudge fills the buffer as its jobs finish
                    await part._arun([jobs[i] for i in places], buffers[k], progress, label)
                else:
                    buffers[k][:] = await part.arun([jobs[i] for i in places], progress=progress, desc=label)
            finally:
                for i, result in zip(places, buffers[k]):
                    results[i] = result

        tasks = [asyncio.ensure_future(one(k)) for k in range(len(groups))]
        try:
            _, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        finally:  # cancelled from outside (an interrupt), or one part failed: the others stop now
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        errors = [(k, t.exception()) for k, t in enumerate(tasks) if not t.cancelled() and t.exception() is not None]
        if not errors:
            return results
        other = next((e for _, e in errors if not isinstance(e, JudgeRunStopped)), None)
        if other is not None:
            raise other
        said = "; ".join(f"{', '.join(groups[k][2])}: {e}" for k, e in errors)
        if pending:
            said += " (the other parts were stopped with it; their answers so far are in their caches)"
        failures = sorted((groups[k][1][j], why) for k, e in errors for j, why in e.failures)
        raise JudgeRunStopped(said, results=results, failures=failures)

    # the sync form of ``arun``: BaseJudge's, over this class's ``_arun`` (an interrupt stops every
    # part and raises JudgeInterrupted with the finished results)
    run = BaseJudge.run

    def dry_run(self, jobs: Sequence[Job]) -> DryRun:
        """Each part's dry run over its jobs, summed; priced when the priced parts agree on their prices."""
        jobs = list(jobs)
        plans = [self.part(op).dry_run([jobs[i] for i in places]) for op, places in self._split(jobs).items()]
        prices = {plan.prices for plan in plans if plan.prices is not None}
        total = DryRun(prices=prices.pop() if len(prices) == 1 else None)
        for plan in plans:
            total = total + replace(plan, prices=None)
        return total

    def cached_claims(self, job: ExtractJob) -> Optional[list]:
        part = self.part("extract")
        return part.cached_claims(job) if hasattr(part, "cached_claims") else None

    # -- one operation ----------------------------------------------------------------------------
    async def aextract_claims(self, text: str, question: str = "", instructions: Optional[str] = None) -> JudgeResult:
        return await self.part("extract").aextract_claims(text, question, instructions)

    async def acheck(self, claims: Sequence[ClaimLike], reference: Reference) -> JudgeResult:
        return await self.part("check").acheck(claims, reference)

    async def alabel_claims(self, claims: Sequence[ClaimLike], question: str = "",
                            instructions: Optional[str] = None) -> JudgeResult:
        return await self.part("label").alabel_claims(claims, question, instructions)

    extract_claims, check, label_claims = BaseJudge.extract_claims, BaseJudge.check, BaseJudge.label_claims

    # -- why ------------------------------------------------------------------------------------
    def trace_check(self, claim: ClaimLike, reference: Reference) -> tuple[Optional[dict], Optional[str]]:
        """The check part's trace of ``claim`` against ``reference``."""
        return self.part("check").trace_check(claim, reference)

    def trace_extract(self, job: ExtractJob) -> tuple[Optional[dict], Optional[str]]:
        """The extract part's trace of ``job``."""
        return self.part("extract").trace_extract(job)
