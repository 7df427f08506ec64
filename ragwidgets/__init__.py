"""ragwidgets: take RAG evaluation scores apart.

Data model and loaders -> judges -> engine (labels -> scores with explanations) -> analysis and
scoring -> Dask -> widgets -> CLI; the entry points that cross these layers are here and in
``api.py`` (docs/architecture.md).
"""

from ._pages import large_runs
from .api import evaluate, history
from .engine import (ALL_METRICS, CITATION_METRICS, METRICS, RAGCHECKER_METRICS, Batch, MetricValue,
                     SampleExplanation, Scores)
from .errors import InputError, InputWarning
from .loaders import LoadResult, load_samples, parse_sample, read_records
from .model import Claim, Passage, Sample
from .scenario import Scenario
from .sources import read_run

__version__ = "0.2.0"

__all__ = ["evaluate", "history", "large_runs", "read_run", "Scores", "Scenario", "RagChecker", "Explorer", "SampleExplorer", "DatasetExplorer",
           "analysis", "datasets", "InputError", "InputWarning", "METRICS", "RAGCHECKER_METRICS",
           "CITATION_METRICS"]
"""The entry points. The data model (``Sample``, ``Claim``, ``Passage``), the loaders
(``load_samples``, ``read_records``, ``parse_sample``) and the engine's ``Batch``, ``MetricValue``,
``SampleExplanation`` stay importable from here for the code that uses them, but belong to their
modules (``ragwidgets.model``, ``ragwidgets.loaders``, ``ragwidgets.engine``)."""


def __getattr__(name):
    """Widgets and the scorer load on first use, so the engine and the CLI import neither
    Jupyter nor the judges' HTTP client."""
    if name in ("Explorer", "SampleExplorer", "DatasetExplorer"):
        from . import widgets
        return getattr(widgets, name)
    if name in ("analysis", "datasets"):
        import importlib
        return importlib.import_module(f".{name}", __name__)
    if name == "RagChecker":
        from .scoring import RagChecker
        return RagChecker
    raise AttributeError(f"module 'ragwidgets' has no attribute {name!r}")
