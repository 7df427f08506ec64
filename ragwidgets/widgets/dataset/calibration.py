"""The checker calibration tab (``js/src/dataset/calibration.js``), beside the trust panel: a
local checker's support probabilities fitted to the run's reviews
(:func:`~ragwidgets.analysis.calibration.calibrate_checker`). Shown once a checker is given
(:meth:`DatasetExplorer.calibrate <ragwidgets.widgets.dataset.DatasetExplorer.calibrate>`): the
agreement with the reviewer before (the checker's own labels) and after (cross-validated), their
difference, the fitted threshold and the reliability diagram before and after. The analyst picks
the method (``calibrate`` request); a review marks the fit ``stale`` (Fit again)."""

from __future__ import annotations

from ...analysis.calibration import METHODS, Calibration, calibrate_checker
from ...analysis.runs import require
from ...engine.metrics import format_value
from .common import VIEW, Context, Panel, frame_view


class CalibrationPanel(Panel):
    """The calibration's part of the view (``calibration``; None until a checker is given)."""

    key = "calibration"
    requests = {"calibrate": VIEW}

    def __init__(self, model):
        super().__init__(model)
        self.checker = None
        self.run = ""
        self.result: Calibration | None = None
        self.stale = False

    def fit(self, checker, method: str = "isotonic", run: str = "") -> Calibration:
        """Fit ``checker`` (its ``support`` and ``check``) to ``run``'s reviews ("" : the first
        reviewed run) by ``method``; kept for the view."""
        require(self.model, "reviews")
        if not all(hasattr(checker, m) for m in ("support", "check")):
            raise TypeError(f"a checker with support() and check() (a LocalChecker) is needed, not "
                            f"{type(checker).__name__}")
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r:.80}")
        per_run = self.model.reviews if isinstance(self.model.reviews, dict) else {self.model.runs[0]: self.model.reviews}
        if run and run not in per_run:
            raise ValueError(f"run must be one of {', '.join(map(repr, per_run))}, not {run!r:.80}")
        run = run or next((r for r, reviews in per_run.items() if len(reviews)), self.model.runs[0])
        scores = self.model.scores[run]
        fit = calibrate_checker(checker, scores.judge_scores or scores, per_run[run], method=method)
        self.checker, self.run, self.stale, self.result = checker, run, False, fit  # only once it is fitted
        return fit

    def on_calibrate(self, ctx: Context, message: dict) -> None:
        if self.checker is None:
            raise ValueError("no checker to calibrate: call explorer.calibrate(checker) in the kernel first")
        self.fit(self.checker, message.get("method", "isotonic"), self.run)

    def reviewed(self, ctx: Context) -> None:
        self.stale = self.result is not None

    def part(self, ctx: Context, view: dict) -> dict:
        fit = self.result
        if fit is None:
            return {"calibration": None}
        shares = {name: _share(getattr(fit, name)) for name in ("before", "after", "change")}
        diagrams = {"before": _diagram(fit.reliability_before)}
        if fit.reliability_after is not None:
            diagrams["after"] = _diagram(fit.reliability_after)
        return {"calibration": {
            "method": fit.method, "methods": list(METHODS), "run": self.run if len(self.model.runs) > 1 else "",
            "checker": repr(self.checker), "n": fit.n, "entailed": fit.n_entailed, "folds": fit.folds,
            "threshold": None if fit.threshold is None else format_value(fit.threshold), "reason": fit.reason,
            "checks_left_out": int(fit.checks["support"].isna().sum()) if fit.checks is not None else 0,
            **shares, "diagrams": diagrams, "advice": _advice(fit), "stale": self.stale}}


def _share(share) -> dict:
    return {k: None if v is None else format_value(v) for k, v in
            (("value", share.value), ("low", share.low), ("high", share.high))}


def _diagram(table) -> dict:
    """A reliability table as the view carries it, with its ECE and Brier score."""
    view = frame_view(table[["bin_low", "bin_high", "n", "predicted", "observed", "observed_low", "observed_high"]])
    return {**view, "ece": format_value(table.attrs["ece"]), "brier": format_value(table.attrs["brier"])}


def _advice(fit: Calibration) -> str:
    """What the figures say to do, in one sentence."""
    if fit.reason:
        return f"Undefined: {fit.reason}. Review more checks (both labels) and fit again."
    if fit.change.low is not None and fit.change.low > 0:
        return (f"The fitted threshold agrees with the reviewer more often than the checker's own rule: label the "
                f"run again with checker.calibrated(explorer.calibration) (threshold {format_value(fit.threshold)}).")
    if fit.change.high is not None and fit.change.high < 0:
        return "The checker's own rule agrees with the reviewer more often: keep it."
    return ("The change's interval holds 0: the reviews do not show the fitted threshold to be better; keep the "
            "checker's own rule or review more.")
