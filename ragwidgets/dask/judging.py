"""``RagChecker.score`` and ``dry_run`` over a Dask DataFrame: each partition is scored by the
single-process scorer on a worker, with one judge per worker process and one bound on the judge
requests in flight across the whole cluster.

The judge travels as a recipe (``OpenAICompatibleJudge.recipe()``: its class and arguments, never
the key, which each worker reads from its own environment) or, for an offline judge, pickled.
Every request of a judge that sends requests holds a lease of one ``distributed.Semaphore`` of
``max_in_flight`` leases, besides its slot of the judge's own ``max_concurrency``. Answers go to
the judge's cache as they arrive (a sqlite file every worker opens), so a partition Dask runs again
after a worker died, or a second run, pays only for what is not cached yet.
"""

from __future__ import annotations

import asyncio
import functools
import operator
import threading
import uuid
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Optional

import cloudpickle
import dask
import dask.dataframe as dd
import distributed
import pandas as pd

from ..judges import DryRun, JudgeError, JudgeInterrupted, JudgeRunStopped, UnknownJudgeError, get_judge
from ..judges.composed import ComposedRecipe
from ..judges.limits import ConcurrencyLimit
from ..judges.openai_compatible import JudgeRecipe
from ..scoring.columns import STORED_FIELDS
from ..scoring.result import UNJUDGED_COLUMN, ScoringResult
from .evaluate import check_lists_kept

KEPT_RUNS = 4  # judges a worker keeps built, one per run (the most recent runs)


class PartitionStopped(JudgeRunStopped):
    """A partition's judge run stopped (more calls failed than ``max_failures``); the message names
    the partition, its rows and the first failed samples. Finished answers are in the cache."""

    def __init__(self, message: str, failures: list[tuple[int, str]]):
        super().__init__(message, results=[], failures=failures)

    def __reduce__(self):
        return type(self), (str(self), self.failures)


_stopped_runs: set[str] = set()  # runs stopped from the client, in this worker process


def _set_stopped(run: str, stopped: bool) -> None:
    (_stopped_runs.add if stopped else _stopped_runs.discard)(run)


class ClusterLimit:
    """A request slot of a judge on a worker: its own slot (``local``), then a lease of the cluster's
    semaphore. The semaphore's calls block, so they run on threads of their own, one per local slot
    (a holder of a local slot waits on at most one of them), never on a shared pool. A lease granted
    after its waiter was cancelled is released, and the local slot with it. Once the client stopped
    the run, no slot is given: the request raises instead of being sent."""

    def __init__(self, semaphore: distributed.Semaphore, local: ConcurrencyLimit):
        self.semaphore = semaphore
        self.local = local
        self.threads = ThreadPoolExecutor(local.limit, thread_name_prefix="ragwidgets-cluster-limit")

    def _check_running(self) -> None:
        if self.semaphore.name in _stopped_runs:
            raise JudgeError("the run was stopped from the client: no new request is sent")

    async def __aenter__(self) -> None:
        await self.local.acquire()
        try:
            self._check_running()
            leased = self.threads.submit(self.semaphore.acquire)
        except BaseException:
            self.local.release()
            raise
        try:
            await asyncio.wrap_future(leased)
        except asyncio.CancelledError:
            leased.add_done_callback(self._give_back)
            raise
        except BaseException:
            self.local.release()
            raise
        try:
            self._check_running()
        except JudgeError:
            await self.__aexit__()
            raise

    def _give_back(self, leased: Future) -> None:
        try:
            if not leased.cancelled() and leased.exception() is None and leased.result():
                self.semaphore.release()
        finally:
            self.local.release()

    async def __aexit__(self, *exc) -> None:
        released = self.threads.submit(self.semaphore.release)
        released.add_done_callback(lambda _: self.local.release())
        await asyncio.shield(asyncio.wrap_future(released))

    def close(self) -> None:
        """Stop refreshing the leases (there are none left once the run's partitions finished)."""
        refresh = getattr(self.semaphore, "refresh_callback", None)  # absent when leases never time out
        if refresh is not None:
            self.semaphore.loop.add_callback(refresh.stop)


_built: OrderedDict[str, Any] = OrderedDict()
_built_lock = threading.Lock()


def _parts(judge: Any) -> list:
    """The judges that send a composition's calls (each once), or the judge itself."""
    parts = getattr(judge, "parts", None)
    return list({id(p): p for p in parts.values()}.values()) if isinstance(parts, dict) else [judge]


def judge_for(run: str, recipe: Any, max_in_flight: Optional[int]) -> Any:
    """The judge of ``run`` in this worker process, built on first use from ``recipe`` (a
    ``JudgeRecipe`` or ``ComposedRecipe``, a judge, a registry key or None) and kept for the run's
    other partitions. With ``max_in_flight``, each part that sends requests shares the run's
    cluster-wide semaphore."""
    with _built_lock:
        if run not in _built:
            judge = recipe.build() if isinstance(recipe, (JudgeRecipe, ComposedRecipe)) else recipe
            for part in _parts(judge):
                local = getattr(part, "_limit", None)
                if max_in_flight is not None and isinstance(local, ConcurrencyLimit):
                    part._limit = ClusterLimit(distributed.Semaphore(max_leases=max_in_flight, name=run), local)
            _built[run] = judge
            while len(_built) > KEPT_RUNS:
                _, old = _built.popitem(last=False)
                for part in _parts(old):
                    if isinstance(getattr(part, "_limit", None), ClusterLimit):
                        part._limit.close()
        _built.move_to_end(run)
        return _built[run]


def recipe_of(config, judge: Any) -> Any:
    """What the workers build their judge from: a recipe for a judge that has one (its key stays
    here), else the judge itself (pickled), a registry key unknown here, or None (no judge)."""
    if judge is None:
        judge = config.judge_model_key
    if isinstance(judge, str):
        try:
            judge = get_judge(judge)
        except UnknownJudgeError:
            return judge  # resolved on the worker, only if some judge work is needed
    if hasattr(judge, "recipe"):
        return judge.recipe()
    try:
        cloudpickle.dumps(judge)
    except Exception as err:  # whatever pickling raises, said in one line
        raise TypeError(f"the judge {type(judge).__name__} cannot be sent to the workers ({err}): give it a recipe() "
                        "as OpenAICompatibleJudge has, or register it on every worker and pass its key") from None
    return judge


def _span(part: pd.DataFrame) -> str:
    return f"{part.index[0]!r} … {part.index[-1]!r}" if len(part) else "none"


def _score_part(part: pd.DataFrame, number: int, config, recipe: Any, run: str,
                max_in_flight: Optional[int]) -> ScoringResult:
    judge = judge_for(run, recipe, max_in_flight)
    try:
        return config.score(part, judge, progress=False)
    except JudgeRunStopped as stop:
        raise PartitionStopped(f"partition {number} (rows {_span(part)}): {stop}", stop.failures) from None


def _frame_of(result: ScoringResult, columns: pd.Index) -> pd.DataFrame:
    """A partition's scored rows with every column of the run (``unjudged``: [] where nothing is)."""
    frame = result.frame
    if UNJUDGED_COLUMN not in frame:
        frame = frame.assign(**{UNJUDGED_COLUMN: pd.Series([[] for _ in range(len(frame))], index=frame.index,
                                                           dtype=object)})
    return frame[columns]


def _plan_part(part: pd.DataFrame, config, recipe: Any, run: str) -> DryRun:
    return config.dry_run(part, judge_for(run, recipe, None))


def combine(config, results: list[ScoringResult]) -> ScoringResult:
    """The partitions' results as one, as ``config.score`` of all their rows returns it."""
    frame = pd.concat([r.frame for r in results])
    if UNJUDGED_COLUMN in frame:
        frame[UNJUDGED_COLUMN] = pd.Series([v if isinstance(v, list) else [] for v in frame[UNJUDGED_COLUMN]],
                                           index=frame.index, dtype=object)
    metrics = {t.name: t.compute(frame[t.score], frame) for t in config.aggregations}
    usage = functools.reduce(operator.add, (r.usage for r in results))
    records = [record for r in results for record in r.records]
    return ScoringResult(config, frame, results[0].score_columns, metrics, usage, records)


@dataclass
class DaskScoringResult:
    """What ``RagChecker.score`` of a Dask DataFrame returns; nothing is judged before it is computed.

    ``frame``: the scored rows, lazy, partitioned as the input (index and order kept), with the
    columns of ``ScoringResult.frame`` (``unjudged`` always, [] where nothing is). ``compute()``: the
    ``ScoringResult`` of every row, as the pandas path gives it (metrics over all rows, usage summed
    over partitions). Each computation runs the partitions again; the cache answers what the
    previous one judged.
    """

    config: Any
    frame: dd.DataFrame
    parts: list
    run: str

    def compute(self) -> ScoringResult:
        """Every partition's result, combined. An error in one partition, or an interrupt, stops the
        run: no partition starts and no new request is sent (requests in flight finish); answers
        received are in the cache, so computing again resumes from there."""
        client = distributed.default_client()
        client.run(_set_stopped, self.run, False)
        futures = client.compute(self.parts)
        try:
            results = client.gather(futures)
        except BaseException as err:
            self.stop()
            client.cancel(futures)
            if isinstance(err, KeyboardInterrupt):
                raise JudgeInterrupted("interrupted: no partition starts and no new request is sent; every answer "
                                       "received is in the judge cache, so running again resumes from there") from None
            raise
        return combine(self.config, results)

    def __repr__(self) -> str:
        return (f"DaskScoringResult({self.config.name}: {len(self.parts)} partitions, lazy; .frame, .compute(), "
                ".stop())")

    def stop(self) -> None:
        """Send no new request from any worker for this run (the partitions then fail)."""
        distributed.default_client().run(_set_stopped, self.run, True)


def _check_source(config, data) -> None:
    """A Dask DataFrame, a distributed Client to run it, and its list columns still lists."""
    if not isinstance(data, dd.DataFrame):
        raise TypeError(f"expected a dask.dataframe.DataFrame, got {type(data).__name__}")
    try:
        distributed.default_client()
    except ValueError:
        raise ValueError("judging a Dask DataFrame runs on a distributed cluster: start a Client first "
                         "(distributed.Client('tcp://host:8786'), or Client(n_workers=8) on one machine)") from None
    lists = {config.context_column, config.target_claims_column, config.response_claims_column,
             config.target_labels_column, config.response_labels_column, *STORED_FIELDS}
    check_lists_kept(data, lists)


def _bound(recipe: Any, max_in_flight: Optional[int]) -> Optional[int]:
    """The cluster-wide bound: ``max_in_flight``, else the judge's own ``max_concurrency``; None for
    a judge that sends no requests."""
    if isinstance(recipe, ComposedRecipe):  # its parts that send requests: the least of their own bounds
        own = [p.arguments["max_concurrency"] for p in recipe.parts.values() if isinstance(p, JudgeRecipe)]
        own += [p.max_concurrency for p in recipe.parts.values()
                if getattr(p, "sends_requests", False) and hasattr(p, "max_concurrency")]
        limit = max_in_flight if max_in_flight is not None else min(own, default=None)
    elif isinstance(recipe, JudgeRecipe):
        limit = max_in_flight if max_in_flight is not None else recipe.arguments["max_concurrency"]
    elif getattr(recipe, "sends_requests", False) and max_in_flight is None:
        limit = getattr(recipe, "max_concurrency", None)
    else:
        limit = max_in_flight
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
        raise ValueError(f"max_in_flight must be a whole number of at least 1, got {limit!r}")
    return limit


def score(config, data: dd.DataFrame, judge: Any = None, *, max_in_flight: Optional[int] = None) -> DaskScoringResult:
    """``config.score`` of every partition of ``data`` on the current distributed cluster, with at most
    ``max_in_flight`` judge requests in flight in all (default: the judge's ``max_concurrency``)."""
    _check_source(config, data)
    recipe = recipe_of(config, judge)
    bound = _bound(recipe, max_in_flight)
    meta = config.score(data._meta).frame
    meta[UNJUDGED_COLUMN] = pd.Series([], index=meta.index, dtype=object)
    run = f"ragwidgets-judge-{uuid.uuid4().hex}"
    parts = [dask.delayed(_score_part, pure=False)(p, k, config, recipe, run, bound, dask_key_name=(run, k))
             for k, p in enumerate(data.to_delayed())]
    frames = [dask.delayed(_frame_of)(r, meta.columns, dask_key_name=(run + "-frame", k)) for k, r in enumerate(parts)]
    with dask.config.set({"dataframe.convert-string": False}):  # else Dask turns the lists into text
        frame = dd.from_delayed(frames, meta=meta, divisions=data.divisions, verify_meta=False)
    return DaskScoringResult(config, frame, parts, run)


def dry_run(config, data: dd.DataFrame, judge: Any = None) -> DryRun:
    """``config.dry_run`` of every partition on the workers (their cache, their judge), summed: what
    ``score(data)`` would send. Nothing is sent."""
    _check_source(config, data)
    recipe = recipe_of(config, judge)
    run = f"ragwidgets-plan-{uuid.uuid4().hex}"
    plans = dask.compute(*[dask.delayed(_plan_part, pure=False)(p, config, recipe, run, dask_key_name=(run, k))
                           for k, p in enumerate(data.to_delayed())])
    return functools.reduce(operator.add, plans, DryRun())
