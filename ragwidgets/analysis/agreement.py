"""Judge–reviewer agreement as an expert would report it: the confusion matrix, percent
agreement, Cohen's kappa with a bootstrap interval, the base rate beside it, per-class
precision / recall / F1 and macro-F1, each with its n, Undefined (None and a reason) where a
denominator is 0 — never a 0 or a NaN.

:func:`agreement_stats` works on two paired label arrays (the notebook calls it at answer level);
:func:`agreement` reads a run's judge labels at the reviewed cells, per label kind.
"""

from __future__ import annotations

import html
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..engine.metrics import format_value
from ..errors import InputError, InputWarning
from ..model import ENTAILMENT, LABEL_CODES, LABEL_MATRICES, LABEL_SPELLINGS
from .intervals import ratio_interval
from .reviewed_labels import groups_of, is_run, reviewed_run

NO_GROUPS = ("no sample given for the labels, so the intervals resample single labels as if independent "
             "(too narrow when one answer's labels share their errors)")
NOT_ENTAILED_2 = "not entailed"  # the metrics' second class: Neutral and Contradiction together
BINARY = (ENTAILMENT, NOT_ENTAILED_2)


class Stat(NamedTuple):
    """One figure: ``value`` (None: Undefined, ``reason`` says why) over ``n`` items."""

    value: float | None
    n: int
    reason: str = ""


FIGURES = ("agreement", "agreement_low", "agreement_high", "kappa", "kappa_low", "kappa_high", "base_rate",
           "majority_accuracy", "majority_macro_f1", "macro_f1")


def undefined_as_none(rows: list[dict], columns) -> pd.DataFrame:
    """A DataFrame of ``rows`` whose ``columns`` keep None for Undefined (object columns, not NaN)."""
    frame = pd.DataFrame(rows)
    for c in columns:
        if c in frame:
            frame[c] = pd.Series([r.get(c) for r in rows], index=frame.index, dtype=object)
    return frame


def _ratio(num: float, den: float, n: int, reason: str) -> Stat:
    return Stat(float(num / den), n) if den > 0 else Stat(None, n, reason)


def _codes(values, labels: tuple, name: str) -> np.ndarray:
    """Positions in ``labels`` of each value (a label, or a model code when ``labels`` are
    RAGChecker's spellings); -1 for unjudged (None, model code -1); InputError otherwise."""
    lookup = {lab: i for i, lab in enumerate(labels)}
    for i, lab in enumerate(labels):
        if lab in LABEL_CODES:
            lookup[LABEL_CODES[lab]] = i
            lookup[lab.lower()] = i
    codes, distinct = pd.factorize(np.asarray(values).ravel() if not isinstance(values, pd.Series) else values)
    table = np.empty(len(distinct) + 1, dtype=np.int64)
    table[-1] = -1  # None / NaN: unjudged
    for k, v in enumerate(distinct.tolist()):
        key = v.strip().lower() if isinstance(v, str) and v not in lookup else v
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v == -1:
            table[k] = -1
        elif key in lookup:
            table[k] = lookup[key]
        else:
            raise InputError(f"{v!r} is not one of the labels {', '.join(map(str, labels))}", field=name)
    return table[codes]


def _kappa_of(conf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cohen's kappa and percent agreement of confusion matrices (..., K, K); NaN kappa where
    chance agreement is 1 (both raters used the same single class) or there are no pairs."""
    n = conf.sum(axis=(-1, -2))
    with np.errstate(invalid="ignore", divide="ignore"):
        po = np.trace(conf, axis1=-2, axis2=-1) / n
        pe = (conf.sum(axis=-1) * conf.sum(axis=-2)).sum(axis=-1) / n.astype(float) ** 2
        kappa = np.where(pe < 1, (po - pe) / (1 - pe), np.nan)
    return kappa, po


@dataclass(frozen=True)
class ClassStats:
    """One class: ``n`` reviewer labels of it, ``judged`` judge labels of it, and its
    precision (TP / judged), recall (TP / n), F1 (2TP / (n + judged))."""

    label: str
    n: int
    judged: int
    precision: Stat
    recall: Stat
    f1: Stat


@dataclass(frozen=True)
class AgreementStats:
    """What :func:`agreement_stats` reports (see there)."""

    labels: tuple[str, ...]
    confusion: np.ndarray  # judge (rows) x reviewer (columns) counts
    n: int
    n_unjudged: int
    agreement: Stat
    agreement_interval: tuple[float | None, float | None]
    kappa: Stat
    kappa_interval: tuple[float | None, float | None]
    majority_label: str | None
    base_rate: Stat
    majority_accuracy: Stat
    majority_macro_f1: Stat
    classes: tuple[ClassStats, ...]
    macro_f1: Stat
    n_groups: int
    binary: AgreementStats | None = field(default=None, repr=False)
    interval_note: str = ""  # how the intervals resampled: '' clusters, else why not

    def confusion_frame(self) -> pd.DataFrame:
        """The confusion matrix: rows the judge's label, columns the reviewer's."""
        return pd.DataFrame(self.confusion, index=pd.Index(self.labels, name="judge"),
                            columns=pd.Index(self.labels, name="reviewer"))

    def per_class(self) -> pd.DataFrame:
        """One row per class: n, judged, precision, recall, f1 (None: Undefined) and why."""
        rows = []
        for c in self.classes:
            reasons = "; ".join(dict.fromkeys(s.reason for s in (c.precision, c.recall, c.f1) if s.reason))
            rows.append({"label": c.label, "n": c.n, "judged": c.judged, "precision": c.precision.value,
                         "recall": c.recall.value, "f1": c.f1.value, "reason": reasons})
        return undefined_as_none(rows, ("precision", "recall", "f1")).set_index("label")

    def summary(self) -> dict:
        """The headline figures, flat (None: Undefined), with their n."""
        return {"n": self.n, "n_groups": self.n_groups, "n_unjudged": self.n_unjudged,
                "agreement": self.agreement.value, "agreement_low": self.agreement_interval[0],
                "agreement_high": self.agreement_interval[1],
                "kappa": self.kappa.value, "kappa_low": self.kappa_interval[0], "kappa_high": self.kappa_interval[1],
                "majority_label": self.majority_label, "base_rate": self.base_rate.value,
                "majority_accuracy": self.majority_accuracy.value,
                "majority_macro_f1": self.majority_macro_f1.value, "macro_f1": self.macro_f1.value,
                "interval_note": self.interval_note,
                "reason": "; ".join(dict.fromkeys(s.reason for s in (self.agreement, self.kappa, self.macro_f1)
                                                  if s.reason))}

    def to_frame(self) -> pd.DataFrame:
        """The summary as a one-row DataFrame."""
        return undefined_as_none([self.summary()], FIGURES)

    def to_view(self) -> dict:
        """A JSON-able dict: summary, confusion (lists), per-class rows and the 2-class view."""
        view = {"labels": list(self.labels), "confusion": self.confusion.tolist(), **self.summary(),
                "classes": [{"label": c.label, "n": c.n, "judged": c.judged,
                             **{k: getattr(c, k).value for k in ("precision", "recall", "f1")},
                             "reason": "; ".join(dict.fromkeys(
                                 s.reason for s in (c.precision, c.recall, c.f1) if s.reason))}
                            for c in self.classes]}
        if self.binary is not None:
            view["binary"] = self.binary.to_view()
        return view


def _class_stats(conf: np.ndarray, labels: tuple) -> tuple[ClassStats, ...]:
    out = []
    for i, lab in enumerate(labels):
        tp, judged, n = int(conf[i, i]), int(conf[i].sum()), int(conf[:, i].sum())
        out.append(ClassStats(
            lab, n, judged,
            precision=_ratio(tp, judged, judged, f"the judge never says {lab}"),
            recall=_ratio(tp, n, n, f"no reviewed label is {lab}"),
            f1=_ratio(2 * tp, n + judged, n, f"{lab} is absent from both the judge's and the reviewer's labels")))
    return tuple(out)


def _macro(f1s: list[Stat], n: int) -> Stat:
    defined = [s.value for s in f1s if s.value is not None]
    return Stat(float(np.mean(defined)), n) if defined else Stat(None, n, "no reviewed pair")


def _cluster_counts(cells: np.ndarray, groups: np.ndarray | None, k: int) -> np.ndarray:
    """Confusion counts (flattened, k·k) per cluster: per group, or per pair without ``groups``."""
    if groups is None:
        return np.eye(k * k, dtype=np.int64)[cells]
    _, g = np.unique(groups, return_inverse=True)
    per_group = np.zeros((g.max() + 1 if len(g) else 0, k * k), dtype=np.int64)
    np.add.at(per_group, (g.ravel(), cells), 1)
    return per_group


def _bootstrap_confusions(per_group: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """``n_boot`` resampled (flattened) confusion matrices per run of ``per_group`` (runs x
    clusters x k·k): whole clusters drawn with replacement."""
    runs, n_groups, _ = per_group.shape
    idx = rng.integers(0, n_groups, size=(runs * n_boot, n_groups)) + (np.arange(runs * n_boot) * n_groups)[:, None]
    picks = np.bincount(idx.ravel(), minlength=runs * n_boot * n_groups).reshape(runs, n_boot, n_groups)
    return np.einsum("rbg,rgc->rbc", picks.astype(float), per_group.astype(float))


def _pair_confusions(cells: np.ndarray, k: int, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """:func:`_bootstrap_confusions` of single pairs (1 x n_boot x k·k), drawn over the distinct cells."""
    counts = np.bincount(cells, minlength=k * k)
    return rng.multinomial(len(cells), counts / len(cells), size=(1, n_boot)).astype(float)


def agreement_intervals(per_group: np.ndarray, boots: np.ndarray, k: int,
                        level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per run of ``per_group`` (runs x clusters x k·k counts) with its ``boots`` (runs x
    resamples x k·k): the interval of percent agreement and of kappa (NaN: none).

    Agreement: :func:`~.intervals.ratio_interval` over the clusters (Clopper–Pearson on the
    design effect's n*; with no disagreement seen, n* is the effective number of clusters, so it
    does not collapse to 1). Kappa: the percentile interval of the cluster bootstrap, widened to
    hold kappa at the agreement interval's ends with chance agreement as seen, κ(p) = (p − pₑ) /
    (1 − pₑ): a bootstrap that saw no disagreement resamples none and would collapse to a point."""
    conf = per_group.sum(axis=1).reshape(-1, k, k)
    agree = per_group[..., np.arange(k) * (k + 1)].sum(axis=-1)
    _, a_lo, a_hi = ratio_interval(agree, per_group.sum(axis=-1), level)
    bk, _ = _kappa_of(boots.reshape(*boots.shape[:2], k, k))
    tail = (1 - level) / 2 * 100
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a run whose every resample has kappa Undefined
        b_lo, b_hi = np.nanpercentile(bk, [tail, 100 - tail], axis=-1)
    n = conf.sum(axis=(-1, -2)).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        pe = (conf.sum(axis=-1) * conf.sum(axis=-2)).sum(axis=-1) / n ** 2
        k_lo, k_hi = (a_lo - pe) / (1 - pe), (a_hi - pe) / (1 - pe)
    return a_lo, a_hi, np.maximum(np.fmin(b_lo, k_lo), -1.0), np.fmax(b_hi, k_hi)  # kappa is at least -1


def agreement_stats(judge, reviewer, *, labels=LABEL_SPELLINGS, groups=None, seed: int = 0,
                    n_boot: int = 1000, level: float = 0.95) -> AgreementStats:
    """Agreement of paired labels ``judge[i]`` / ``reviewer[i]`` (label strings in any case, or
    model codes when ``labels`` are RAGChecker's spellings; pairs with an unjudged side are left
    out and counted in ``n_unjudged``).

    Over the n pairs with confusion matrix C (judge rows × reviewer columns):
    agreement = trace(C) / n; Cohen's kappa = (pₒ − pₑ) / (1 − pₑ) with pₑ = Σₖ rowₖ·colₖ / n²
    (Undefined when pₑ = 1: both used one and the same class); per class k:
    precision = C[k,k] / rowₖ, recall = C[k,k] / colₖ, F1 = 2C[k,k] / (rowₖ + colₖ) (Undefined
    when that denominator is 0); macro-F1 = the mean F1 over the classes either side uses.
    Base rate: the reviewer's majority class and its share; an always-majority judge would score
    that share as accuracy and macro-F1 = (2s / (1 + s)) / (classes the reviewer uses).

    ``groups``: a cluster id per pair (e.g. its sample's query_id). Labels within one sample are
    not independent (one answer, one judge call), so the intervals (``level``) treat whole groups
    as the units (:func:`agreement_intervals`: agreement by Clopper–Pearson on the clusters' design
    effect, kappa by a cluster bootstrap of ``n_boot`` resamples widened to hold kappa at the
    agreement interval's ends, so neither collapses when nobody disagrees). Without ``groups``
    each pair is its own unit, which understates the intervals when one answer's labels share
    their errors: an InputWarning and ``interval_note`` say so. From fewer than two groups (or
    pairs) there is no interval. With labels containing "Entailment", ``binary`` holds the same statistics on
    the metrics' 2-class view (Entailment / not entailed: Neutral and Contradiction together).
    """
    labels = tuple(labels)
    j, r = _codes(judge, labels, "judge"), _codes(reviewer, labels, "reviewer")
    if j.shape != r.shape:
        raise InputError(f"judge and reviewer must pair up: {len(j)} judge labels, {len(r)} reviewer labels",
                         field="reviewer")
    g = None if groups is None else np.asarray(groups)
    if g is not None and g.shape != j.shape:
        raise InputError(f"groups must have one id per pair ({len(j)}), got {len(g)}", field="groups")
    judged = (j >= 0) & (r >= 0)
    n_unjudged = int((~judged).sum())
    j, r = j[judged], r[judged]
    if g is None and len(j) >= 2:
        warnings.warn(f"agreement_stats: {NO_GROUPS}; pass groups= (each label's query_id)", InputWarning,
                      stacklevel=2)
    return _stats(j, r, None if g is None else g[judged], labels, n_unjudged, seed, n_boot, level)


def _stats(j: np.ndarray, r: np.ndarray, g, labels: tuple, n_unjudged: int, seed: int, n_boot: int,
           level: float) -> AgreementStats:
    """:func:`agreement_stats` over label positions in ``labels`` (none unjudged)."""
    k, n = len(labels), len(j)
    cells = j * k + r
    conf = np.bincount(cells, minlength=k * k).reshape(k, k)
    kappa, po = _kappa_of(conf)
    no_pairs = "no reviewed pair"
    if n == 0:
        kappa_stat, agree_stat = Stat(None, 0, no_pairs), Stat(None, 0, no_pairs)
    else:
        agree_stat = Stat(float(po), n)
        kappa_stat = Stat(None, n, "chance agreement is 1: the judge and the reviewer use one and the same class") \
            if np.isnan(kappa) else Stat(float(kappa), n)
    kappa_ci = agree_ci = (None, None)
    units = n if g is None else len(np.unique(g))
    if units >= 2:  # one resampling unit (one pair, or one sample's labels) has no spread to draw from
        rng = np.random.default_rng(seed)
        per_group = _cluster_counts(cells, g, k)[None]
        boots = _pair_confusions(cells, k, n_boot, rng) if g is None else _bootstrap_confusions(per_group, n_boot, rng)
        a_lo, a_hi, k_lo, k_hi = (float(v[0]) for v in agreement_intervals(per_group, boots, k, level))
        agree_ci = (a_lo, a_hi)
        if kappa_stat.value is not None:
            kappa_ci = (k_lo, k_hi)
    classes = _class_stats(conf, labels)
    col = conf.sum(axis=0)
    if n:
        top = int(np.argmax(col))
        share = col[top] / n
        used = int((col > 0).sum())
        majority, base = labels[top], Stat(float(share), n)
        maj_acc, maj_f1 = Stat(float(share), n), Stat(float(2 * share / (1 + share) / used), n)
    else:
        majority, base = None, Stat(None, 0, no_pairs)
        maj_acc = maj_f1 = Stat(None, 0, no_pairs)
    binary = None
    if ENTAILMENT in labels and len(labels) > 2:
        e = labels.index(ENTAILMENT)
        binary = _stats((j != e).astype(np.int64), (r != e).astype(np.int64), g, BINARY, n_unjudged, seed,
                        n_boot, level)
    return AgreementStats(
        labels=labels, confusion=conf, n=n, n_unjudged=n_unjudged, agreement=agree_stat, agreement_interval=agree_ci,
        kappa=kappa_stat, kappa_interval=kappa_ci, majority_label=majority, base_rate=base,
        majority_accuracy=maj_acc, majority_macro_f1=maj_f1, classes=classes,
        macro_f1=_macro([c.f1 for c in classes], n), n_groups=units,
        binary=binary, interval_note=NO_GROUPS if g is None and units >= 2 else "")


TABLE_FIGURES = FIGURES + ("binary_agreement", "binary_kappa", "binary_kappa_low", "binary_kappa_high",
                           "binary_macro_f1")


@dataclass(eq=False)
class Agreement:
    """Judge–reviewer agreement of a run per label kind [× group] (:func:`agreement`).

    ``table``: one row per kind [and group] with n (reviewed labels), n_samples (their samples:
    the bootstrap's clusters), n_unjudged, agreement, kappa with its interval, the base rate
    (majority_label, base_rate, majority_accuracy, majority_macro_f1), macro_f1, the 2-class
    figures (binary_*) and ``reason`` (None: Undefined). ``stats``: (kind, group) -> AgreementStats.
    ``problems``: the reviews that did not match their sample (left out).
    """

    stats: dict[tuple[str, object], AgreementStats]
    by: str | None
    problems: list

    @property
    def table(self) -> pd.DataFrame:
        rows = []
        for (kind, group), a in self.stats.items():
            b = a.binary
            row = {"kind": kind, **({self.by: group} if self.by else {}), **a.summary()}
            row.update(binary_agreement=b.agreement.value, binary_kappa=b.kappa.value,
                       binary_kappa_low=b.kappa_interval[0], binary_kappa_high=b.kappa_interval[1],
                       binary_macro_f1=b.macro_f1.value)
            rows.append(row)
        frame = undefined_as_none(rows, TABLE_FIGURES)
        return frame.rename(columns={"n_groups": "n_samples"})

    def _one(self, kind: str, group) -> AgreementStats:
        if (kind, group) not in self.stats:
            groups = sorted({g for k, g in self.stats if k == kind}, key=str)
            raise KeyError(f"no agreement for kind {kind!r}" + (f" and {self.by} {group!r}; groups: {groups}"
                                                                  if self.by else ""))
        return self.stats[(kind, group)]

    def confusion(self, kind: str, group=None, *, binary: bool = False) -> pd.DataFrame:
        """The confusion matrix of one kind [and group]: judge rows × reviewer columns."""
        a = self._one(kind, group)
        return (a.binary if binary else a).confusion_frame()

    def per_class(self, kind: str, group=None, *, binary: bool = False) -> pd.DataFrame:
        """Per-class n, precision, recall and F1 of one kind [and group]."""
        a = self._one(kind, group)
        return (a.binary if binary else a).per_class()

    def to_frame(self) -> pd.DataFrame:
        return self.table

    def to_view(self) -> dict:
        """JSON-able: per row its kind, group and :meth:`AgreementStats.to_view`; the problems as text."""
        return {"by": self.by, "rows": [{"kind": kind, "group": group, **a.to_view()}
                                        for (kind, group), a in self.stats.items()],
                "problems": [str(p) for p in self.problems]}

    def _repr_html_(self) -> str:
        return agreement_html(self)


def agreement_html(result: Agreement) -> str:
    """The agreement table as an HTML table (every text escaped; Undefined spelt out)."""
    cols = ["kind"] + ([result.by] if result.by else []) + [
        "n", "n_samples", "agreement", "kappa", "kappa 95%", "base rate", "majority judge accuracy",
        "majority judge macro-F1", "macro-F1", "2-class kappa"]

    def num(v):
        return "<i>Undefined</i>" if v is None else format_value(v)

    out = ["<table><tr>" + "".join(f"<th>{html.escape(str(c))}</th>" for c in cols) + "</tr>"]
    for row in result.table.to_dict("records"):
        ci = "—" if row["kappa_low"] is None else f"{format_value(row['kappa_low'])} – {format_value(row['kappa_high'])}"
        base = "<i>Undefined</i>" if row["base_rate"] is None else \
            f"{format_value(row['base_rate'])} ({html.escape(str(row['majority_label']))})"
        cells = [html.escape(row["kind"])] + ([html.escape(str(row[result.by]))] if result.by else []) + [
            str(row["n"]), str(row["n_samples"]), num(row["agreement"]), num(row["kappa"]), ci, base,
            num(row["majority_accuracy"]), num(row["majority_macro_f1"]), num(row["macro_f1"]),
            num(row["binary_kappa"])]
        out.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    out.append("</table>")
    if result.problems:
        out.append(f"<p>{len(result.problems)} review(s) did not match their sample and were left out; "
                   f"the first: {html.escape(str(result.problems[0]))}</p>")
    return "".join(out)


def agreement(scores, reviews=None, *, by=None, seed: int = 0, n_boot: int = 1000,
              level: float = 0.95, use: str = "adjudicated") -> Agreement:
    """Judge–reviewer agreement over the reviewed labels of a run, per label kind
    (answer2response, response2answer, retrieved2response, retrieved2answer) [× group]: the
    statistics of :func:`agreement_stats`, with a cluster bootstrap over samples.

    ``scores``: the judge's scores with ``reviews`` (a reviews file's path, Reviews, records), or
    scores evaluated with reviews (``rw.evaluate(..., reviews=)``, ``reviews`` None: then
    ``scores.judge_scores`` holds the judge's labels); or ``{run: scores}`` with ``reviews``
    None, one reviews object for all, or ``{run: reviews}``. The judge label is the judge's
    scores' label at the reviewed cell; the reviewed label the one in force for ``use``
    (:meth:`Reviews.resolved <ragwidgets.reviews.Reviews.resolved>`: "adjudicated", per label the
    latest adjudication, else the latest review; or a reviewer's name, that reviewer's labels). ``by``: "run" (per run of a dict), or a group per sample
    (a sequence, or a mapping / Series from query_id; per run for a dict: ``{run: …}``).
    """
    runs = scores if isinstance(scores, Mapping) else {"": scores}
    if isinstance(by, str) and (not is_run(by) or not isinstance(scores, Mapping)):
        raise InputError(f"by={by!r}: give 'run' with several runs ({{run name: scores}}), or a group per sample",
                         field="by")
    pooled: dict[tuple[str, object], list] = {}
    problems = []
    for number, (name, sc) in enumerate(runs.items()):
        mine = reviews.get(name) if isinstance(reviews, Mapping) else reviews
        run = reviewed_run(sc, mine, use)
        problems += run.problems
        groups = None if by is None else groups_of(by, run.judge, name)
        keys = [None] if groups is None else list(dict.fromkeys(groups.tolist()))
        for kind in LABEL_MATRICES:
            if not run.judge.batch.has[kind].any():
                continue
            cells = run.cells[kind] & run.in_play[kind]
            owner = run.owner[kind][cells]
            j, r = run.judge_labels(kind)[cells], run.reviewed_labels[kind][cells]
            cluster = owner + number * (run.n_samples + 1)  # one cluster per sample of each run
            for key in keys:
                sel = slice(None) if groups is None else groups[owner] == key
                pooled.setdefault((kind, key), []).append((j[sel], r[sel], cluster[sel]))
    stats = {}
    for key, parts in pooled.items():
        j, r, g = (np.concatenate([p[k] for p in parts]) for k in range(3))
        stats[key] = agreement_stats(j, r, groups=g, seed=seed, n_boot=n_boot, level=level)
    by_name = None if by is None else "run" if is_run(by) else getattr(by, "name", None) or "group"
    return Agreement(stats, by_name, problems)
