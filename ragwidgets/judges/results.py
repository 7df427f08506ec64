"""What a judge returns: labels, claims, and the token usage that produced them."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, fields
from typing import Literal, Optional, TypedDict

EntailmentLabel = Literal["Entailment", "Neutral", "Contradiction"]
ImportanceLabel = Literal["REQUIRED", "OPTIONAL"]

ENTAILMENT_LABELS: tuple[str, ...] = ("Entailment", "Neutral", "Contradiction")
IMPORTANCE_LABELS: tuple[str, ...] = ("REQUIRED", "OPTIONAL")


class Claim(TypedDict):
    """One atomic claim as a subject-predicate-object triple."""

    subject: str
    predicate: str
    object: str


@dataclass
class Usage:
    """Cost of some judge work.

    ``calls``: requests made to the model (cache misses; retries of one call count once);
    ``cache_hits``: judgements answered by the cache (one per extraction, per claim check, per label
    list); ``failures``: calls that left something unjudged; tokens as reported by the server's ``usage``.
    """

    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failures: int = 0

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)})

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class JudgeResult(list):
    """A list of judged values that also carries its ``usage``, ``reasons`` and ``failure``.

    A value of None is unjudged; ``reasons`` maps its index to why. ``failure`` is set when the
    result as a whole is unjudged (an extraction whose answer could not be read): the list is then
    empty but means "unknown", not "no claims"; ``judged`` is False.
    It compares equal to the plain list of its values.
    """

    def __init__(
        self,
        values=(),
        usage: Optional[Usage] = None,
        reasons: Optional[dict[int, str]] = None,
        failure: Optional[str] = None,
    ):
        super().__init__(values)
        self.usage = usage if usage is not None else Usage()
        self.reasons = dict(reasons or {})
        self.failure = failure

    @property
    def judged(self) -> bool:
        return self.failure is None

    def __repr__(self) -> str:
        extra = f", failure={self.failure!r}" if self.failure else ""
        return f"JudgeResult({list.__repr__(self)}, usage={self.usage!r}{extra})"


@dataclass(frozen=True)
class CallUsage:
    """One call to the model: its operation, tokens, HTTP attempts and whether it gave an answer."""

    operation: str
    prompt_tokens: int
    completion_tokens: int
    attempts: int
    ok: bool


@dataclass
class JudgeStats:
    """Running totals of a judge's work, plus one ``CallUsage`` per call (``per_call``)."""

    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failures: int = 0
    per_call: list[CallUsage] = field(default_factory=list, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add_hits(self, n: int) -> None:
        with self._lock:
            self.cache_hits += n

    def add_call(self, call: CallUsage) -> None:
        with self._lock:
            self.calls += 1
            self.prompt_tokens += call.prompt_tokens
            self.completion_tokens += call.completion_tokens
            self.failures += 0 if call.ok else 1
            self.per_call.append(call)

    def as_usage(self) -> Usage:
        return Usage(self.calls, self.cache_hits, self.prompt_tokens, self.completion_tokens, self.failures)

    def reset(self) -> None:
        with self._lock:
            self.calls = self.cache_hits = self.prompt_tokens = self.completion_tokens = self.failures = 0
            self.per_call = []

    def __str__(self) -> str:
        return (
            f"{self.calls} calls, {self.cache_hits} cache hits, {self.failures} failures, "
            f"{self.prompt_tokens} prompt + {self.completion_tokens} completion tokens"
        )
