"""The mode checks panel (``js/src/dataset/checks.js``), beside the failure modes (``modes.py``):
from a mode to a check. The analyst picks a mode and a rule (a filter expression over the run's
table, the modes' columns ``mode: <tag>`` included, or a built-in signal of
:data:`~ragwidgets.analysis.failure_modes.SIGNALS`); the check (``mode_check``) gives its precision
and recall against the tagged samples with their intervals and how much of the run it flags
(:func:`~ragwidgets.analysis.failure_modes.check_mode`), and examples the front end opens in the
drill-down (``mode_row``: a sample's row). An expression's check may be kept as a named slice
(``mode_slice``); a signal's cannot (it has no expression form). The expression is bounded
(MAX_EXPRESSION characters)."""

from __future__ import annotations

import math

import numpy as np

from ...analysis.failure_modes import SIGNALS, check_mode
from ...analysis.runs import require
from ...analysis.slices import Slice
from .common import NOTHING, ROWS, VIEW, Context, Panel, text
from .modes import mode_of, runs_in_scope, scope, shows
from .slices import add

MAX_EXPRESSION = 2_000  # characters of a check's filter expression
EXAMPLES = ("caught", "false_alarm", "missed")


class ChecksPanel(Panel):
    """The checks' part of the view (``checks``; None without notes) and the last check (``check``;
    ``stale`` once the run's notes changed since: a note, a rename, a merge, a split)."""

    key = "checks"
    requests = {"mode_check": VIEW, "mode_slice": ROWS, "mode_row": NOTHING}

    def __init__(self, model):
        super().__init__(model)
        self.check: dict | None = None
        self._checked = None  # the run's notes the last check was found from

    def part(self, ctx: Context, view: dict) -> dict:
        if not shows(self.model):
            return {"checks": None}
        runs = runs_in_scope(self.model, ctx)
        tags = self.model.notes[runs[0]].tags
        return {"checks": {
            "run": runs[0] if len(self.model.runs) > 1 else "",
            "modes": sorted(tags, key=lambda t: (-tags[t], t)),
            "signals": [{"name": s.name, "label": s.label, "description": s.description} for s in SIGNALS.values()],
            "check": self.check,
            "stale": self.check is not None and self.model.notes[self.check["run"]] is not self._checked}}

    def on_mode_check(self, ctx: Context, message: dict) -> dict:
        """Check ``mode`` (in ``run``, else the run shown, else the first) against a filter
        ``expression`` or a built-in ``signal``: ``{"words"}``; the check is kept for the view."""
        require(self.model, "notes")
        run = scope(self.model, ctx, message)[0]
        mode = mode_of(self.model, message, [run])
        expression, signal = message.get("expression") or "", message.get("signal") or ""
        if not isinstance(expression, str) or len(expression) > MAX_EXPRESSION:
            raise ValueError(f"expression must be a filter expression of at most {MAX_EXPRESSION:,} characters, "
                             f"not {expression!r:.80}")
        if not isinstance(signal, str) or bool(expression.strip()) == bool(signal):
            raise ValueError("give a filter expression or a signal, one of the two")
        if signal and signal not in SIGNALS:
            raise ValueError(f"signal must be one of {', '.join(SIGNALS)}, not {signal!r:.80}")
        self._checked = self.model.notes[run]
        found = check_mode(self.model.scores[run], self._checked, mode,
                           expression=expression.strip() or None, signal=signal or None)
        d = found.to_dict()
        self.check = {"mode": mode, "run": run, "expression": expression.strip(), "signal": signal,
                      "label": SIGNALS[signal].label if signal else "", "words": found.words(),
                      **{k: _figure(d[k]) for k in ("precision", "precision_lo", "precision_hi", "recall",
                                                    "recall_lo", "recall_hi")},
                      **{k: int(d[k]) for k in ("tp", "fp", "fn", "tn", "flagged", "run_size")},
                      "examples": {k: list(found.examples.get(k, ())) for k in EXAMPLES}}
        return {"words": self.check["words"]}

    def on_mode_slice(self, ctx: Context, message: dict) -> None:
        """Keep the last check's expression as a slice named ``name``; a signal's check cannot be one."""
        if self.check is None:
            raise ValueError("no check yet: check a mode against a rule first")
        if not self.check["expression"]:
            raise ValueError(f"the signal {self.check['label']!r} has no filter expression, so it cannot be a "
                             "slice: write the rule as a filter expression and check that")
        add(self.model, [Slice(text(message, "name").strip(), self.check["expression"],
                               f"failure mode {self.check['mode']!r}: {self.check['words']}")])

    def on_mode_row(self, ctx: Context, message: dict) -> dict:
        """The explorer's row of sample ``query_id`` in ``run`` (""; the run in scope): ``{"row"}``."""
        qid = text(message, "query_id")
        run = scope(self.model, ctx, message)[0]
        frame = self.model.frame
        rows = np.flatnonzero((frame["run"].to_numpy() == run) & (frame["query_id"].to_numpy() == qid))
        if not len(rows):
            raise ValueError(f"query_id {qid!r:.80} is no sample of run {run!r:.80}")
        return {"row": int(rows[0])}


def _figure(value) -> float | None:
    """A fraction for the view, as is (the front end rounds: pct); None for NaN or none."""
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)
