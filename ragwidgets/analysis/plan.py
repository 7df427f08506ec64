"""How many random reviews each metric needs for its corrected interval to reach a half-width:
:func:`plan_reviews` over a run's scores and reviews, :func:`review_plan` over a
:func:`~.corrected.corrected` table (the trust panel's), :func:`needed_reviews` the formula.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pandas as pd

from ..engine.evaluate import Scores
from .corrected import corrected
from .reviewed_labels import label_kinds
from .table import defined_metrics

PILOT = 30  # random reviews that measure the judge's disagreement before any plan
PLAN_COLUMNS = ("n_reviewed", "n_discordant", "n_samples", "half_width", "n_needed", "more", "said")


def needed_reviews(half_width, n_reviewed, n_samples, target_width: float, level: float = 0.95,
                   pilot: int = PILOT) -> np.ndarray:
    """Random reviews (in all) for a corrected ``level`` half-width of ``target_width``, from the
    half-width seen at ``n_reviewed`` of ``n_samples``: the variance it implies,
    σ² = (h / z)² / (1/n − 1/N), held fixed, solved for (w / z)² = σ²(1/n* − 1/N); at least
    ``pilot``, at most N; NaN where no half-width was seen (fewer than 2 reviewed, Undefined).
    The floor under a corrected interval with few discordant samples makes σ² conservative: the
    plan asks for enough, not too few, and shrinks as reviews come in."""
    h, n, big_n = (np.asarray(v, dtype=float) for v in (half_width, n_reviewed, n_samples))
    z = NormalDist().inv_cdf(0.5 + level / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        sigma2 = (h / z) ** 2 / (1 / n - 1 / big_n)
        need = np.ceil(1 / ((target_width / z) ** 2 / sigma2 + 1 / big_n) - 1e-9)
        need = np.where(h <= target_width, n, need)
    return np.where(np.isfinite(h) & (n >= 2), np.clip(np.maximum(need, pilot), 0, big_n), np.nan)


def _more(n: int, need: float, pilot: int) -> int:
    """Reviews still to do: to ``need``; without a plan, the pilot's rest (a whole pilot when the
    reviews so far measured nothing)."""
    return (max(pilot - n, 0) or pilot) if np.isnan(need) else max(int(need) - n, 0)


def _said(metric: str, n: int, need: float, more: int, w: float, pilot: int) -> str:
    if np.isnan(need):
        return f"review {more} at random first (a pilot of {pilot}): the judge's disagreement on {metric} " \
               "is not measured yet"
    return f"±{w:g} reached on {metric} ({n} reviewed)" if more == 0 else f"review {more} more for ±{w:g} on {metric}"


def review_plan(table: pd.DataFrame, target_width: float = 0.05, *, level: float = 0.95,
                pilot: int = PILOT) -> pd.DataFrame:
    """Per metric of a :func:`~.corrected.corrected` table: n_reviewed, n_discordant,
    n_samples, the corrected half-width now (None: Undefined), n_needed (:func:`needed_reviews`;
    None: a pilot first), ``more`` to review at random and ``said`` ("review 140 more for ±0.05
    on faithfulness"). A metric no review can change (it reads no label) is left out."""
    if not 0 < target_width < 1:
        raise ValueError(f"target_width must be a half-width between 0 and 1, not {target_width!r}")
    table = table[[bool(label_kinds(m)) for m in table.index]]
    low, high = (table[f"corrected_{k}"].astype(float).to_numpy() for k in ("low", "high"))
    half = (high - low) / 2
    n, big_n = table["n_reviewed"].to_numpy(dtype=float), table["n_samples"].to_numpy(dtype=float)
    need = needed_reviews(half, n, big_n, target_width, level, pilot)
    rows = [{"metric": m, "n_reviewed": int(k), "n_discordant": int(d), "n_samples": int(s),
             "half_width": None if np.isnan(h) else float(h), "n_needed": None if np.isnan(x) else int(x),
             "more": _more(int(k), x, pilot), "said": _said(m, int(k), x, _more(int(k), x, pilot), target_width, pilot)}
            for m, k, d, s, h, x in zip(table.index, n, table["n_discordant"], big_n, half, need)]
    frame = pd.DataFrame(rows, columns=["metric", *PLAN_COLUMNS]).set_index("metric")
    for c in ("half_width", "n_needed"):
        frame[c] = pd.Series([r[c] for r in rows], index=frame.index, dtype=object)
    return frame


def plan_reviews(scores: Scores, reviews=None, *, target_width: float = 0.05, level: float = 0.95,
                 metrics=None, pilot: int = PILOT) -> pd.DataFrame:
    """How many random reviews each metric needs for a corrected ``level`` interval of ±
    ``target_width`` (:func:`review_plan` of :func:`~.corrected.corrected`). With no reviews
    yet (``reviews`` None and scores evaluated without them), every metric that reads a label
    asks for a pilot of ``pilot`` random reviews: the judge's disagreement decides the rest."""
    if reviews is None and getattr(scores, "judge_scores", None) is None:
        names = [m for m in defined_metrics(scores) if label_kinds(m)] if metrics is None else list(metrics)
        empty = pd.DataFrame({"corrected_low": np.nan, "corrected_high": np.nan, "n_reviewed": 0, "n_discordant": 0,
                              "n_samples": scores.batch.n_samples}, index=pd.Index(names, name="metric"))
        return review_plan(empty, target_width, level=level, pilot=pilot)
    return review_plan(corrected(scores, reviews, metrics=metrics, level=level), target_width,
                       level=level, pilot=pilot)
