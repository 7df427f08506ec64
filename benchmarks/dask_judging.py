"""Judging on a Dask cluster against one process, with the loopback chat server answering slowly.

    python benchmarks/dask_judging.py [--n 200] [--delay 0.05] [--workers 2]

N rows of ``judge_scoring.py`` (all eleven scores, all_claims), an ``OpenAICompatibleJudge``
(max_concurrency 16, check_batch_size 8, a fresh sqlite cache per mode) on the tests' chat server,
which sleeps ``--delay`` seconds per request (a stand-in for a model's latency). Modes: one process
(the pandas path); a ``LocalCluster`` of ``--workers`` processes (1 thread each, N rows in 4
partitions per worker) with ``max_in_flight`` 16 (the server sees what one process sends) and
``max_in_flight`` 32; then the cluster's rerun, answered by the cache. Each mode's request count
is checked against its dry run, and the most requests the server saw in flight against the bound.
Last, the lease's own cost: acquire + release pairs of one ``distributed.Semaphore`` per second,
8 threads on every worker at once (what the cluster-wide bound can grant at most).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import dask
import dask.dataframe as dd
import distributed

import ragwidgets as rw
from ragwidgets.judges import OpenAICompatibleJudge

sys.path.insert(0, str(Path(__file__).resolve().parent))
from judge_scoring import loopback_server, rows, timed  # noqa: E402


def lease_pairs(name: str, count: int) -> None:
    """``count`` acquire + release pairs of the semaphore ``name``, from 8 threads (on a worker)."""
    semaphore = distributed.Semaphore(max_leases=64, name=name)

    def pair(_) -> None:
        semaphore.acquire()
        semaphore.release()

    with ThreadPoolExecutor(8) as threads:
        list(threads.map(pair, range(count)))


def lease_rate(client: distributed.Client, count: int = 400) -> float:
    """Lease pairs per second over the whole cluster, every worker taking ``count`` at once."""
    workers = list(client.scheduler_info()["workers"])
    client.gather([client.submit(lease_pairs, "warm-up", 8, pure=False, workers=[w]) for w in workers])
    start = time.perf_counter()
    client.gather([client.submit(lease_pairs, "bench", count, pure=False, workers=[w]) for w in workers])
    return count * len(workers) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--delay", type=float, default=0.05)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    base_url, script, stop = loopback_server()
    script.delay = args.delay
    data = rows(args.n)
    scorer = rw.RagChecker()
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
          f"{args.n} rows, server delay {args.delay:g} s per request")
    print(f"{'mode':<30} {'requests':>9} {'retried':>8} {'max in flight':>14} {'seconds':>8} {'requests/s':>11} "
          f"{'vs one process':>15}")
    with tempfile.TemporaryDirectory() as folder, \
            distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                     dashboard_address=":0", silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        with dask.config.set({"dataframe.convert-string": False}):
            frame = dd.from_pandas(data, npartitions=4 * args.workers)
        single_rate = None
        for mode, bound in (("one process", None), ("cluster, max_in_flight 16", 16),
                            ("cluster, max_in_flight 32", 32), ("cluster rerun (cached)", 32)):
            cache = Path(folder) / f"{bound}.sqlite"
            judge = OpenAICompatibleJudge(model="bench", base_url=base_url, cache=str(cache), max_concurrency=16,
                                          timeout=30.0, progress=False)
            source = data if bound is None else frame
            calls = scorer.dry_run(source, judge).calls
            script.requests = script.max_in_flight = 0
            run = (lambda: scorer.score(data, judge)) if bound is None else \
                (lambda: scorer.score(frame, judge, max_in_flight=bound).compute())
            result, seconds = timed(run)
            assert script.requests == calls, (script.requests, calls)  # a dropped connection's retry: not counted
            assert bound is None or script.max_in_flight <= bound
            rate = script.requests / seconds
            single_rate = single_rate or rate
            ratio = f"{rate / single_rate:.2f}x" if script.requests else "-"
            print(f"{mode:<30} {script.requests:>9,} {result.usage.retries:>8} {script.max_in_flight:>14} {seconds:>8.2f} "
                  f"{rate:>11.1f} {ratio:>15}")
        print(f"semaphore lease pairs per second, cluster-wide: {lease_rate(client):.0f}")
    stop()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
