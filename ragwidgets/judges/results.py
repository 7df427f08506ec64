"""What a judge returns: labels, claims, and the token usage that produced them."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Literal, Optional, TypedDict

from ..model import IMPORTANCE_LABELS, LABEL_SPELLINGS

EntailmentLabel = Literal[LABEL_SPELLINGS]  # the spellings of ragwidgets.model.LABEL_CODES
ImportanceLabel = Literal[IMPORTANCE_LABELS]

ENTAILMENT_LABELS: tuple[str, ...] = LABEL_SPELLINGS


class ExtractedClaim(TypedDict):
    """One atomic claim as a judge extracts it: a subject-predicate-object triple (the data model's
    claim is :class:`ragwidgets.model.Claim`)."""

    subject: str
    predicate: str
    object: str


@dataclass
class Usage:
    """Cost of some judge work.

    ``calls``: judgements asked of the model (cache misses; a call's retries count once);
    ``cache_hits``: judgements answered by the cache (one per extraction, per claim check, per label
    list); ``failures``: calls that left something unjudged; tokens as reported by the server's
    ``usage`` (replies that were retried included); ``requests``: HTTP requests sent (every attempt);
    ``retries``: requests that repeated an earlier one (``requests - calls`` for finished calls).
    """

    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failures: int = 0
    requests: int = 0
    retries: int = 0

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
    """Running totals of a judge's work (see ``Usage``), safe to update from many threads.

    ``requests``, ``retries`` and tokens are counted as they happen (an interrupted call's
    requests included); ``calls`` and ``failures`` when a call finishes, with one ``CallUsage``
    per call in ``per_call``. ``retry_reasons``: why requests were repeated, and how often.
    """

    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failures: int = 0
    requests: int = 0
    retries: int = 0
    per_call: list[CallUsage] = field(default_factory=list, repr=False)
    retry_reasons: Counter = field(default_factory=Counter, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add_hits(self, n: int) -> None:
        with self._lock:
            self.cache_hits += n

    def add_request(self, retry_reason: Optional[str] = None) -> None:
        """One HTTP request sent; ``retry_reason``: why it repeats the one before (None: a first try)."""
        with self._lock:
            self.requests += 1
            if retry_reason is not None:
                self.retries += 1
                self.retry_reasons[retry_reason] += 1

    def add_tokens(self, prompt_tokens: int, completion_tokens: int) -> None:
        with self._lock:
            self.prompt_tokens += prompt_tokens
            self.completion_tokens += completion_tokens

    def add_call(self, call: CallUsage) -> None:
        with self._lock:
            self.calls += 1
            self.failures += 0 if call.ok else 1
            self.per_call.append(call)

    def as_usage(self) -> Usage:
        with self._lock:
            return Usage(**{f.name: getattr(self, f.name) for f in fields(Usage)})

    def reset(self) -> None:
        with self._lock:
            for f in fields(Usage):
                setattr(self, f.name, 0)
            self.per_call = []
            self.retry_reasons = Counter()

    def __str__(self) -> str:
        return (
            f"{self.calls} calls ({self.requests} requests, {self.retries} retries), {self.cache_hits} cache hits, "
            f"{self.failures} failures, {self.prompt_tokens} prompt + {self.completion_tokens} completion tokens"
        )
