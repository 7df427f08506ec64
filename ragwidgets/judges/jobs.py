"""Units of judge work, so that a batch can be run concurrently or priced before it runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from .claims import ClaimLike, Reference


@dataclass
class ExtractJob:
    """Extract the claims of ``text`` (an answer to ``question``)."""

    text: str
    question: str = ""
    instructions: Optional[str] = None


@dataclass
class CheckJob:
    """Check each claim against ``reference``: Entailment / Neutral / Contradiction."""

    claims: list[ClaimLike]
    reference: Reference


@dataclass
class LabelJob:
    """Label each claim REQUIRED or OPTIONAL for answering ``question``."""

    claims: list[ClaimLike]
    question: str = ""
    instructions: Optional[str] = None


Job = Union[ExtractJob, CheckJob, LabelJob]


@dataclass
class DryRun:
    """What running some jobs would cost, found without calling the model.

    ``judgements``: extractions + claim checks + label lists asked for; ``cached``: how many of them
    the cache already answers; ``calls``: model calls needed for the rest (joint checking puts
    several claims in one call). ``awaiting_claims``: check/label jobs whose claims must first be
    extracted, so their calls are not in ``calls`` yet (at least one call each).
    """

    judgements: int = 0
    cached: int = 0
    calls: int = 0
    awaiting_claims: int = 0
    by_operation: dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        text = f"{self.calls} model calls to make; the cache answers {self.cached} of {self.judgements} judgements"
        if self.awaiting_claims:
            text += f"; {self.awaiting_claims} more jobs wait for claims to be extracted"
        return text
