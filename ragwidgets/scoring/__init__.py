"""The RAG Checker scorer: a DataFrame of raw RAG outputs in, RAGChecker's claim-level scores out.

- ``RagChecker`` (``config.py``): the validated configuration; ``.score(df)``, ``.dry_run(df)``;
- ``requirements.py``: which claims and labels each score needs, so only that work is judged;
- ``columns.py``: rows ↔ RAGChecker-format records, errors naming the row and the column;
- ``evaluation.py``: filled records → scores and NaN reasons (the engine does the arithmetic);
- ``aggregations.py``: per-task metrics over the per-sample scores, Undefined counted, never 0;
- ``result.py``: ``ScoringResult``; ``template.py``: ``TemplateValue`` (per-row column templates);
- ``cli.py``: the ``ragwidgets judge`` command.
"""

from .aggregations import (AggregatedMetric, BinaryClassificationMetricTemplate, F1ScoreMetricTemplate,
                           FrequencyMetricTemplate, MaxMetricTemplate, MeanMetricTemplate, MetricTemplate,
                           MinMetricTemplate, MulticlassClassificationMetricTemplate, PrecisionMetricTemplate,
                           PythonMetricTemplate, RecallMetricTemplate, StdDevMetricTemplate,
                           WeightedAverageMetricTemplate)
from .columns import STORED_FIELDS, ScoringInputError
from .config import RagChecker
from .requirements import TARGET_FREE_SCORES, judge_needs
from .result import ScoringResult
from .template import TemplateValue

__all__ = [
    "AggregatedMetric", "BinaryClassificationMetricTemplate", "F1ScoreMetricTemplate", "FrequencyMetricTemplate",
    "MaxMetricTemplate", "MeanMetricTemplate", "MetricTemplate", "MinMetricTemplate",
    "MulticlassClassificationMetricTemplate", "PrecisionMetricTemplate", "PythonMetricTemplate", "RagChecker",
    "RecallMetricTemplate", "STORED_FIELDS", "ScoringInputError", "ScoringResult", "StdDevMetricTemplate",
    "TARGET_FREE_SCORES", "TemplateValue", "WeightedAverageMetricTemplate", "judge_needs",
]
