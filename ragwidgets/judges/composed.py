"""``ComposedJudge``: one judge made of parts, each operation answered by the part given for it.

The usual composition: claims extracted and REQUIRED / OPTIONAL labels given by an LLM judge,
claims checked against passages by a :class:`~ragwidgets.judges.LocalChecker` on this machine.
Each part keeps its own cache, counters, limits and traces (a part's answers are the ones it gives
alone, so a cache filled by the LLM judge serves the composition and the other way round); a run's
jobs go to their parts at once, and its results come back in job order. Repeats reach every part
(``repeats.repeat_of`` copies the composition; each part asks its own repeat). A part that stops
(``max_failures``) stops the run with every part's finished results.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, Optional

from .claims import ClaimLike, Reference
from .errors import JudgeInterrupted, JudgeRunStopped
from .jobs import CheckJob, DryRun, ExtractJob, Job, LabelJob
from .results import JudgeResult, JudgeStats
from .sync import run_sync

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

    async def arun(self, jobs: Sequence[Job], *, progress: Optional[bool] = None,
                   desc: str = "judging") -> list[JudgeResult]:
        """Each part runs its jobs, all at once; results in job order. A part's JudgeRunStopped
        stops the run: JudgeRunStopped with every part's finished results (None: not finished)."""
        jobs = list(jobs)
        split = self._split(jobs)
        outcomes = await asyncio.gather(
            *(self.part(op).arun([jobs[i] for i in places], progress=progress, desc=f"{desc} ({op})")
              for op, places in split.items()), return_exceptions=True)
        results: list[Optional[JudgeResult]] = [None] * len(jobs)
        stops, failures = [], []
        for (op, places), outcome in zip(split.items(), outcomes):
            if isinstance(outcome, JudgeRunStopped):
                stops.append(f"{op}: {outcome}")
                failures += [(places[j], why) for j, why in outcome.failures]
                outcome = outcome.results
            elif isinstance(outcome, BaseException):
                raise outcome
            for i, result in zip(places, outcome):
                results[i] = result
        if stops:
            raise JudgeRunStopped("; ".join(stops), results=results, failures=sorted(failures))
        return results

    def run(self, jobs: Sequence[Job], *, progress: Optional[bool] = None, desc: str = "judging") -> list[JudgeResult]:
        """Sync form of ``arun`` (works inside a running event loop too)."""
        try:
            return run_sync(self.arun(jobs, progress=progress, desc=desc))
        except KeyboardInterrupt:
            raise JudgeInterrupted("interrupted: the parts' answers so far are in their caches; running again "
                                   "resumes from them", results=[None] * len(jobs)) from None

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

    def extract_claims(self, text: str, question: str = "", instructions: Optional[str] = None) -> JudgeResult:
        return run_sync(self.aextract_claims(text, question, instructions))

    def check(self, claims: Sequence[ClaimLike], reference: Reference) -> JudgeResult:
        return run_sync(self.acheck(claims, reference))

    def label_claims(self, claims: Sequence[ClaimLike], question: str = "",
                     instructions: Optional[str] = None) -> JudgeResult:
        return run_sync(self.alabel_claims(claims, question, instructions))

    # -- why ------------------------------------------------------------------------------------
    def trace_check(self, claim: ClaimLike, reference: Reference) -> tuple[Optional[dict], Optional[str]]:
        """The check part's trace of ``claim`` against ``reference``."""
        return self.part("check").trace_check(claim, reference)

    def trace_extract(self, job: ExtractJob) -> tuple[Optional[dict], Optional[str]]:
        """The extract part's trace of ``job``."""
        return self.part("extract").trace_extract(job)
