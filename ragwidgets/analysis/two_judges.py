"""One run labelled by two judges (two models, or a model and the lexical baseline), side by side.

:func:`two_judges` takes the Scores of the same samples (same query_ids, claims and passages)
under judge A and judge B and reports how far the judges agree (the statistics of
:func:`~ragwidgets.analysis.agreement.agreement_stats` per label kind, A as the reference), the
samples where they disagree (as columns and slices the explorer reads), and every metric under
each judge with a paired interval of the difference that holds where the judges rarely differ.
A jury (the majority of several judges' labels) is not a third judge here: it is the majority
policy over label sets, :func:`ragwidgets.judges.repeats.combine`, scored like any run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..engine.evaluate import Scores
from ..engine.reviewed import FLAT
from ..engine.sums import mean_over_defined
from ..errors import InputError
from ..model import LABEL_MATRICES
from .agreement import AgreementStats, agreement_stats, undefined_as_none
from .bootstrap import CONFIDENCE, N_BOOT
from .intervals import difference_interval
from .slices import Slice
from .table import DEFINED_CODE, NOT_COMPUTABLE_CODE

DISAGREE_COLUMN = "judges_disagree"  # 1 where any label differs between the judges, else 0
METRIC_COLUMNS = ("defined_a", "defined_b", "paired", "difference", "ci_low", "ci_high", "reason")


def _where(b, i: int) -> str:
    return f"sample {i} (query_id {b.query_ids[i]!r})"


def _claims(claims) -> list:
    return [(c.text, c.triple) for c in claims]


def _passages(passages) -> list:
    return [(p.doc_id, p.text) for p in passages]


def check_same_run(a: Scores, b: Scores, names=("a", "b")) -> None:
    """InputError naming the first sample and field where ``a`` and ``b`` are not the same
    samples: query_id (in order), response claims, ground-truth claims, retrieved passages, or
    which label matrices a sample carries."""
    ba, bb = a.batch, b.batch
    if ba.n_samples != bb.n_samples:
        raise InputError(f"judge {names[0]!r} scored {ba.n_samples} samples, judge {names[1]!r} {bb.n_samples}: "
                         "two judges compare on the same run", field="query_id")
    ids_a, ids_b = np.asarray(ba.query_ids, dtype=object), np.asarray(bb.query_ids, dtype=object)
    off = np.flatnonzero(ids_a != ids_b)
    if len(off):
        i = int(off[0])
        raise InputError(f"query_id is {ids_a[i]!r} under judge {names[0]!r} and {ids_b[i]!r} under judge "
                         f"{names[1]!r}: two judges compare on the same samples in the same order",
                         sample=_where(ba, i), field="query_id")
    for offsets, field in (("resp_offset", "response_claims"), ("gt_offset", "gt_answer_claims"),
                           ("psg_offset", "retrieved_context")):
        off = np.flatnonzero(np.diff(getattr(ba, offsets)) != np.diff(getattr(bb, offsets)))
        if len(off):
            i = int(off[0])
            raise InputError(f"{int(np.diff(getattr(ba, offsets))[i])} item(s) under judge {names[0]!r}, "
                             f"{int(np.diff(getattr(bb, offsets))[i])} under judge {names[1]!r}",
                             sample=_where(ba, i), field=field)
    for kind in LABEL_MATRICES:
        off = np.flatnonzero(ba.has[kind] != bb.has[kind])
        if len(off):
            i = int(off[0])
            said = "carries" if ba.has[kind][i] else "lacks"
            raise InputError(f"the sample {said} {kind} under judge {names[0]!r} but not under judge {names[1]!r}",
                             sample=_where(ba, i), field=kind)
    for i, (sa, sb) in enumerate(zip(ba.samples, bb.samples)):
        for field, of in (("response_claims", lambda s: _claims(s.response_claims)),
                          ("gt_answer_claims", lambda s: _claims(s.gt_claims)),
                          ("retrieved_context", lambda s: _passages(s.passages))):
            if of(sa) != of(sb):
                raise InputError(f"differs between judge {names[0]!r} and judge {names[1]!r}: two judges "
                                 "label the same claims and passages", sample=_where(ba, i), field=field)


def _owner(batch, kind: str) -> np.ndarray:
    """The sample of each flat cell of label matrix ``kind``."""
    return {"answer2response": batch.resp_sample, "response2answer": batch.gt_sample,
            "retrieved2response": batch.resp_sample[batch.r2r_claim],
            "retrieved2answer": batch.gt_sample[batch.r2a_claim]}[kind]


def _metric_columns(scores: Scores) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    return {shown: (value, part.code[name]) for part in scores.parts for shown, value, _, name in part.columns()}


def paired_difference(va, da, vb, db, *, confidence: float = CONFIDENCE) -> tuple[float | None, float | None]:
    """The interval of mean_B − mean_A, each the mean over its own defined samples, paired by
    question: :func:`~.intervals.difference_interval` (it holds where the judges rarely differ,
    and is not a point when no difference is seen). (None, None) when a side has no defined sample."""
    da, db = np.asarray(da, dtype=bool), np.asarray(db, dtype=bool)
    if not da.any() or not db.any():
        return None, None
    _, lo, hi = difference_interval(np.where(da, va, 0.0), da, np.where(db, vb, 0.0), db, confidence)
    return float(lo), float(hi)


@dataclass(eq=False)
class TwoJudges:
    """What :func:`two_judges` reports.

    ``agreement``: label kind -> AgreementStats (confusion rows: judge B's label, columns:
    judge A's, the reference; kappa beside A's base rate). ``disagree``: per query_id, True
    where any label differs (a 3-class label, unjudged included). ``disagree_by_metric``:
    query_id × metric, True where the value or its status (defined / Undefined) differs.
    ``metrics``: per metric, both judges' means (columns named after them), defined_a /
    defined_b (samples defined under each), paired (defined under both), difference (B − A),
    its paired interval ci_low / ci_high and ``reason`` (None: Undefined, the reason says why).
    """

    names: tuple[str, str]
    agreement: dict[str, AgreementStats]
    disagree: pd.Series
    disagree_by_metric: pd.DataFrame
    metrics: pd.DataFrame

    @property
    def disagreeing(self) -> list[str]:
        """The query_ids where any label differs, in run order."""
        return self.disagree.index[self.disagree.to_numpy()].tolist()

    def agreement_table(self) -> pd.DataFrame:
        """One row per label kind: :meth:`AgreementStats.summary` (the reference is judge A)."""
        return undefined_as_none([{"kind": kind, **a.summary()} for kind, a in self.agreement.items()],
                                 ("agreement", "kappa", "kappa_low", "kappa_high", "base_rate", "macro_f1"))

    def confusion(self, kind: str, *, binary: bool = False) -> pd.DataFrame:
        """The confusion matrix of ``kind``: judge B's labels (rows) × judge A's (columns)."""
        a = self.agreement[kind]
        frame = (a.binary if binary else a).confusion_frame()
        return frame.rename_axis(index=self.names[1], columns=self.names[0])

    def columns(self) -> pd.DataFrame:
        """Per query_id: ``judges_disagree`` (1 where any label differs, else 0) and
        ``judges_disagree_<metric>`` per metric: join onto a run's frame to filter and slice by it."""
        out = pd.DataFrame({DISAGREE_COLUMN: self.disagree.astype(np.int64)})
        for m in self.disagree_by_metric:
            out[f"{DISAGREE_COLUMN}_{m}"] = self.disagree_by_metric[m].astype(np.int64)
        return out

    def slices(self) -> list[Slice]:
        """The explorer's slices over :meth:`columns`: any label differs, and per metric."""
        a, b = self.names
        out = [Slice(f"judges {a} and {b} disagree", f"{DISAGREE_COLUMN} == 1",
                     f"a label differs between judge {a} and judge {b}")]
        out += [Slice(f"judges {a} and {b} disagree on {m}", f"{DISAGREE_COLUMN}_{m} == 1",
                      f"{m} differs (value, or defined / Undefined) between judge {a} and judge {b}")
                for m in self.disagree_by_metric]
        return out


def two_judges(scores_a: Scores, scores_b: Scores, names=("a", "b"), *, n_boot: int = N_BOOT, seed: int = 0,
               level: float = CONFIDENCE) -> TwoJudges:
    """The same run under judge A (``scores_a``) and judge B (``scores_b``): see :class:`TwoJudges`.

    Agreement per label kind both carry: agreement_stats(judge=B, reviewer=A) over the cells of
    the samples carrying it (an unjudged side left out, counted), a cluster bootstrap over
    samples. A metric's mean under a judge is the engine's aggregate: Σ values / #defined over
    its defined samples (Undefined when none is); difference = mean_B − mean_A, Undefined when
    either mean is; its interval is :func:`paired_difference` (``level``; ``n_boot`` is the
    agreement's kappa bootstrap). Metrics not computable on any sample under either judge are left out.
    InputError (naming the sample and field) unless both are the same samples, claims and passages.
    """
    names = tuple(str(n) for n in names)
    if len(names) != 2 or names[0] == names[1] or not all(names):
        raise InputError(f"names must be two different non-empty names, got {names!r}", field="names")
    clash = set(names) & set(METRIC_COLUMNS)
    if clash:
        raise InputError(f"a judge may not be called {sorted(clash)[0]!r}: the metrics table has that column",
                         field="names")
    for s, who in zip((scores_a, scores_b), names):
        if not isinstance(s, Scores):
            raise TypeError(f"judge {who!r}: expected the Scores of rw.evaluate, not {type(s).__name__}")
    check_same_run(scores_a, scores_b, names)
    ba, bb = scores_a.batch, scores_b.batch
    n = ba.n_samples
    index = pd.Index(ba.query_ids, name="query_id")
    agreement, disagree = {}, np.zeros(n, dtype=bool)
    for kind in LABEL_MATRICES:
        if not ba.has[kind].any():
            continue
        owner = _owner(ba, kind)
        play = ba.has[kind][owner]
        la, lb = getattr(ba, FLAT[kind])[play], getattr(bb, FLAT[kind])[play]
        agreement[kind] = agreement_stats(lb, la, groups=owner[play], seed=seed, n_boot=n_boot, level=level)
        disagree[owner[play][la != lb]] = True
    cols_a, cols_b = _metric_columns(scores_a), _metric_columns(scores_b)
    rows, by_metric = [], {}
    for m in (m for m in cols_a if m in cols_b):
        (va, ca), (vb, cb) = cols_a[m], cols_b[m]
        if (ca == NOT_COMPUTABLE_CODE).all() and (cb == NOT_COMPUTABLE_CODE).all():
            continue
        da, db = ca == DEFINED_CODE, cb == DEFINED_CODE
        by_metric[m] = (ca != cb) | (da & db & (va != vb))
        mean_a, n_a = mean_over_defined(va, da)
        mean_b, n_b = mean_over_defined(vb, db)
        lo, hi = paired_difference(va, da, vb, db, confidence=level)
        missing = [who for who, k in zip(names, (n_a, n_b)) if k == 0]
        rows.append({"metric": m, names[0]: mean_a, names[1]: mean_b, "defined_a": n_a, "defined_b": n_b,
                     "paired": int((da & db).sum()),
                     "difference": None if missing else mean_b - mean_a, "ci_low": lo, "ci_high": hi,
                     "reason": f"no sample is defined under judge {' nor '.join(map(repr, missing))}"
                     if missing else ""})
    metrics = undefined_as_none(rows, (*names, "difference", "ci_low", "ci_high"))
    metrics = metrics.set_index("metric") if rows else pd.DataFrame(columns=[*names, *METRIC_COLUMNS])
    return TwoJudges(names, agreement, pd.Series(disagree, index=index, name=DISAGREE_COLUMN),
                     pd.DataFrame(by_metric, index=index), metrics)
