"""The metric engine: pure functions from label arrays to scores with their derivations.

Imports no widget library.
"""

from .batch import Batch
from .evaluate import Evaluation, Scores, evaluate
from .explain import MetricValue, SampleExplanation
from .metrics import ALL_METRICS, CITATION_METRICS, METRICS, RAGCHECKER_GROUPS, RAGCHECKER_METRICS, Metric
from .values import MODES, Settings

__all__ = ["Batch", "evaluate", "Evaluation", "Scores", "Settings", "MODES", "MetricValue", "SampleExplanation",
           "Metric", "METRICS", "ALL_METRICS", "CITATION_METRICS", "RAGCHECKER_METRICS", "RAGCHECKER_GROUPS"]
