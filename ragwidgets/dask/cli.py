"""``ragwidgets score 'runs/*.jsonl.gz' --workers N | --scheduler tcp://host:8786 --output DIR``:
every input file scored on a Dask cluster into ``DIR/part-NNNNN.jsonl.gz`` (the lines of
``score --format jsonl``), and the run's aggregates, merged by a tree reduction, in
``DIR/summary.json`` (also printed)."""

from __future__ import annotations

import gzip
import json
import os
import sys
from contextlib import ExitStack
from pathlib import Path

import dask

from ..engine.metrics import resolve
from ..errors import RagWidgetsError
from ..output import write_jsonl
from .evaluate import Settings, columns_of, paths_of, tree_reduce
from .totals import finish, ragchecker_summary, totals_of


def write_part(source: str, target: str, settings: Settings) -> dict:
    """Score one file into ``target`` (written whole or not at all: a retried partition
    replaces it) and return its totals with its sample count under ``"samples"``."""
    scores = settings.score(source, f"file {source}")
    partial = f"{target}.{os.getpid()}.partial"
    with gzip.open(partial, "wb", compresslevel=5) as out:
        write_jsonl(scores, out)
    os.replace(partial, target)
    return {"samples": [scores.batch.n_samples], **totals_of(columns_of(scores))}


def _client(stack: ExitStack, workers: int | None, scheduler: str | None):
    import distributed

    if scheduler:
        return stack.enter_context(distributed.Client(scheduler))
    cluster = stack.enter_context(distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                                           processes=True, dashboard_address=None))
    return stack.enter_context(distributed.Client(cluster))


def score(args) -> int:
    """The command: score, write the parts and summary.json, print the summary."""
    if args.example or not args.input:
        raise RagWidgetsError("--workers/--scheduler score files: give a glob such as 'runs/*.jsonl.gz'")
    if not args.output:
        raise RagWidgetsError("--workers/--scheduler write partitioned output: give --output DIR")
    if args.workers is not None and args.workers < 1:
        raise RagWidgetsError("--workers must be at least 1")
    settings = Settings(resolve(args.scores), args.mode, args.undefined)
    paths = paths_of(args.input)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    targets = [out / f"part-{k:05d}.jsonl.gz" for k in range(len(paths))]
    with ExitStack() as stack:
        _client(stack, args.workers, args.scheduler)
        parts = [dask.delayed(write_part)(path, str(target), settings, dask_key_name=f"ragwidgets-part-{k}")
                 for k, (path, target) in enumerate(zip(paths, targets))]
        totals = tree_reduce(parts).compute()
    samples = totals.pop("samples")[0]
    aggregate = finish(totals)
    summary = {"samples": samples, "parts": [{"input": p, "output": t.name} for p, t in zip(paths, targets)],
               "metrics": aggregate, "ragchecker_metrics": ragchecker_summary(aggregate)}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    json.dump({k: v for k, v in summary.items() if k != "parts"}, sys.stdout, indent=2)
    print(f"\nwrote {len(targets)} part(s) and summary.json to {out}", file=sys.stderr)
    return 0
