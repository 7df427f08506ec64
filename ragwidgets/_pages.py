"""The process-wide switches ragwidgets may flip for a large run, only inside :func:`large_runs`
(the CLI runs each command inside it; in a kernel the user opts in): numpy's huge pages here, the
cyclic garbage collector in :func:`ragwidgets.loaders.gc_paused`. Outside it both are no-ops.

numpy asks the kernel for transparent huge pages (``madvise``) on every array of 4 MiB or more.
Where the kernel compacts memory to find them as each page is first touched
(``/sys/kernel/mm/transparent_hugepage/defrag`` set to ``madvise``, Debian's default), filling
fresh arrays stalls: ``Batch.from_flat`` of 1M samples took 1.4-1.7 s with huge pages against
0.65 s without (benchmarks/README.md, "the Batch on small pages"). :func:`small_pages` turns
numpy's request off for a block and back to what it was (nested, and from several threads at
once: the last block to end restores it); where numpy has no such switch, or outside
:func:`large_runs`, it does nothing.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

try:
    from numpy._core.multiarray import _set_madvise_hugepage
except ImportError:  # numpy 1.x
    try:
        from numpy.core.multiarray import _set_madvise_hugepage
    except ImportError:
        _set_madvise_hugepage = None

_lock = threading.Lock()
_open = 0  # blocks inside small_pages now
_before: bool | None = None  # numpy's setting when the first of them began
_opted_in = 0  # large_runs blocks open now, in any thread


@contextmanager
def large_runs():
    """Inside the block, loading, scoring and opening a run may pause the cyclic garbage collector
    and keep numpy's large arrays off huge pages, each for as long as that step runs and then set
    back as it was: faster at a million samples (benchmarks/README.md, "Opt-in process switches"),
    but the whole process (other threads included) sees the switches while a step runs."""
    global _opted_in
    with _lock:
        _opted_in += 1
    try:
        yield
    finally:
        with _lock:
            _opted_in -= 1


def opted_in() -> bool:
    """Whether some :func:`large_runs` block is open."""
    return _opted_in > 0


@contextmanager
def small_pages():
    """numpy's arrays made inside the block without huge pages (inside :func:`large_runs` only)."""
    global _open, _before
    if _set_madvise_hugepage is None or not opted_in():
        yield
        return
    with _lock:
        if not _open:
            _before = _set_madvise_hugepage(False)
        _open += 1
    try:
        yield
    finally:
        with _lock:
            _open -= 1
            if not _open:
                _set_madvise_hugepage(_before)
