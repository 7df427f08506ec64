"""Back ends plugged in from the package's top: a lower layer asks for one by name here instead
of importing the layer above it, at the plug-in points ``tests/test_architecture.py`` lists (it
reads each lookup as an import of the module the back end's loader imports).

``ragwidgets/api.py`` registers them when the package is imported: ``"cluster_run"`` (the run
model class of a Dask-scored run, for the DatasetExplorer: a source's type names it as
``run_backend``), ``"cluster_scoring"`` (the module with ``score`` / ``dry_run`` for a Dask
DataFrame, for ``RagChecker``). Each is loaded on first use.
"""

from __future__ import annotations

from collections.abc import Callable

_LOADERS: dict[str, Callable[[], object]] = {}


def register(name: str, loader: Callable[[], object]) -> None:
    """Make ``backend(name)`` return ``loader()`` (called at each lookup; imports are cached)."""
    _LOADERS[name] = loader


def backend(name: str):
    """The back end registered as ``name``; LookupError when none is."""
    try:
        loader = _LOADERS[name]
    except KeyError:
        raise LookupError(f"no back end {name!r} is registered; known: {', '.join(sorted(_LOADERS))}") from None
    return loader()
