"""One LocalCluster (processes, 2 workers) for every Dask test of the session."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests/strategies.py, as the top-level tests import it

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="session")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as c:
        yield c


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
