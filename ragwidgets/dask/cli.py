"""``ragwidgets score 'runs/*.jsonl.gz' --workers N | --scheduler tcp://host:8786 --output DIR``:
every input file scored on a Dask cluster into ``DIR/part-NNNNN.jsonl.gz`` (the lines of
``score --format jsonl``) or, with ``--output-format parquet``, ``DIR/part-NNNNN.parquet`` (the
per-sample frame of :class:`.evaluate.DaskScores`), and the run's aggregates, merged by a tree
reduction, in ``DIR/summary.json`` (also printed), written last. A run owns DIR: it must be new or
empty, or with ``--overwrite`` hold only an earlier run's output, which is removed first. query_ids
are checked unique across files; ``--on-error report`` skips bad samples, lists them in
summary.json and on stderr, and exits 1."""

from __future__ import annotations

import gzip
import json
import re
import sys
import uuid
from contextlib import ExitStack
from pathlib import Path

import dask

from ..atomic import TEMPORARY, atomic_write
from ..engine.evaluate import STATUS_CODES
from ..engine.metrics import ragchecker_summary
from ..errors import RagWidgetsError
from ..output import write_jsonl
from .evaluate import DaskScores, Part, Settings, frame_of, paths_of, score_partition

WRITTEN = re.compile(r"part-\d{5,}\.(jsonl\.gz|parquet)|summary\.json")
"""The names of the files a run writes in its --output folder."""


def write_part(source: str, number: int, target: str, settings: Settings, fmt: str) -> Part:
    """Score one file into ``target`` (written whole or not at all: a retried partition replaces
    it) and return the partition's scores (its Part)."""
    scores, errors, warnings = score_partition(settings, Path(source), f"file {source}")  # a path, never JSON text
    frame = frame_of(scores, settings, number)
    if fmt == "parquet":
        with atomic_write(target, "wb") as out:
            frame.to_parquet(out, index=False)
    else:
        with atomic_write(target, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=5) as out:
            if scores is not None:
                write_jsonl(scores, out)
    return Part(frame, errors, warnings)


def own_folder(out: Path, overwrite: bool, inputs: list[str]) -> None:
    """Make ``out`` this run's: new or empty, or with ``overwrite`` rid of an earlier run's parts
    and summary.json (the summary first; their temporary files too). A folder holding anything
    else, or one of this run's inputs, is refused, and nothing in it is removed."""
    if out.exists() and not out.is_dir():
        raise RagWidgetsError(f"--output {out} is a file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    present = sorted(entry.name for entry in out.iterdir())
    if not present:
        return
    if not overwrite:
        raise RagWidgetsError(f"--output {out} is not empty (it holds {', '.join(present[:3])}"
                              f"{' ...' if len(present) > 3 else ''}): a run writes a new or empty folder; give "
                              "--overwrite to replace an earlier run's parts and summary.json")
    foreign = [name for name in present if not WRITTEN.fullmatch(_target_of(name))]
    if foreign:
        raise RagWidgetsError(f"--output {out} holds files this command does not write ({', '.join(foreign[:3])}"
                              f"{' ...' if len(foreign) > 3 else ''}): --overwrite removes only an earlier run's "
                              "part-NNNNN files and summary.json; give a new or empty folder")
    inputs_there = {Path(p).resolve() for p in inputs} & {(out / name).resolve() for name in present}
    if inputs_there:
        raise RagWidgetsError(f"--output {out} holds this run's input {min(inputs_there).name}: give another folder")
    for name in sorted(present, key=lambda name: name != "summary.json"):
        (out / name).unlink()


def _target_of(name: str) -> str:
    """The file a name stands for: itself, or the target of an atomic_write temporary file."""
    temporary = TEMPORARY.fullmatch(name)
    return temporary["target"] if temporary else name


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
    settings = Settings(args.scores, args.mode, args.undefined, args.on_error)
    paths = paths_of(args.input)
    out = Path(args.output)
    own_folder(out, args.overwrite, paths)
    suffix = ".parquet" if args.output_format == "parquet" else ".jsonl.gz"
    targets = [out / f"part-{k:05d}{suffix}" for k in range(len(paths))]
    with ExitStack() as stack:
        _client(stack, args.workers, args.scheduler)
        name = f"ragwidgets-part-{uuid.uuid4().hex[:8]}"
        parts = [dask.delayed(write_part)(path, k, str(target), settings, args.output_format,
                                          dask_key_name=(name, k))
                 for k, (path, target) in enumerate(zip(paths, targets))]
        scores = DaskScores(parts, settings, paths)
        aggregate = scores.aggregate()
    summary = {"samples": scores.samples, "parts": [{"input": p, "output": t.name} for p, t in zip(paths, targets)],
               "metrics": aggregate, "ragchecker_metrics": ragchecker_summary(aggregate)}
    if args.output_format == "parquet":
        summary["status_codes"] = STATUS_CODES
    if scores.errors:
        summary["errors"] = [{"sample": e.sample, "field": e.field, "message": e.detail} for e in scores.errors]
    with atomic_write(out / "summary.json", encoding="utf-8") as file:  # last: it lists this run's parts
        file.write(json.dumps(summary, indent=2) + "\n")
    for warning in scores.warnings:
        print(f"ragwidgets: warning: {warning}", file=sys.stderr)
    for err in scores.errors:
        print(f"skipped {err}", file=sys.stderr)
    json.dump({k: v for k, v in summary.items() if k not in ("parts", "errors")}, sys.stdout, indent=2)
    print(f"\nwrote {len(targets)} part(s) and summary.json to {out}", file=sys.stderr)
    return 1 if scores.errors else 0
