"""``RagChecker``: the scorer's validated configuration (the fields of RagChecker's configuration format, as docs/howto/judge.md describes the scorer)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, fields, replace
from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from ..backends import backend
from ..engine.values import check_mode
from .aggregations import MetricTemplate, as_template, default_metrics
from .template import TemplateValue, as_value
from .requirements import canonical_scores, column_alias, judge_needs, score_columns, written_names

if TYPE_CHECKING:
    import pandas as pd

    from ..dask.judging import DaskScoringResult
    from ..judges import DryRun, Judge
    from .result import ScoringResult

PURPOSES = ("score", "qa")
_COLUMN_FIELDS = ("query_column", "target_column", "response_column", "context_column", "id_column",
                  "target_claims_column", "response_claims_column", "target_labels_column",
                  "response_labels_column")
_TEXT_FIELDS = ("judge_model_key", "key", "display_name", "claim_extraction_instructions",
                "claim_labeling_instructions")
_PER_ROW_FIELDS = tuple(f for f in _COLUMN_FIELDS if f != "id_column") + (
    "claim_extraction_instructions", "claim_labeling_instructions")
"""The fields a ``TemplateValue`` may fill per row; ``judge_model_key`` and ``mode`` take one without
placeholders (they hold for the whole run)."""
_RUN_TEMPLATE_FIELDS = ("judge_model_key", "mode")


def _is_dask(data: Any) -> bool:
    """Whether ``data`` is a Dask collection (told without importing dask)."""
    return type(data).__module__.startswith("dask")


@dataclass(frozen=True, kw_only=True, repr=False)
class RagChecker:
    """Scores RAG outputs with RAGChecker's claim-level metrics, judging what is not given.

    Columns: ``query_column``, ``target_column`` (None: no target, only target-free scores such as
    faithfulness), ``response_column``, ``context_column`` (a list of passages per row: strings or
    ``{doc_id, text}`` dicts), ``id_column`` (None: a ``query_id`` column if there is one, else
    the index). Precomputed claims (``target_claims_column`` / ``response_claims_column``: lists of
    ``{subject, predicate, object}`` dicts) and REQUIRED/OPTIONAL labels
    (``target_labels_column`` / ``response_labels_column``) are used as given; so are the claim
    and label columns a previous ``score`` wrote (``response_claims``, ``answer2response``, ...).

    ``judge_model_key``: a key of ``ragwidgets.judges.register_judge``, resolved only when some
    judge work is needed. ``scores_to_compute``: None = all eleven (``f1`` may be written
    ``f1_score``). ``mode``: all_claims | required_only | required_and_optional (adds the
    ``required_``-prefixed scores). ``metrics``: per-task aggregations (``MetricTemplate``\\ s or
    dicts with a ``type``); None = the mean of every score. ``key``, ``display_name`` and
    ``purpose`` ("score" | "qa") label the scorer and do not change what it computes.

    As in that format, the column fields and the two instructions may be a ``TemplateValue``
    (``{{ column }}`` placeholders filled from each row; also written ``{"template": "..."}``);
    ``judge_model_key`` and ``mode`` accept one without placeholders.
    """

    type: Literal["rag_checker"] = "rag_checker"
    judge_model_key: Optional[str] = None
    query_column: str = "query"
    target_column: Optional[str] = "target"
    response_column: str = "response"
    context_column: str = "context"
    id_column: Optional[str] = None
    scores_to_compute: Optional[tuple[str, ...]] = None
    key: Optional[str] = None
    display_name: Optional[str] = None
    purpose: Literal["score", "qa"] = "score"
    target_claims_column: Optional[str] = None
    response_claims_column: Optional[str] = None
    claim_extraction_instructions: Optional[str] = None
    mode: str = "all_claims"
    target_labels_column: Optional[str] = None
    response_labels_column: Optional[str] = None
    claim_labeling_instructions: Optional[str] = None
    metrics: Optional[tuple[MetricTemplate, ...]] = None

    def __post_init__(self) -> None:
        if self.type != "rag_checker":
            raise ValueError(f"type must be 'rag_checker', not {self.type!r}")
        for name in _COLUMN_FIELDS + _TEXT_FIELDS + ("mode",):
            value = as_value(getattr(self, name))
            if isinstance(value, TemplateValue) and name in _RUN_TEMPLATE_FIELDS:
                if value.columns:
                    raise ValueError(f"{name} holds for the whole run, so its TemplateValue cannot read a row's "
                                     f"columns ({', '.join(value.columns)})")
                value = value.template
            object.__setattr__(self, name, value)
            required = name in ("query_column", "response_column", "context_column")
            if (value is None and not required) or (isinstance(value, str) and value) or name == "mode":
                continue
            if isinstance(value, TemplateValue) and name in _PER_ROW_FIELDS:
                continue
            raise TypeError(f"{name} must be a non-empty string{'' if required else ' or None'}, got {value!r:.60}")
        if self.purpose not in PURPOSES:
            raise ValueError(f"purpose must be one of {', '.join(PURPOSES)}, not {self.purpose!r}")
        check_mode(self.mode)
        if self.target_column is None:
            extra = [n for n in ("target_claims_column", "target_labels_column") if getattr(self, n) is not None]
            if extra:
                raise ValueError(f"target_column is None, so {', '.join(extra)} cannot be used")
        if self.scores_to_compute is not None:
            if isinstance(self.scores_to_compute, str):
                raise TypeError("scores_to_compute must be a list of score names, not a string")
            object.__setattr__(self, "scores_to_compute", tuple(self.scores_to_compute))
        canonical_scores(self.scores_to_compute, has_target=self.target_column is not None)
        if self.metrics is not None:
            if isinstance(self.metrics, (MetricTemplate, Mapping)):
                raise TypeError("metrics must be a list of metric templates")
            known = self.score_columns
            templates = []
            for m in map(as_template, self.metrics):
                if m.score not in known and column_alias(m.score) in known:  # f1 and f1_score: one score
                    m = replace(m, score=column_alias(m.score), key=m.name)
                templates.append(m)
            object.__setattr__(self, "metrics", tuple(templates))
            names = [m.name for m in self.metrics]
            for m in self.metrics:
                if m.score not in known:
                    raise ValueError(f"metric {m.name!r} aggregates {m.score!r}, which this scorer does not "
                                     f"compute; it computes {', '.join(known)}")
            duplicates = sorted({n for n in names if names.count(n) > 1})
            if duplicates:
                raise ValueError(f"metric keys must be unique; repeated: {', '.join(duplicates)} (set 'key')")

    # -- what the configuration implies ---------------------------------------------------------

    @property
    def scores(self) -> tuple[str, ...]:
        """The scores computed, under the engine's names."""
        return canonical_scores(self.scores_to_compute, has_target=self.target_column is not None)

    @property
    def score_names(self) -> dict[str, str]:
        """Engine name → column name of each score (the name as written: ``f1_score`` stays ``f1_score``)."""
        written = written_names(self.scores_to_compute)
        return {name: written.get(name, name) for name in self.scores}

    @property
    def score_columns(self) -> tuple[str, ...]:
        """The score columns written: the scores (as written), then (required_and_optional) the ``required_`` ones."""
        return score_columns(tuple(self.score_names.values()), self.mode)

    @property
    def needs(self) -> set[str]:
        """The claims and labels the scores need (see :mod:`ragwidgets.scoring.requirements`)."""
        return judge_needs(self.scores, self.mode)

    @property
    def aggregations(self) -> tuple[MetricTemplate, ...]:
        """The configured metrics, or the mean of every score."""
        return self.metrics if self.metrics is not None else default_metrics(self.score_columns)

    @property
    def name(self) -> str:
        return self.display_name or self.key or "RAG Checker"

    # -- running ------------------------------------------------------------------------------

    def score(self, data: Union["pd.DataFrame", Sequence[Mapping[str, Any]], Mapping[str, Any]],
              judge: Optional["Judge"] = None, *, progress: Optional[bool] = None,
              max_in_flight: Optional[int] = None, reviews=None, repeats: int = 1,
              policy: Union[str, int] = "majority") -> Union["ScoringResult", "DaskScoringResult"]:
        """Score a DataFrame (or RAGChecker-format records / ``{"results": [...]}``).

        Judges only the claims and labels that the scores need and that are not already there;
        ``judge`` overrides ``judge_model_key``. See :class:`ragwidgets.scoring.ScoringResult`.
        A Dask DataFrame is scored on the current distributed cluster, lazily, with at most
        ``max_in_flight`` judge requests in flight in all: see :mod:`ragwidgets.dask.judging`.
        ``reviews`` (a reviews file's path or an in-memory object) replace the labels they name
        after judging: :meth:`ScoringResult.reviewed`.
        ``repeats``: ask the judge each check and label that many times (claims are extracted once);
        every answer is kept in each record's ``label_repeats`` and the scores use the label
        ``policy`` picks: "majority" (ties: the earliest repeat's) or one repeat's index
        (:mod:`ragwidgets.judges.repeats`; the judge's variance: :mod:`ragwidgets.analysis.judge_variance`).
        """
        if _is_dask(data):
            if repeats != 1:
                raise ValueError("repeats are not available on a Dask cluster yet: score a pandas DataFrame "
                                 "to repeat the judge")
            if reviews is not None:
                raise ValueError("reviews are not available on a Dask cluster yet: score a pandas DataFrame "
                                 "to apply them")
            return backend("cluster_scoring").score(self, data, judge, max_in_flight=max_in_flight)
        if max_in_flight is not None:
            raise TypeError("max_in_flight bounds the judge requests of a whole Dask cluster: it applies to a "
                            "Dask DataFrame only (a judge's own bound is its max_concurrency)")
        from .runner import score

        result = score(self, data, judge, progress=progress, repeats=repeats, policy=policy)
        return result if reviews is None else result.reviewed(reviews)

    def dry_run(self, data, judge: Optional["Judge"] = None, *, repeats: int = 1) -> "DryRun":
        """How many judge calls ``score(data, repeats=repeats)`` would make, and how many the cache
        answers (of a Dask DataFrame: summed over its partitions, planned on the workers)."""
        if _is_dask(data):
            if repeats != 1:
                raise ValueError("repeats are not available on a Dask cluster yet")
            return backend("cluster_scoring").dry_run(self, data, judge)
        from .runner import dry_run

        return dry_run(self, data, judge, repeats=repeats)

    # -- repr ---------------------------------------------------------------------------------

    def __repr__(self) -> str:
        shown = []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "type" and (f.default is MISSING or value != f.default):
                shown.append(f"{f.name}={value!r}")
        return f"RagChecker({', '.join(shown)})"
