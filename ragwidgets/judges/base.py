"""Shared machinery of every judge: the cache, the statistics, batching, progress and sync wrappers.

A concrete judge implements three hooks (``_extract_call``, ``_check_call``, ``_label_call``) that
do one uncached piece of work each; ``BaseJudge`` looks every judgement up in the cache first,
stores only answered ones, splits claim checks into batches of ``check_batch_size`` (joint
checking; a claim given twice in one check is asked once), and counts calls, requests, retries,
cache hits, tokens and failures in ``stats``. A run (``arun``) stops once more calls failed than
``max_failures``, raising ``JudgeRunStopped`` with the finished results; it shows retries in its
progress bar and sums them up in one log line.

A call that returns a ``trace`` (what it sent and what came back: an LLM judge's validated reply)
has it stored in the cache beside its answers, when the cache keeps traces (``put_traces``): once
per call, each answer pointing at it (see ``cache``). The first answer to a question wins: a new
answer under a key the cache already holds (the same question asked at once by two jobs) is
neither stored nor used, the cache's is, so a run and a rerun from its cache read one answer.
Storing a trace is neither a request nor a cache hit. ``trace_check`` / ``trace_extract`` read one back without calling the model.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Optional, TypeVar

from tqdm.auto import tqdm

from .cache import MISSING, CacheSetting, key_from_json, resolve_cache
from .claims import AssumedClaim, ClaimLike, Reference, claim_text, reference_text, sentences
from .errors import JudgeInterrupted, JudgeRunStopped
from .jobs import CheckJob, DryRun, ExtractJob, Job, LabelJob
from .results import CallUsage, JudgeResult, JudgeStats, Usage
from .sync import run_sync

T = TypeVar("T")
logger = logging.getLogger("ragwidgets.judges")


ASSUMED = "assumed"  # a label job about assumed claims: a call, not looked up


class _TooManyFailures(Exception):
    """Raised inside a run to stop it; ``arun`` turns it into ``JudgeRunStopped``."""


@dataclass
class CallOutcome:
    """What one uncached call produced. ``value`` None: the whole call is unjudged, ``reason`` says why.

    For list values, a None item is an unjudged item (also explained by ``reason``).
    """

    value: Any
    reason: Optional[str] = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    attempts: int = 1
    item_reasons: dict[int, str] = field(default_factory=dict)
    trace: Optional[dict[str, Any]] = None  # the validated reply's messages, reply, finish_reason, time


class BaseJudge:
    """Base class of the judges in this package (see the module docstring)."""

    model: str = ""
    base_url: Optional[str] = None
    check_batch_size: int = 256  # offline judges: a "call" costs nothing, so one per job
    max_jobs_in_flight: int = 64
    sends_requests = False  # True for judges whose calls are HTTP requests (their attempts are counted)
    repeat = 0  # which asking of a check / label this judge makes (see ``repeats.repeat_of``); 0: the first
    deterministic = False  # True: the same question always gets the same answer, so repeats share its cache key

    def __init__(self, *, cache: CacheSetting = None, progress: bool = True, max_failures: Optional[int] = None,
                 keep_traces: bool = True):
        if max_failures is not None and (not isinstance(max_failures, int) or max_failures < 0):
            raise ValueError(f"max_failures must be None or a whole number of at least 0, got {max_failures!r}")
        self.cache = resolve_cache(cache)
        self.stats = JudgeStats()
        self.progress = progress
        self.max_failures = max_failures
        self.keep_traces = bool(keep_traces)  # False: cache the answers only (a trace is ~1.4 kB a call)
        self._identities: dict[tuple, str] = {}  # (operation, model, base_url) -> identity JSON

    def __getstate__(self) -> dict[str, Any]:
        """A copy of an offline judge for another process (a Dask worker): its counters start at zero
        and its cache (pickled as its location) opens there. A judge that sends requests may hold a
        key: refused."""
        if self.sends_requests:
            raise TypeError(f"{type(self).__name__} sends requests and may hold a key: it is not pickled")
        return dict(self.__dict__, stats=None)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, stats=JudgeStats())

    # -- hooks for concrete judges -------------------------------------------------------------

    async def _extract_call(self, text: str, question: str, instructions: Optional[str]) -> CallOutcome:
        raise NotImplementedError

    async def _check_call(self, claims: list[ClaimLike], reference: Reference) -> CallOutcome:
        raise NotImplementedError

    async def _label_call(self, claims: list[ClaimLike], question: str, instructions: Optional[str]) -> CallOutcome:
        raise NotImplementedError

    def prompt_version(self, operation: str) -> str:
        """The version of the prompt (or rule) behind ``operation``; part of every cache key."""
        return f"{operation}_v1"

    def identity(self, operation: str) -> dict[str, Any]:
        """Who answers ``operation``: class, model, server host, prompt version (never a secret)."""
        from .secrets import url_host

        return {
            "class": type(self).__name__,
            "model": self.model,
            "host": url_host(self.base_url) if self.base_url else None,
            "prompt": self.prompt_version(operation),
        }

    def _key(self, operation: str, inputs: dict[str, Any]) -> str:
        """The cache key of ``inputs`` (``cache_key`` of ``identity(operation)``, the identity's JSON kept)."""
        memo = (operation, self.model, self.base_url)
        if memo not in self._identities:
            self._identities[memo] = json.dumps(self.identity(operation), sort_keys=True, ensure_ascii=False,
                                                separators=(",", ":"))
        return key_from_json(self._identities[memo], operation, inputs)

    def claim_input(self, claim: ClaimLike) -> Any:
        """What of a claim the judge looks at (and so what enters the cache key)."""
        return claim_text(claim)

    def reference_input(self, reference: Reference) -> Any:
        """What of a reference the judge looks at (and so what enters the cache key)."""
        return reference_text(reference)

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[None]:
        """Resources shared by the calls of one run (an HTTP connection pool for remote judges)."""
        yield

    # -- cache keys ---------------------------------------------------------------------------

    def _extract_key(self, job: ExtractJob) -> Optional[str]:
        """None for a blank text: it states no claims, and no call is made."""
        if not (job.text or "").strip():
            return None
        inputs = {"text": job.text, "question": job.question or "", "instructions": job.instructions or ""}
        return self._key("extract", inputs)

    def _check_key(self, claim: ClaimLike, reference: Reference) -> str:
        inputs = {"claim": self.claim_input(claim), "reference": self.reference_input(reference)}
        if self.repeat and not self.deterministic:  # repeat 0 keeps the keys of a judge asked once
            inputs["repeat"] = self.repeat
        return self._key("check", inputs)

    def _label_key(self, job: LabelJob) -> Optional[str]:
        """None for an empty claim list: there is nothing to label, and no call is made."""
        if not job.claims:
            return None
        inputs = {
            "claims": [self.claim_input(c) for c in job.claims],
            "question": job.question or "",
            "instructions": job.instructions or "",
        }
        if self.repeat and not self.deterministic:
            inputs["repeat"] = self.repeat
        return self._key("label", inputs)

    def _cached(self, key: str) -> Any:
        return MISSING if self.cache is None else self.cache.get(key)

    def _keep(self, operation: str, outcome: CallOutcome, answers: dict[str, tuple[Any, int]]) -> dict[str, Any]:
        """Store the answers one call gave (``{key: (answer, its item in the call)}``) that the cache
        does not hold yet, with the call's trace; the answer to use under each key: the cache's, where
        it held one already. The first answer to a question wins, so every use of it in a run (two
        samples asking the same check at once) and a rerun from the cache read one answer."""
        if self.cache is None:
            return {key: value for key, (value, _) in answers.items()}
        held = self.cache.get_many(list(answers))
        new = {key: answer for key, answer in answers.items() if key not in held}
        trace = self._store_trace(operation, outcome) if new else None
        for key, (value, item) in new.items():
            if trace is None:
                self.cache.put(key, operation, value)
            else:
                self.cache.put(key, operation, value, trace=f"{trace}#{item}")
        return {key: held.get(key, value) for key, (value, _) in answers.items()}

    def _store_trace(self, operation: str, outcome: CallOutcome) -> Optional[str]:
        """Store the trace of a call whose answer will be cached; its key (derived from the judge and
        the messages sent), or None when there is none or the cache keeps none.

        A system message (the prompt, the same in every call of an operation) is stored once, under
        a key of its own, and the trace names that key: about 700 bytes a call not written again.
        """
        if outcome.trace is None or not self._keeps_traces():
            return None
        messages, stored = [], {}
        for message in outcome.trace["messages"]:
            if message["role"] == "system":
                shared = self._key(operation, {"system": message["content"]})
                stored[shared] = {"text": message["content"]}
                message = {"role": "system", "shared": shared}
            messages.append(message)
        call: dict[str, Any] = {"call": outcome.trace["messages"]}
        if self.repeat:  # each repeat's reply a trace of its own (the messages are the same)
            call["repeat"] = self.repeat
        key = self._key(operation, call)
        stored[key] = dict(outcome.trace, messages=messages, operation=operation, model=self.model,
                           prompt_version=self.prompt_version(operation))
        self.cache.put_traces(stored)
        return key

    def _keeps_traces(self) -> bool:
        return self.keep_traces and self._cache_has_traces()

    def _cache_has_traces(self) -> bool:
        return self.cache is not None and all(hasattr(self.cache, n) for n in ("put_traces", "get_trace", "trace"))

    def _hit(self, key: str) -> Optional[JudgeResult]:
        """The judgement the cache holds under ``key`` (counted as a hit), else None."""
        hit = self._cached(key)
        if hit is MISSING:
            return None
        self.stats.add_hits(1)
        return JudgeResult(hit, Usage(cache_hits=1))

    def _record(self, operation: str, outcome: CallOutcome, ok: bool) -> Usage:
        """Count one finished call; ``ok``: it left nothing unjudged. (A judge that sends requests
        counts them and their tokens in ``stats`` as they happen.)"""
        tokens = (outcome.prompt_tokens, outcome.completion_tokens)
        self.stats.add_call(CallUsage(operation, *tokens, outcome.attempts, ok))
        if not self.sends_requests:
            self.stats.add_tokens(*tokens)
        requests = outcome.attempts if self.sends_requests else 0
        return Usage(1, 0, *tokens, 0 if ok else 1, requests, max(0, requests - 1))

    def _per_claim(self, operation: str, outcome: CallOutcome, n: int) -> tuple[list, dict[int, str], Usage]:
        """Count one check or label call about ``n`` claims and read it as one label per claim.

        Returns the labels (None where unjudged), the reason for each None, and the call's usage.
        An answer with a number of labels other than ``n`` leaves every claim unjudged.
        """
        if outcome.value is not None and len(outcome.value) != n:
            reason = f"the judge gave {len(outcome.value)} label(s) for {n} claims"
            outcome = replace(outcome, value=None, reason=reason, item_reasons={})
        values = list(outcome.value) if outcome.value is not None else [None] * n
        reasons = {i: outcome.item_reasons.get(i) or outcome.reason or "unjudged"
                   for i, v in enumerate(values) if v is None}
        return values, reasons, self._record(operation, outcome, not reasons)

    # -- the three operations -----------------------------------------------------------------

    async def _run_extract(self, job: ExtractJob) -> JudgeResult:
        key = self._extract_key(job)
        if key is None:
            return JudgeResult([])
        if (hit := self._hit(key)) is not None:
            return hit
        outcome = await self._extract_call(job.text, job.question or "", job.instructions)
        usage = self._record("extract", outcome, outcome.value is not None)
        if outcome.value is None:
            return JudgeResult([], usage, failure=outcome.reason or "unjudged")
        return JudgeResult(self._keep("extract", outcome, {key: (outcome.value, 0)})[key], usage)

    async def _run_check(self, job: CheckJob) -> JudgeResult:
        """Labels of ``job``'s claims: the cache's, else asked in batches; a claim given twice (the
        same key) is asked once, and both get its one answer."""
        claims = list(job.claims)
        keys = [self._check_key(c, job.reference) for c in claims]
        usage = Usage()
        answers = {} if self.cache is None else self.cache.get_many(keys)
        usage.cache_hits = sum(key in answers for key in keys)
        self.stats.add_hits(usage.cache_hits)
        first: dict[str, int] = {}  # each key the cache does not hold: its first claim, the one asked
        for i, key in enumerate(keys):
            if key not in answers:
                first.setdefault(key, i)
        todo = list(first.values())
        size = max(1, int(self.check_batch_size))
        batches = [todo[s : s + size] for s in range(0, len(todo), size)]
        outcomes = await asyncio.gather(*(self._check_call([claims[i] for i in b], job.reference) for b in batches))
        why_not: dict[str, str] = {}
        for batch, outcome in zip(batches, outcomes):
            values, why, spent = self._per_claim("check", outcome, len(batch))
            usage = usage + spent
            why_not.update((keys[i], why[pos]) for pos, i in enumerate(batch) if pos in why)
            given = {keys[i]: (values[pos], pos) for pos, i in enumerate(batch) if pos not in why}
            answers.update(self._keep("check", outcome, given))
        labels = [answers.get(key) for key in keys]
        return JudgeResult(labels, usage, {i: why_not[key] for i, key in enumerate(keys) if key in why_not})

    async def _run_label(self, job: LabelJob) -> JudgeResult:
        key = self._label_key(job)
        if key is None:
            return JudgeResult([])
        if (hit := self._hit(key)) is not None:
            return hit
        outcome = await self._label_call(list(job.claims), job.question or "", job.instructions)
        values, reasons, usage = self._per_claim("label", outcome, len(job.claims))
        if not reasons:
            values = self._keep("label", outcome, {key: (values, 0)})[key]
        return JudgeResult(values, usage, reasons)

    async def _run_job(self, job: Job) -> JudgeResult:
        if isinstance(job, ExtractJob):
            return await self._run_extract(job)
        if isinstance(job, CheckJob):
            return await self._run_check(job)
        if isinstance(job, LabelJob):
            return await self._run_label(job)
        raise TypeError(f"not a judge job: {job!r}")

    # -- public async API ---------------------------------------------------------------------

    async def aextract_claims(self, text: str, question: str = "", instructions: Optional[str] = None) -> JudgeResult:
        async with self.session():
            return await self._run_extract(ExtractJob(text, question, instructions))

    async def acheck(self, claims: Sequence[ClaimLike], reference: Reference) -> JudgeResult:
        async with self.session():
            return await self._run_check(CheckJob(list(claims), reference))

    async def alabel_claims(
        self, claims: Sequence[ClaimLike], question: str = "", instructions: Optional[str] = None
    ) -> JudgeResult:
        async with self.session():
            return await self._run_label(LabelJob(list(claims), question, instructions))

    async def arun(self, jobs: Sequence[Job], *, progress: Optional[bool] = None, desc: str = "judging") -> list[JudgeResult]:
        """Run ``jobs`` concurrently (bounded) with a progress bar; results in job order.

        More failed calls than ``max_failures``: no new call starts, the ones in flight are
        cancelled, and ``JudgeRunStopped`` carries the finished results and a summary.
        """
        jobs = list(jobs)
        return await self._arun(jobs, [None] * len(jobs), progress, desc)

    async def _arun(self, jobs: list[Job], results: list[Optional[JudgeResult]], progress: Optional[bool],
                    desc: str) -> list[JudgeResult]:
        """``arun``, filling ``results`` as jobs finish (so an interrupted caller sees what finished)."""
        show = self.progress if progress is None else progress
        bar = tqdm(total=len(jobs), desc=desc, unit="job", delay=0.5, disable=not show or not jobs)
        failures: list[tuple[int, str]] = []
        retried = 0
        reasons_before = Counter(self.stats.retry_reasons)

        async def one(i: int) -> None:
            nonlocal retried
            results[i] = result = await self._run_job(jobs[i])
            if result.usage.failures:
                failures.append((i, result.failure or next(iter(result.reasons.values()), "unjudged")))
            if result.usage.retries or result.usage.failures:
                retried += result.usage.retries
                bar.set_postfix(retried=retried, failed=len(failures), refresh=False)
            bar.update(1)
            if self.max_failures is not None and len(failures) > self.max_failures:
                raise _TooManyFailures

        try:
            async with self.session():
                await gather_bounded([lambda i=i: one(i) for i in range(len(jobs))], self.max_jobs_in_flight)
        except _TooManyFailures:
            raise JudgeRunStopped(self._stop_summary(results, failures), results=results,
                                  failures=sorted(failures)) from None
        finally:
            bar.close()
            self._log_retries(desc, results, self.stats.retry_reasons - reasons_before)
        return results

    def _stop_summary(self, results: list, failures: list[tuple[int, str]]) -> str:
        done = sum(r is not None for r in results)
        common = "; ".join(f"{n} × {why}" for why, n in Counter(why for _, why in failures).most_common(3))
        return (f"the run stopped: {len(failures)} calls failed, more than max_failures={self.max_failures}. "
                f"{done} of {len(results)} jobs had finished (their answers are in the cache: running again "
                f"resumes from them); no new request was sent. Failures: {common}")

    def _log_retries(self, desc: str, results: list, reasons: Counter) -> None:
        """One line for a run whose requests were retried or whose calls failed."""
        finished = [r for r in results if r is not None]
        retried = sum(r.usage.retries for r in finished)
        failed = sum(r.usage.failures for r in finished)
        if retried or failed:
            why = ", ".join(f"{why} × {n}" for why, n in reasons.most_common(4))
            logger.warning("%s (%s): %d requests retried%s; %d calls failed (their items are unjudged)",
                           desc, self.model or type(self).__name__, retried, f" ({why})" if why else "", failed)

    # -- sync wrappers ------------------------------------------------------------------------

    def extract_claims(self, text: str, question: str = "", instructions: Optional[str] = None) -> JudgeResult:
        """Sync form of ``aextract_claims`` (works inside a running event loop too)."""
        return run_sync(self.aextract_claims(text, question, instructions))

    def check(self, claims: Sequence[ClaimLike], reference: Reference) -> JudgeResult:
        """Sync form of ``acheck`` (works inside a running event loop too)."""
        return run_sync(self.acheck(claims, reference))

    def label_claims(
        self, claims: Sequence[ClaimLike], question: str = "", instructions: Optional[str] = None
    ) -> JudgeResult:
        """Sync form of ``alabel_claims`` (works inside a running event loop too)."""
        return run_sync(self.alabel_claims(claims, question, instructions))

    def run(self, jobs: Sequence[Job], *, progress: Optional[bool] = None, desc: str = "judging") -> list[JudgeResult]:
        """Sync form of ``arun`` (works inside a running event loop too). An interrupt cancels the
        requests in flight and raises ``JudgeInterrupted`` with the finished results."""
        jobs = list(jobs)
        results: list[Optional[JudgeResult]] = [None] * len(jobs)
        try:
            return run_sync(self._arun(jobs, results, progress, desc))
        except KeyboardInterrupt:
            done = sum(r is not None for r in results)
            raise JudgeInterrupted(f"interrupted: {done} of {len(jobs)} jobs had finished (their answers are in the "
                                   "cache: running again resumes from them); the requests in flight were cancelled "
                                   "and no new one was sent", results=results) from None

    # -- traces -------------------------------------------------------------------------------

    def trace_check(self, claim: ClaimLike, reference: Reference) -> tuple[Optional[dict], Optional[str]]:
        """Why this judge labelled ``claim`` against ``reference``: the trace of the call that did
        (``label``, ``messages``, ``reply``, …, ``item``: the claim's place among the call's claims)
        and None, or None and why there is none. Read from the cache only: no call, not counted."""
        return self._cached_trace(self._check_key(claim, reference), "check")

    def trace_extract(self, job: ExtractJob) -> tuple[Optional[dict], Optional[str]]:
        """Like ``trace_check``, for the extraction of ``job.text``'s claims (``label``: the claims)."""
        key = self._extract_key(job)
        if key is None:
            return None, "the text is blank: it states no claims, and no call was made"
        return self._cached_trace(key, "extract")

    def _cached_trace(self, key: str, operation: str) -> tuple[Optional[dict], Optional[str]]:
        if self.cache is None:
            return None, f"{self!r} has no cache, where traces are kept"
        if not self._cache_has_traces():
            return None, f"the cache {self.cache!r} keeps no traces"
        found = self.cache.trace(key)
        if found is MISSING:
            return None, (f"{self!r}'s cache holds no {operation} answer for it (not judged by this judge and "
                          "prompt, or judged with other inputs)")
        value, trace, item = found
        if trace is None:
            return None, ("judged before traces were kept, or with keep_traces=False (the cache holds the answer "
                          "without its trace)")
        messages = []
        for message in trace.get("messages") or []:
            if "shared" in message:
                shared = self.cache.get_trace(message["shared"])
                text = shared.get("text") if shared else None
                if not isinstance(text, str):
                    return None, "the trace's system prompt is missing from the cache (damaged or removed)"
                message = {"role": message["role"], "content": text}
            messages.append(message)
        return dict(trace, messages=messages, label=value, item=item), None

    # -- pricing ------------------------------------------------------------------------------

    def cached_claims(self, job: ExtractJob) -> Optional[list]:
        """The claims the cache holds for ``job`` (no call, not counted in ``stats``), else None."""
        key = self._extract_key(job)
        if key is None:
            return []
        hit = self._cached(key)
        return None if hit is MISSING else hit

    def estimate_tokens(self, operation: str, **inputs: Any) -> tuple[int, int]:
        """Input and output tokens of one call about ``inputs``; offline judges use none."""
        return 0, 0

    def prices(self) -> Optional[tuple[float, float]]:
        """Price per input token and per output token, when known (None: offline, or not given)."""
        return None

    def dry_run(self, jobs: Sequence[Job]) -> DryRun:
        """What ``run(jobs)`` would send: the same cache lookups and check batches, without a call."""
        plan = DryRun(prices=self.prices())
        size = max(1, int(self.check_batch_size))
        keys: list[Any] = []  # per job: its key (None: no call), or a check job's keys (None: assumed claim)
        for job in jobs:
            if isinstance(job, ExtractJob):
                keys.append(self._extract_key(job))
            elif isinstance(job, LabelJob):
                assumed = any(isinstance(c, AssumedClaim) for c in job.claims)
                keys.append(ASSUMED if assumed and job.claims else self._label_key(job))
            elif isinstance(job, CheckJob):
                keys.append([None if isinstance(c, AssumedClaim) else self._check_key(c, job.reference)
                             for c in job.claims])
            else:
                raise TypeError(f"not a judge job: {job!r}")
        held = set() if self.cache is None else set(self.cache.get_many(
            [k for key in keys for k in (key if isinstance(key, list) else [key]) if k not in (None, ASSUMED)]))
        for job, key in zip(jobs, keys):
            if isinstance(job, ExtractJob):
                if key is None:
                    continue
                miss = key not in held
                tokens = self.estimate_tokens("extract", text=job.text, question=job.question or "",
                                              instructions=job.instructions, claims=sentences(job.text)) if miss else (0, 0)
                plan.add("extract", calls=int(miss), judgements=1, cached=int(not miss), prompt_tokens=tokens[0],
                         completion_tokens=tokens[1])
            elif isinstance(job, LabelJob):
                if key is None:
                    continue
                miss = key not in held
                tokens = self.estimate_tokens("label", question=job.question or "", instructions=job.instructions,
                                              claims=[claim_text(c) for c in job.claims]) if miss else (0, 0)
                plan.add("label", calls=int(miss), judgements=1, cached=int(not miss), prompt_tokens=tokens[0],
                         completion_tokens=tokens[1])
            else:  # a claim given twice is asked once (an assumed claim, not looked up, each time)
                todo, asked = [], set()
                for c, k in zip(job.claims, key):
                    if k is None or (k not in held and k not in asked):
                        todo.append(c)
                        asked.add(k)
                plan.add("check", judgements=len(job.claims), cached=sum(k in held for k in key))
                for start in range(0, len(todo), size):
                    batch = [claim_text(c) for c in todo[start : start + size]]
                    tokens = self.estimate_tokens("check", claims=batch, reference=reference_text(job.reference))
                    plan.add("check", calls=1, prompt_tokens=tokens[0], completion_tokens=tokens[1])
        return plan


async def gather_bounded(factories: Sequence[Callable[[], Awaitable[T]]], limit: int) -> list[T]:
    """Await every factory's coroutine with at most ``limit`` started at once; results in order.

    If one raises, the others are cancelled and the error propagates.
    """
    results: list[Any] = [None] * len(factories)
    queue = iter(range(len(factories)))

    async def worker() -> None:
        for i in queue:
            results[i] = await factories[i]()

    tasks = [asyncio.ensure_future(worker()) for _ in range(min(max(1, limit), len(factories)))]
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    return results
