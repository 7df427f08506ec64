"""The reviews panel (``js/src/dataset/trust.js``): per reviewed run, the metrics whose mean the
reviews moved, the reviews that did not match, and while the trust panel is open its tables: the
judge–reviewer agreement and the corrected scores of the reviewed runs and, per label kind the
run has, the confusion matrix (counts, row-normalised rates, the 2-class view), per-class
precision / recall / F1 and kappa beside the base rate. A confusion cell names the samples
holding such labels (``trust_cell``), which the front end keeps as the explorer's ``samples``.
With two or more reviewers: their agreement with each other (Cohen's kappa for two,
Krippendorff's alpha for more) and the labels in force (``trust_use``: "adjudicated" or one
reviewer's), which the agreement and corrected tables use."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...analysis.agreement import BINARY, agreement
from ...analysis.corrected import corrected
from ...analysis.plan import review_plan
from ...analysis.reviewed_labels import reviewed_run
from ...analysis.runs import require
from ...analysis.team import reviewer_agreement
from ...errors import InputError
from ...engine.metrics import format_value, metric_label
from ...model import ENTAILED, LABEL_CODES, LABEL_MATRICES, LABEL_SPELLINGS
from .common import NOTHING, VIEW, Context, Panel, frame_view, judged_scores, text

PLAN_WIDTH = 0.05  # the review plan: random reviews for a corrected interval of ± this


class TrustPanel(Panel):
    """The reviews' part of the view (``reviews``; None for a run that cannot review); ``tables``
    holds the trust panel's tables while it is open (None: closed)."""

    key = "trust"
    requests = {"trust": VIEW, "trust_cell": NOTHING, "trust_use": VIEW}

    def __init__(self, model):
        super().__init__(model)
        self.judged = judged_scores(model)
        self.tables: dict | None = None
        self._labels: dict = {}  # run -> its ReviewedRun, while the reviews stay as they are
        self.use = "adjudicated"  # the labels in force: per label the adjudication, else the latest; or a reviewer's

    def part(self, ctx: Context, view: dict) -> dict:
        return {"reviews": self._lines() if "reviews" in self.model.capabilities else None}

    def on_trust(self, ctx: Context, message: dict) -> None:
        self.open(bool(message.get("open", True)))

    def on_trust_use(self, ctx: Context, message: dict) -> None:
        use = message.get("use")
        if not isinstance(use, str):  # "" is a reviewer who gave no name
            raise ValueError(f"use must be 'adjudicated' or a reviewer's name, not {use!r:.80}")
        self.set_use(use)

    def set_use(self, use: str) -> None:
        """Put ``use``'s labels in force for the agreement, corrected and confusion tables:
        "adjudicated" or one of :meth:`reviewers` (InputError naming them otherwise)."""
        require(self.model, "reviews")
        if use != "adjudicated" and use not in self.reviewers():
            names = ", ".join(map(repr, self.reviewers())) or "none"
            raise InputError(f"must be 'adjudicated' or a reviewer of every reviewed run ({names}), not {use!r:.80}",
                             field="use")
        self.use = use
        self.reviewed(None)

    def _per_run(self) -> dict:
        """Each run's Reviews."""
        reviews = self.model.reviews
        return reviews if isinstance(reviews, dict) else {self.model.runs[0]: reviews}

    def _in_force(self) -> dict:
        """Each run's Reviews resolved for ``use`` (a run without reviews as it is)."""
        return {run: r.resolved(self.use) if len(r) else r for run, r in self._per_run().items()}

    def _first(self, run: str) -> str:
        """``run``, or for "" the first run."""
        return run or next(iter(self.judged))

    def reviewers(self) -> list[str]:
        """The reviewers whose labels may be put in force: those who reviewed in every reviewed run (sorted)."""
        names = [set(r.reviewers) for r in self._per_run().values() if len(r)]
        return sorted(set.intersection(*names)) if names else []

    def on_trust_cell(self, ctx: Context, message: dict) -> dict:
        """The samples of one confusion cell (``kind``, ``judge`` and ``reviewer`` labels, ``run``
        for several runs, ``binary``: the 2-class view): ``{"label", "query_ids", "run"}``."""
        require(self.model, "reviews")
        return self.cell(text(message, "kind"), text(message, "judge"), text(message, "reviewer"),
                         run=message.get("run") or "", binary=bool(message.get("binary", False)))

    def cell(self, kind: str, judge: str, reviewer: str, *, run: str = "", binary: bool = False) -> dict:
        """The reviewed samples holding a ``kind`` label the judge said ``judge`` and the reviewer
        ``reviewer`` (``binary``: Entailment / not entailed), in ``run`` (""; the first run):
        ``{"label": "answer2response · judge Entailment, reviewer Neutral: 6 samples", "query_ids",
        "run"}`` (``run`` "" for one run).
        ValueError for an unknown kind, label or run."""
        labels = BINARY if binary else LABEL_SPELLINGS
        for name, value in (("kind", kind), ("judge", judge), ("reviewer", reviewer), ("run", run)):
            known = {"kind": LABEL_MATRICES, "run": ["", *self.judged]}.get(name, labels)
            if value not in known:
                raise ValueError(f"{name} must be one of {', '.join(map(repr, known))}, not {value!r:.80}")
        j, r, owner = self._pairs(kind, self._first(run), binary)
        owners = np.unique(owner[(j == labels.index(judge)) & (r == labels.index(reviewer))])
        ids = self.judged[self._first(run)].batch.query_ids
        query_ids = [ids[i] for i in owners.tolist()]
        n = len(query_ids)
        return {"label": f"{kind} · judge {judge}, reviewer {reviewer}: {n} sample{'s' if n != 1 else ''}",
                "query_ids": query_ids, "run": run if len(self.judged) > 1 else ""}

    def _pairs(self, kind: str, run: str, binary: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The reviewed ``kind`` labels of ``run`` judged on both sides: the judge's and the
        reviewer's position in the labels (BINARY's when ``binary``) and each one's sample."""
        rr = self._reviewed(run)
        cells = rr.cells[kind] & rr.in_play[kind]
        j, r = rr.judge_labels(kind)[cells].astype(np.int64), rr.reviewed_labels[kind][cells].astype(np.int64)
        both = (j >= 0) & (r >= 0)
        j, r, owner = j[both], r[both], rr.owner[kind][cells][both]
        if binary:
            return (j != ENTAILED).astype(np.int64), (r != ENTAILED).astype(np.int64), owner
        position = np.full(max(LABEL_CODES.values()) + 1, -1)
        for i, spelling in enumerate(LABEL_SPELLINGS):
            position[LABEL_CODES[spelling]] = i
        return position[j], position[r], owner

    def _reviewed(self, run: str):
        """``run``'s judge and reviewed labels (found once per opening of the panel and review)."""
        if run not in self._labels:
            reviews = self._per_run()[run]
            self._labels[run] = reviewed_run(self.judged[run], reviews.resolved(self.use) if len(reviews) else reviews)
        return self._labels[run]

    def kinds(self) -> list[str]:
        """The label kinds the run has (a label of the kind on some sample of some run), whatever was reviewed."""
        return [kind for kind in LABEL_MATRICES
                if any(self._reviewed(run).counts[kind][0].any() for run in self.judged)]

    def open(self, value: bool) -> None:
        """Open (compute the tables) or close the trust panel."""
        require(self.model, "reviews")
        self.tables = self._tables() if value else None

    def reviewed(self, ctx: Context | None) -> None:
        """After a review (``ctx``) the open tables are kept, marked ``stale``: the front end asks
        for them again after a pause in the reviewing (a pass over the run is no cost of a key
        press); after a change of the labels in force (``ctx`` None) they are found at once."""
        self._labels = {}
        if self.tables is not None:
            self.tables = self._tables() if ctx is None else {**self.tables, "stale": True}

    def trust(self) -> dict:
        """The trust panel's tables as analysis gives them (see
        :meth:`~ragwidgets.widgets.dataset.DatasetExplorer.trust`)."""
        require(self.model, "reviews")
        judged, per_run, first = self.judged, self._in_force(), self.model.runs[0]
        several = len(judged) > 1
        return {"agreement": agreement(judged if several else judged[first],
                                       per_run if several else per_run[first], by="run" if several else None),
                "corrected": {run: corrected(judged[run], per_run[run]) for run in judged} if several
                else corrected(judged[first], per_run[first])}

    def _tables(self) -> dict:
        """The trust panel's view: each table's columns and rows (None: Undefined, with its reason)."""
        t = self.trust()
        tables = t["corrected"] if isinstance(t["corrected"], dict) else {"": t["corrected"]}
        kinds = self.kinds()
        table = t["agreement"].table
        table = table[table["kind"].isin(kinds)].reset_index(drop=True)
        by = [t["agreement"].by] if t["agreement"].by else []
        agreement_shown = pd.DataFrame({
            "kind": table["kind"], **{b: table[b] for b in by}, "n": table["n"], "samples": table["n_samples"],
            "agreement": table["agreement"], "kappa": table["kappa"],
            "kappa 95%": [_interval(lo, hi) for lo, hi in zip(table["kappa_low"], table["kappa_high"])],
            "majority label": table["majority_label"], "base rate": table["base_rate"],
            "macro-F1": table["macro_f1"], "majority macro-F1": table["majority_macro_f1"],
            "2-class kappa": table["binary_kappa"], "reason": table["reason"]})
        reviews = self.model.reviews
        return {"agreement": _shown(agreement_shown),
                "corrected": {run: _shown(pd.DataFrame({
                    "metric": [metric_label(m) for m in f.index],
                    **{k: v for name in ("judge", "reviewed", "corrected") for k, v in (
                        (name, f[f"{name}_mean"]),
                        (f"{name} 95%", [_interval(lo, hi) for lo, hi in zip(f[f"{name}_low"], f[f"{name}_high"])]))},
                    "reviewed samples": f["n_reviewed"], "discordant": f["n_discordant"], "samples": f["n_samples"],
                    f"to review for ±{PLAN_WIDTH:g}": review_plan(f, PLAN_WIDTH)["more"].reindex(f.index),
                    "reason": f["reason"]}))
                    for run, f in tables.items()},
                "kinds": [self._kind_view(kind, group, a) for (kind, group), a in t["agreement"].stats.items()
                          if kind in kinds],
                "n_reviews": sum(len(r) for r in ([reviews] if not isinstance(reviews, dict) else reviews.values())),
                "team": self._team(kinds)}

    def _team(self, kinds: list[str]) -> dict | None:
        """With two or more reviewers in some run: the reviewers that may be put in force, the
        labels in force (``use``) and per such run the reviewers' agreement per label kind of the
        run (Cohen's kappa for two, Krippendorff's alpha for more) and per pair; None otherwise."""
        runs = {}
        for run, reviews in self._per_run().items():
            if len(reviews.reviewers) < 2:
                continue
            ra = reviewer_agreement(reviews)
            table, pairs = ra.table[ra.table["kind"].isin(kinds)], ra.pairs[ra.pairs["kind"].isin(kinds)]
            runs[run if len(self.judged) > 1 else ""] = {
                "table": _team_table(table, [", ".join(map(_who, r)) for r in table["reviewers"]], alpha=True),
                "pairs": _team_table(pairs, [f"{_who(a)} · {_who(b)}"
                                             for a, b in zip(pairs["reviewer_a"], pairs["reviewer_b"])], alpha=False)}
        if not runs:
            return None
        return {"use": self.use, "reviewers": self.reviewers(), "runs": runs}

    def _kind_view(self, kind: str, run, a) -> dict:
        """One label kind's (of one run, when several) confusion matrix, per-class figures and
        kappa beside the base rate (numbers as format_value writes them; None: Undefined, with
        its reason), in three classes and in the 2-class view."""
        view = {"kind": kind, "run": run or "", "n": a.n}
        for name, stats in (("classes", a), ("binary", a.binary)):
            j, r, owner = self._pairs(kind, self._first(run or ""), name == "binary")
            k = len(stats.labels)
            samples = np.zeros((k, k), dtype=int)
            if len(owner):
                pairs = np.unique(np.stack([j * k + r, owner]), axis=1)[0]
                samples = np.bincount(pairs, minlength=k * k).reshape(k, k)
            rows = stats.confusion.sum(axis=1)
            view[name] = {
                "labels": list(stats.labels), "counts": stats.confusion.tolist(), "samples": samples.tolist(),
                "rates": [[_number(c / rows[i]) if rows[i] else None for c in stats.confusion[i]] for i in range(k)],
                "kappa": _number(stats.kappa.value), "kappa_interval": _interval(*stats.kappa_interval),
                "agreement": _number(stats.agreement.value), "majority_label": stats.majority_label,
                "base_rate": _number(stats.base_rate.value), "reason": stats.summary()["reason"],
                "per_class": frame_view(pd.DataFrame(
                    [{"label": c.label, "reviewer n": c.n, "judge n": c.judged, "precision": _number(c.precision.value),
                      "recall": _number(c.recall.value), "F1": _number(c.f1.value),
                      "reason": "; ".join(dict.fromkeys(x.reason for x in (c.precision, c.recall, c.f1) if x.reason))}
                     for c in stats.classes]))}
        return view

    def _lines(self) -> dict:
        """The run-level "what changed": per reviewed run, the metrics whose mean moved."""
        runs = []
        for run in self.model.runs:
            s = self.model.review_summary(run)
            n = int(s["reviews"].iat[0]) if len(s) else 0
            if not n:
                continue
            moved = [f"{metric_label(m)} {format_value(r.judge_mean)} → {format_value(r.reviewed_mean)}"
                     for m, r in s.iterrows() if format_value(r.judge_mean) != format_value(r.reviewed_mean)]
            runs.append({"run": run, "reviews": n, "samples": int(s["reviewed_samples"].iat[0]),
                         "line": f"{', '.join(moved) or 'no mean changed'} after {n} review{'s' if n != 1 else ''}"})
        return {"runs": runs, "problems": [str(p) for p in self.model.review_problems[:20]], "trust": self.tables}


def _shown(frame: pd.DataFrame) -> dict:
    """:func:`frame_view` of ``frame`` with each fraction as format_value writes it (counts stay whole numbers)."""
    view = frame_view(frame)
    view["rows"] = [[_number(v) if isinstance(v, float) else v for v in row] for row in view["rows"]]
    return view


def _team_table(frame: pd.DataFrame, reviewers: list[str], *, alpha: bool) -> dict:
    """reviewer_agreement's table (``alpha``) or pairs as the panel shows them, ``reviewers`` named."""
    shown = {"kind": frame["kind"], "reviewers": reviewers, "labels": frame["n_labels"], "samples": frame["n_samples"],
             "agreement": frame["agreement"], "Cohen's kappa": frame["kappa"],
             "kappa 95%": list(map(_interval, frame["kappa_low"], frame["kappa_high"]))}
    if alpha:
        shown.update({"Krippendorff's alpha": frame["alpha"],
                      "alpha 95%": list(map(_interval, frame["alpha_low"], frame["alpha_high"]))})
    return _shown(pd.DataFrame({**shown, "reason": frame["reason"]}))


def _who(name: str) -> str:
    """A reviewer as the panel names them ("" is an unnamed reviewer)."""
    return name or "(unnamed)"


def _number(value) -> str | None:
    """A figure as format_value writes it; None (Undefined) for none."""
    return None if format_value(value) == "Undefined" else format_value(value)


def _interval(low, high) -> str | None:
    """An interval as the trust panel shows it, "0.372 to 0.428" (a dash would read as a minus
    beside a negative bound); None (Undefined) when either end is."""
    if format_value(low) == "Undefined" or format_value(high) == "Undefined":
        return None
    return f"{format_value(low)} to {format_value(high)}"
