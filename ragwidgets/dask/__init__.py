"""ragwidgets on a Dask cluster (``pip install "ragwidgets[dask]"``): imported only when used,
by ``rw.evaluate(source, engine="dask")`` and ``ragwidgets score --workers/--scheduler``."""

try:
    import dask.dataframe  # noqa: F401
    import distributed  # noqa: F401
except ImportError as err:
    raise ImportError(f"{err.name} is missing: engine='dask' and score --workers/--scheduler need "
                      "pip install 'ragwidgets[dask]'") from err

from .evaluate import DaskScores, evaluate

__all__ = ["DaskScores", "evaluate"]
