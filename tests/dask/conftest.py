"""One LocalCluster (processes, 2 workers) for every Dask test of the session."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests/strategies.py, as the top-level tests import it

distributed = pytest.importorskip("distributed")


WORKERS = 2
WORKER_START_S = 300  # a worker process (re)started on a loaded 2-core machine can take minutes


@pytest.fixture(scope="session")
def client():
    with distributed.LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as c:
        c.wait_for_workers(WORKERS, timeout=WORKER_START_S)
        yield c


@pytest.fixture(autouse=True)
def _both_workers(request):
    """Both workers there before each test that uses the cluster (a test that kills a worker leaves
    its nanny to start a new one, which under load may still be starting)."""
    if "client" in request.fixturenames:
        request.getfixturevalue("client").wait_for_workers(WORKERS, timeout=WORKER_START_S)


@pytest.fixture(scope="session")
def parts_writer():
    return write_parts


def write_parts(folder, records, sizes, gz=True):
    """``records`` cut into files of ``sizes`` samples (JSONL, gzipped when gz); their paths."""
    paths, start = [], 0
    for k, size in enumerate(sizes):
        path = folder / f"part-{k:03d}.jsonl{'.gz' if gz else ''}"
        lines = "".join(json.dumps(r) + "\n" for r in records[start:start + size])
        path.write_bytes(gzip.compress(lines.encode()) if gz else lines.encode())
        paths.append(path)
        start += size
    return paths
