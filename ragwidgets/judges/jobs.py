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
class OperationPlan:
    """One operation's share of a dry run: model calls, judgements the cache answers, tokens."""

    calls: int = 0
    judgements: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass
class DryRun:
    """What running some jobs would cost, found without calling the model.

    The jobs the run will send are simulated: the cache is asked as the run would ask it, and
    checks are cut into batches of ``check_batch_size`` as the run cuts them. ``calls``: the model
    calls (first attempts; retries come on top); ``judgements``: extractions + claim checks + label
    lists asked for; ``cached``: how many of them the cache answers. Where claims are not extracted
    yet, ``estimated_texts`` counts the texts whose claims were taken to be one per sentence to
    size the checks that follow (0: the counts are exact). Tokens are estimates (see the judge's
    ``estimate_tokens``); ``cost`` is priced when the judge has per-token ``prices``.
    """

    by_operation: dict[str, OperationPlan] = field(default_factory=dict)
    estimated_texts: int = 0
    prices: Optional[tuple[float, float]] = None

    def add(self, operation: str, *, calls: int = 0, judgements: int = 0, cached: int = 0,
            prompt_tokens: int = 0, completion_tokens: int = 0) -> None:
        plan = self.by_operation.setdefault(operation, OperationPlan())
        plan.calls += calls
        plan.judgements += judgements
        plan.cached += cached
        plan.prompt_tokens += prompt_tokens
        plan.completion_tokens += completion_tokens

    def __add__(self, other: "DryRun") -> "DryRun":
        """Both plans as one (a run's partitions summed); plans priced differently are refused."""
        if self.prices is not None and other.prices is not None and self.prices != other.prices:
            raise ValueError(f"cannot add dry runs priced differently: {self.prices} and {other.prices}")
        total = DryRun(estimated_texts=self.estimated_texts + other.estimated_texts,
                       prices=self.prices if self.prices is not None else other.prices)
        for plan in (self, other):
            for operation, part in plan.by_operation.items():
                total.add(operation, **vars(part))
        return total

    def _total(self, name: str) -> int:
        return sum(getattr(p, name) for p in self.by_operation.values())

    @property
    def calls(self) -> int:
        return self._total("calls")

    @property
    def judgements(self) -> int:
        return self._total("judgements")

    @property
    def cached(self) -> int:
        return self._total("cached")

    @property
    def prompt_tokens(self) -> int:
        return self._total("prompt_tokens")

    @property
    def completion_tokens(self) -> int:
        return self._total("completion_tokens")

    @property
    def cost(self) -> Optional[float]:
        """prompt tokens × input price + completion tokens × output price; None without prices."""
        if self.prices is None:
            return None
        return self.prompt_tokens * self.prices[0] + self.completion_tokens * self.prices[1]

    def table(self):
        """A DataFrame: one row per operation and a total, with calls, cache answers, tokens and cost."""
        import pandas as pd

        rows = {op: vars(plan).copy() for op, plan in self.by_operation.items()}
        rows["total"] = {name: self._total(name) for name in vars(OperationPlan())}
        if self.prices is not None:
            for row in rows.values():
                row["cost"] = row["prompt_tokens"] * self.prices[0] + row["completion_tokens"] * self.prices[1]
        frame = pd.DataFrame.from_dict(rows, orient="index")
        frame.index.name = "operation"
        return frame

    def __str__(self) -> str:
        text = (f"{self.calls} model calls to make; the cache answers {self.cached} of {self.judgements} judgements; "
                f"about {self.prompt_tokens} input + {self.completion_tokens} output tokens")
        if self.cost is not None:
            text += f", about {self.cost:.4g} in cost"
        if self.estimated_texts:
            text += (f" (the claims of {self.estimated_texts} text(s) are not extracted yet: counted as one per "
                     "sentence)")
        return text
