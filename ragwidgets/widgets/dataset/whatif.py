"""The what-if panel (``js/src/dataset/whatif.js``): a run's metrics if the retriever kept only
its top k passages, or had not returned the passages a pattern matches, over the rows the
controls keep; rescored in the kernel, no judge call."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...analysis.runs import require
from ...analysis.whatif import drop_passages, top_k_curve
from ...engine.metrics import metric_label
from .common import NOTHING, Context, Panel, frame_view

WHATIF_SECONDS = 5.0  # the panel's budget for matching a typed pattern (the kernel is held meanwhile)
WHY = " (they rescore every sample in the kernel)"


class WhatIfPanel(Panel):
    """Whether the panel is offered (``whatif``), and its request: the tables for the run shown."""

    key = "whatif"
    requests = {"whatif": NOTHING}

    def part(self, ctx: Context, view: dict) -> dict:
        return {"whatif": "whatif" in self.model.capabilities}

    def on_whatif(self, ctx: Context, message: dict) -> dict:
        return reply(self.model, ctx.controls["run"], message.get("doc_id"), message.get("text"))


def top_k(model, run: str) -> pd.DataFrame:
    """Every passage-reading metric of ``run`` if the retriever kept only its top k passages."""
    require(model, "whatif", WHY)
    return model.top_k(run)


def _rows(model, run: str) -> np.ndarray:
    """The positions in ``run``'s Scores of its rows the model keeps (a run's rows are one block of
    ``frame``, in its samples' order)."""
    if run not in model.runs:
        raise ValueError(f"run must be one of {', '.join(map(repr, model.runs))[:300]}, not {run!r:.80}")
    mine = model.frame["run"].to_numpy() == run
    order = model.order
    return order[mine[order]] - int(np.argmax(mine))


def what_if(model, run: str, doc_id: str | None = None, text: str | None = None,
            seconds: float | None = None) -> dict:
    """The panel's numbers for ``run`` over its rows the model keeps (see
    :meth:`~ragwidgets.widgets.dataset.DatasetExplorer.what_if`)."""
    require(model, "whatif", WHY)
    rows = _rows(model, run)
    scores = model.scores[run]
    out = {"run": run, "samples": len(rows), "top_k": top_k_curve(scores, rows=rows), "dropped": None,
           "n_dropped": 0, "samples_touched": 0}
    doc_id, text = doc_id or None, text or None
    if doc_id is not None or text is not None:
        dropped = drop_passages(scores, doc_id=doc_id, text=text, rows=rows, seconds=seconds)
        out.update(dropped=dropped.table, n_dropped=dropped.n_dropped, samples_touched=dropped.samples_touched)
    return out


def reply(model, run: str, doc_id, text) -> dict:
    """:func:`what_if` as the panel draws it, for ``run`` (else the first), within WHATIF_SECONDS:
    each table's columns and rows (None: no defined sample), the metrics' labels, and the view
    version it was computed for."""
    w = what_if(model, run or model.runs[0], doc_id, text, seconds=WHATIF_SECONDS)
    names = set(w["top_k"]["metric"]) | (set() if w["dropped"] is None else set(w["dropped"]["metric"]))
    return {"version": model.version, "run": w["run"], "samples": w["samples"],
            "labels": {m: metric_label(m) for m in sorted(names)},
            "top_k": frame_view(w["top_k"]), "dropped": None if w["dropped"] is None else frame_view(w["dropped"]),
            "n_dropped": w["n_dropped"], "samples_touched": w["samples_touched"]}
