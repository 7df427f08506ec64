"""The Judge protocol: extract claims, check them against a reference, label them REQUIRED/OPTIONAL.

Every operation has an async form (``a``-prefixed) and a sync wrapper of the same name without the
prefix; the sync wrappers also work inside a running event loop such as a Jupyter kernel's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional, Protocol, runtime_checkable

from .claims import ClaimLike, Reference
from .jobs import DryRun, Job
from .results import JudgeResult, JudgeStats


@runtime_checkable
class Judge(Protocol):
    """Turns texts into claims and claims into labels. ``stats`` totals the work done so far."""

    stats: JudgeStats

    async def aextract_claims(
        self, text: str, question: str = "", instructions: Optional[str] = None
    ) -> JudgeResult:
        """Claims ``{"subject","predicate","object"}`` stated by ``text``; ``failure`` set if unjudged."""

    async def acheck(self, claims: Sequence[ClaimLike], reference: Reference) -> JudgeResult:
        """One label per claim: "Entailment" | "Neutral" | "Contradiction" | None (unjudged)."""

    async def alabel_claims(
        self, claims: Sequence[ClaimLike], question: str = "", instructions: Optional[str] = None
    ) -> JudgeResult:
        """One label per claim: "REQUIRED" | "OPTIONAL" | None (unjudged)."""

    async def arun(
        self, jobs: Sequence[Job], *, progress: Optional[bool] = None, desc: str = "judging"
    ) -> list[JudgeResult]:
        """Run many jobs concurrently (``desc`` labels the progress bar); one result per job, in order.
        Raises ``JudgeRunStopped`` (with the finished results) once more calls failed than allowed."""

    def extract_claims(self, text: str, question: str = "", instructions: Optional[str] = None) -> JudgeResult:
        """Sync form of ``aextract_claims``."""

    def check(self, claims: Sequence[ClaimLike], reference: Reference) -> JudgeResult:
        """Sync form of ``acheck``."""

    def label_claims(
        self, claims: Sequence[ClaimLike], question: str = "", instructions: Optional[str] = None
    ) -> JudgeResult:
        """Sync form of ``alabel_claims``."""

    def run(self, jobs: Sequence[Job], *, progress: Optional[bool] = None, desc: str = "judging") -> list[JudgeResult]:
        """Sync form of ``arun``."""

    def dry_run(self, jobs: Sequence[Job]) -> DryRun:
        """What ``run(jobs)`` would send (calls, the cache's answers, estimated tokens), sending nothing."""
