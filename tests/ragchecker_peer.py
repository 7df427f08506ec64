"""ragchecker 0.1.9's own ``computation.py``, imported without ``ragchecker/__init__.py``.

The package's ``__init__`` pulls a heavy checker; its computation needs only ``container`` and
``metrics``. Install the peer with ``pip install --no-deps ragchecker==0.1.9`` (the README's
first command does) plus dataclasses-json (the dev extra).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import sys
import types

VERSION = "0.1.9"
MISSING = (f"ragchecker {VERSION} is not installed: `pip install --no-deps ragchecker=={VERSION}` "
           "(the README's first command and .ci/run install it)")


def load_peer():
    """(computation module, RAGResult class), or None when ragchecker 0.1.9 is not installed
    (another version counts as not installed)."""
    if "_ragchecker_peer.computation" in sys.modules:
        mod = sys.modules["_ragchecker_peer.computation"]
        return mod, sys.modules["_ragchecker_peer.container"].RAGResult
    spec = importlib.util.find_spec("ragchecker")
    if spec is None or not spec.submodule_search_locations or _version() != VERSION:
        return None
    root = list(spec.submodule_search_locations)[0]
    package = types.ModuleType("_ragchecker_peer")
    package.__path__ = [root]
    sys.modules["_ragchecker_peer"] = package
    for name in ("metrics", "container", "computation"):
        sub = importlib.util.spec_from_file_location(f"_ragchecker_peer.{name}", f"{root}/{name}.py")
        module = importlib.util.module_from_spec(sub)
        sys.modules[sub.name] = module
        sub.loader.exec_module(module)
    return sys.modules["_ragchecker_peer.computation"], sys.modules["_ragchecker_peer.container"].RAGResult


def _version() -> str | None:
    try:
        return importlib.metadata.version("ragchecker")
    except importlib.metadata.PackageNotFoundError:
        return None


def peer_metrics(record: dict) -> dict[str, float]:
    """Every metric ragchecker 0.1.9 computes for one results record."""
    computation, RAGResult = load_peer()
    result = RAGResult.from_dict({k: v for k, v in record.items() if k != "metrics"})
    for func in computation.METRIC_FUNC_MAP.values():
        func(result)
    return {k: float(v) for k, v in result.metrics.items()}
