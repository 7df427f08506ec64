"""ragwidgets: take RAG evaluation scores apart.

Data model and loaders -> judges -> engine (labels -> scores with explanations) -> views.
"""

from .api import evaluate
from .engine import (ALL_METRICS, CITATION_METRICS, METRICS, RAGCHECKER_METRICS, Batch, MetricValue,
                     SampleExplanation, Scores)
from .errors import InputError, InputWarning
from .loaders import LoadResult, load_samples, parse_sample, read_records
from .model import Claim, Passage, Sample
from .scenario import Scenario

__version__ = "0.1.0"

__all__ = ["evaluate", "Scores", "Batch", "MetricValue", "SampleExplanation", "METRICS", "ALL_METRICS",
           "CITATION_METRICS", "RAGCHECKER_METRICS", "InputError", "InputWarning", "LoadResult", "load_samples",
           "parse_sample", "read_records", "Sample", "Claim", "Passage", "Scenario", "RagChecker", "Explorer",
           "SampleExplorer", "DatasetExplorer", "analysis", "datasets"]


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
