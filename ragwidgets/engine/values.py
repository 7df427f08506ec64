"""What scoring produces: a value's status (defined / Undefined / not computable) and the
per-sample arrays of one scoring pass (:class:`Evaluation`), read by the scorer and by the
explanations alike.

A value is one of three things per sample and metric: *defined* (a float, with numerator and
denominator), *Undefined* (the denominator is 0, or labels it needs are unjudged: NaN in
pandas, None in JSON, always with a reason), or *not computable* (the sample lacks the data
the metric needs, e.g. no ``answer2response``: the metric is left out for that sample).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..loaders import check_on_error
from .batch import NEEDS, Batch
from .derived import Derived
from .metrics import (CITATIONS, GT_CLAIMS, METRICS, PASSAGES, REFERENCE_FACTS, REQUIRED_PREFIX, RESPONSE_CLAIMS,
                      resolve)

MODES = ("all_claims", "required_only", "required_and_optional")
UNDEFINED_POLICIES = ("null", "zero")
DEFINED, UNDEFINED, NOT_COMPUTABLE = "defined", "undefined", "not computable"
STATUS_CODES = {DEFINED: 0, UNDEFINED: 1, NOT_COMPUTABLE: 2}
STATUSES = np.array(list(STATUS_CODES), dtype=object)  # code -> status


def check_mode(mode: str) -> None:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")


def check_undefined(undefined: str) -> None:
    if undefined not in UNDEFINED_POLICIES:
        raise ValueError(f"undefined must be {' or '.join(map(repr, UNDEFINED_POLICIES))}, not {undefined!r}")


@dataclass(frozen=True)
class Settings:
    """What to score, checked once: metric names (None = all; a list or comma-separated text),
    claim mode, Undefined policy and what to do with a bad sample (as ``rw.evaluate`` takes them)."""

    names: tuple[str, ...] | None = None
    mode: str = "all_claims"
    undefined: str = "null"
    on_error: str = "raise"

    def __post_init__(self):
        check_mode(self.mode)
        check_undefined(self.undefined)
        check_on_error(self.on_error)
        object.__setattr__(self, "names", resolve(self.names))

    @property
    def prefixes(self) -> tuple[str, ...]:
        """The reported names' prefixes: the required-only values come second, prefixed, in
        required_and_optional."""
        return ("", REQUIRED_PREFIX) if self.mode == "required_and_optional" else ("",)

    @property
    def reported(self) -> list[str]:
        """Every reported metric key, in Scores.names' order."""
        return [prefix + name for prefix in self.prefixes for name in self.names]


@dataclass
class Evaluation:
    """Per-sample values of the selected metrics, with everything needed to explain them.

    Arrays hold one entry per sample. Reasons are derived on demand (:meth:`reason_of`), so
    scoring 100k samples builds no per-sample strings.
    """

    batch: Batch
    names: tuple[str, ...]
    derived: Derived
    value: dict = field(default_factory=dict)  # name -> float array, NaN where not defined
    numerator: dict = field(default_factory=dict)  # name -> int array
    denominator: dict = field(default_factory=dict)
    status: dict = field(default_factory=dict)  # name -> object array of DEFINED/UNDEFINED/NOT_COMPUTABLE
    code: dict = field(default_factory=dict)  # name -> the same as int8 STATUS_CODES (0, 1, 2)
    unjudged: dict = field(default_factory=dict)  # label matrix -> unjudged labels in play, per sample
    prefix: str = ""

    @property
    def frame(self):
        """One row per sample (index: query_id), one column per metric; NaN = Undefined or not computable."""
        import pandas as pd  # on first use: the command line writes its output without pandas
        return pd.DataFrame({self.prefix + n: self.value[n] for n in self.names},
                            index=pd.Index(self.batch.query_ids, name="query_id"))

    def reason_of(self, name: str, i: int) -> str | None:
        """Why metric ``name`` of sample ``i`` is Undefined or not computable (None when defined)."""
        status = self.status[name][i]
        if status == DEFINED:
            return None
        m = METRICS[name]
        if status == NOT_COMPUTABLE:
            return "needs " + "; ".join(NEEDS[need] for need in m.needs if not self.batch.has[need][i])
        for need in m.needs:
            if need in self.unjudged and self.unjudged[need][i]:
                return f"{int(self.unjudged[need][i])} unjudged label(s) in {need}"
        if name == "f1":
            which = [x for x in ("precision", "recall") if self.status[x][i] != DEFINED]
            return f"{' and '.join(which)} Undefined: " + "; ".join(self.reason_of(x, i) for x in which)
        return m.undefined

    def columns(self):
        """(reported name, values, statuses, metric name) per selected metric."""
        return [(self.prefix + n, self.value[n], self.status[n], n) for n in self.names]


def item_space(d: Derived, over: str) -> tuple[np.ndarray, np.ndarray]:
    """(sample of each item, items in play) for an item kind."""
    b = d.batch
    return {
        RESPONSE_CLAIMS: (b.resp_sample, d.resp_active),
        GT_CLAIMS: (b.gt_sample, d.gt_active),
        PASSAGES: (b.psg_sample, d.psg_active),
        CITATIONS: (b.cit_sample, d.cit_active),
        REFERENCE_FACTS: (b.ref_sample, d.ref_active),
    }[over]
