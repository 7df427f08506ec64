"""Scoring on a Dask LocalCluster against the single-process engine, at 1M+ generated samples.

``python benchmarks/dask_scale.py --n 1000000 --part 50000 --workers 2``: writes the run as
partitioned JSONL.gz (ragwidgets.datasets.synthetic, query_ids unique across parts), then

1. single process: ``rw.evaluate(<every part's lines in one .jsonl.gz file>)`` in a child process (CPU
   seconds, peak RSS); its per-sample values and aggregates saved for the comparison;
2. Dask: ``rw.evaluate(glob, engine="dask")`` on a LocalCluster of ``--workers`` processes (one
   thread each): per-sample frame collected and compared sample by sample (values bit for bit,
   statuses), aggregates' counts equal and means within 1e-12; wall time, each worker's CPU
   seconds (getrusage) and peak RSS (VmHWM) in each worker.

Prints one JSON object; the figures go to benchmarks/README.md ("Dask").
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec
import numpy as np
import pandas as pd

from ragwidgets.datasets.synthetic import synthetic_run

SINGLE = """
import json, resource, sys, time
import ragwidgets as rw
start = time.process_time()
scores = rw.evaluate(sys.argv[1])
aggregate = scores.aggregate()
cpu = time.process_time() - start
frame = scores.frame.reset_index()
for part in scores.parts:
    for shown, _, _, name in part.columns():
        frame[shown + "_status"] = part.code[name]
frame.to_parquet(sys.argv[2])
json.dump({"cpu_s": cpu, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           "aggregate": aggregate}, open(sys.argv[3], "w"))
"""


def write_run(folder: Path, n: int, part: int, generated: int | None) -> Path:
    """Parts part-NNNNN.jsonl.gz of ``part`` samples, and whole.jsonl.gz with the same lines (one
    gzip member per part, as compressed: both engines read the same bytes).

    Only the first ``generated`` samples are generated (all when None); later parts repeat those
    parts' lines with query_ids made unique by a prefix (``r<k>/``): the same work per sample,
    without hours of generating."""
    encode = msgspec.json.Encoder().encode_lines
    made: list[bytes] = []
    with (folder / "whole.jsonl.gz").open("wb") as whole:
        for k, start in enumerate(range(0, n, part)):
            if generated is None or start < generated:
                records = synthetic_run(min(part, n - start), seed=k)
                for r in records:
                    r["query_id"] = f"{k}-{r['query_id']}"
                lines = encode(records)
                made.append(lines)
            else:
                lines = made[k % len(made)].replace(b'"query_id":"', f'"query_id":"r{k}/'.encode())
            packed = gzip.compress(lines, compresslevel=3)
            (folder / f"part-{k:05d}.jsonl.gz").write_bytes(packed)
            if generated is None:
                whole.write(packed)
    return folder / "whole.jsonl.gz"


def worker_usage() -> dict:
    """CPU seconds and peak resident memory of this process. The peak is VmHWM: getrusage's
    ru_maxrss survives exec, so a spawned worker would report its parent's peak."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    status = Path("/proc/self/status").read_text()
    peak_kib = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))
    return {"cpu_s": usage.ru_utime + usage.ru_stime, "peak_rss_mib": peak_kib / 1024}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--part", type=int, default=50_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--skip-single", action="store_true", help="Dask only (e.g. 10M: no single-process run)")
    parser.add_argument("--generate", type=int, default=None,
                        help="generate only this many samples; later parts repeat them under new query_ids "
                             "(implies --skip-single)")
    args = parser.parse_args()
    folder = Path(args.dir or tempfile.mkdtemp(prefix="rw-dask-"))
    folder.mkdir(parents=True, exist_ok=True)
    out = {"n": args.n, "part": args.part, "workers": args.workers}
    start = time.perf_counter()
    args.skip_single = args.skip_single or args.generate is not None
    whole = write_run(folder, args.n, args.part, args.generate)
    out["generate_s"] = time.perf_counter() - start

    if not args.skip_single:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", SINGLE, str(whole), str(folder / "single.parquet"),
                        str(folder / "single.json")], check=True)
        out["single"] = {**json.loads((folder / "single.json").read_text()),
                         "wall_s": time.perf_counter() - start}
    whole.unlink()

    import distributed

    import ragwidgets as rw
    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        client.run(importlib.import_module, "ragwidgets.dask.evaluate")  # imports are start-up, not scoring
        baseline = client.run(worker_usage)
        scores = rw.evaluate(str(folder / "part-*.jsonl.gz"), engine="dask")
        start = time.perf_counter()
        aggregate = scores.aggregate()
        wall = time.perf_counter() - start
        usage = client.run(worker_usage)
        out["dask"] = {"wall_s": wall, "workers": [
            {"cpu_s": usage[w]["cpu_s"] - baseline[w]["cpu_s"], "peak_rss_mib": usage[w]["peak_rss_mib"]}
            for w in sorted(usage)]}
        out["dask"]["samples_per_s"] = args.n / wall
        if not args.skip_single:
            frame = scores.frame.compute().reset_index(drop=True)
            single = pd.read_parquet(folder / "single.parquet")
            assert frame["query_id"].tolist() == single["query_id"].tolist()
            for name in scores.names:
                assert np.array_equal(frame[name].to_numpy(), single[name].to_numpy(), equal_nan=True), name
                assert np.array_equal(frame[name + "_status"].to_numpy(), single[name + "_status"].to_numpy())
            for name, agg in out["single"].pop("aggregate").items():
                mine = aggregate[name]
                assert {k: v for k, v in mine.items() if k != "mean"} == {k: v for k, v in agg.items() if k != "mean"}
                assert (mine["mean"] is None and agg["mean"] is None) or abs(mine["mean"] - agg["mean"]) <= 1e-12
            out["identical"] = "every sample's values and statuses; aggregate counts; means within 1e-12"
            worker_cpu = sum(w["cpu_s"] for w in out["dask"]["workers"])
            out["cpu_per_sample_us"] = {"single": out["single"]["cpu_s"] / args.n * 1e6,
                                        "dask_workers": worker_cpu / args.n * 1e6}
    out["load_average"] = Path("/proc/loadavg").read_text().split()[:3]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
