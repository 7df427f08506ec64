"""numpy's large arrays on small pages, for code that makes hundreds of MB of them at once.

numpy asks the kernel for transparent huge pages (``madvise``) on every array of 4 MiB or more.
Where the kernel compacts memory to find them as each page is first touched
(``/sys/kernel/mm/transparent_hugepage/defrag`` set to ``madvise``, Debian's default), filling
fresh arrays stalls: ``Batch.from_flat`` of 1M samples took 1.4-1.7 s with huge pages against
0.65 s without (benchmarks/README.md, "the Batch on small pages"). :func:`small_pages` turns
numpy's request off for a block and back to what it was (nested, and from several threads at
once: the last block to end restores it); where numpy has no such switch it does nothing.
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


@contextmanager
def small_pages():
    """numpy's arrays made inside the block without huge pages."""
    global _open, _before
    if _set_madvise_hugepage is None:
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
