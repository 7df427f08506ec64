"""One LocalCluster (processes, 2 workers) for every Dask test of the session; its start (and a
killed worker's return) waits for the workers with a generous deadline and is tried once more, with
a StartRetried warning, when they do not arrive. Tests read the number of workers from the cluster."""

from __future__ import annotations

import contextlib
import gzip
import itertools
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests/strategies.py, as the top-level tests import it
from starts import started_once_more  # noqa: E402

distributed = pytest.importorskip("distributed")


WORKERS = 2
WORKER_START_S = 180  # a worker process (re)started on a loaded 2-core machine can take minutes


def pytest_collection_modifyitems(items):
    """Under pytest-xdist's ``--dist loadgroup`` the tests here run on one worker: one cluster for all."""
    for item in items:
        if Path(__file__).parent in item.path.parents:
            item.add_marker(pytest.mark.xdist_group("dask"))


@contextlib.contextmanager
def cluster_client(**options):
    """A client of a new LocalCluster (``options`` as LocalCluster's), once all its workers arrived."""
    with distributed.LocalCluster(dashboard_address=None, silence_logs=40, **options) as cluster, \
            distributed.Client(cluster) as c:
        c.wait_for_workers(options.get("n_workers", 1), timeout=WORKER_START_S)
        yield c


@pytest.fixture(scope="session")
def client():
    with started_once_more(f"a LocalCluster of {WORKERS} worker processes",
                         lambda: cluster_client(n_workers=WORKERS, threads_per_worker=1, processes=True)) as c:
        yield c


@pytest.fixture(scope="session")
def make_cluster():
    """``make_cluster(**options)``: a context giving a client of a LocalCluster of its own, started as ``client``."""
    return lambda **options: started_once_more(f"a LocalCluster {options}", lambda: cluster_client(**options))


@contextlib.contextmanager
def workers_back(c, restart: bool):
    """Every worker there again (``restart``: all of them restarted first)."""
    if restart:
        c.restart(wait_for_workers=False)
    c.wait_for_workers(WORKERS, timeout=WORKER_START_S)
    yield


@pytest.fixture(autouse=True)
def _both_workers(request):
    """Both workers there before each test that uses the cluster (a test that kills a worker leaves
    its nanny to start a new one, which under load may still be starting); if one does not come
    back in time, every worker is restarted once."""
    if "client" in request.fixturenames:
        c, tries = request.getfixturevalue("client"), itertools.count()
        with started_once_more(f"the {WORKERS} workers' return", lambda: workers_back(c, next(tries) > 0)):
            pass


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
