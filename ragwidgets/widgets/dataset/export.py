"""The save · export panel (``js/src/dataset/export.js``): the slices saved to or loaded from a
file, the filtered rows written as CSV or Parquet, their claims as CSV, Parquet or JSONL, each to
a file the front end names in ``files_root``; the kernel says what it did."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ...analysis.runs import require
from ...analysis.slices import load_slices, save_slices
from ...engine.claims import csv_cells, write_claims
from .common import NOTHING, ROWS, Context, Panel, front_end_file
from .slices import add

STATUS_WORDS = {0: "defined", 1: "Undefined", 2: "not computable"}


class ExportPanel(Panel):
    """The requests that save or load the slices, write the filtered rows (``export``) or their
    claims (``export_claims``)."""

    key = "act"
    requests = {"save_slices": NOTHING, "load_slices": ROWS, "export": NOTHING, "export_claims": NOTHING}

    def on_save_slices(self, ctx: Context, message: dict) -> dict:
        path = front_end_file(ctx, message, write=True)
        save_slices(path, self.model.slices)
        return {"said": f"Saved {len(self.model.slices)} slices to {path.resolve()}"}

    def on_load_slices(self, ctx: Context, message: dict) -> dict:
        path = front_end_file(ctx, message, write=False)
        slices = load_slices(path)
        add(self.model, slices)
        return {"said": f"Loaded {len(slices)} slices from {path.resolve()}"}

    def on_export(self, ctx: Context, message: dict) -> dict:
        written = export_rows(self.model, front_end_file(ctx, message, write=True), message.get("format"))
        return {"said": f"Wrote {len(self.model.order):,} rows to {written.resolve()}"}

    def on_export_claims(self, ctx: Context, message: dict) -> dict:
        path = front_end_file(ctx, message, write=True)
        rows = claims(self.model)
        write_claims(rows, path)
        n = len(self.model.order)
        return {"said": f"Wrote the {len(rows):,} claims of {n:,} samples to {Path(path).resolve()}"}


def export_rows(model, path, format: str | None = None) -> Path:
    """Write the model's filtered rows to ``path`` (see
    :meth:`~ragwidgets.widgets.dataset.DatasetExplorer.export_rows`)."""
    from ...atomic import atomic_write
    path = Path(path)
    kind = format or {".csv": "csv", ".parquet": "parquet"}.get(path.suffix.lower())
    if kind not in ("csv", "parquet"):
        raise ValueError(f"export format must be csv or parquet (or a .csv / .parquet path), not "
                         f"{format or path.suffix or path.name!r:.80}")
    order = model.order
    out = model.frame.iloc[order].reset_index(drop=True)
    status = model.status.iloc[order].reset_index(drop=True)
    for m in model.metrics:
        code = status[m].to_numpy()
        out[m] = pd.array(np.where(code == 0, out[m].to_numpy(dtype=float), np.nan), dtype="Float64")
        out[f"{m}_status"] = pd.Categorical.from_codes(code.astype(int), list(STATUS_WORDS.values()))
    if kind == "csv":
        with atomic_write(path, encoding="utf-8") as f:
            csv_cells(out).to_csv(f, index=False, lineterminator="\r\n")  # RFC 4180: a cell's \r is quoted
    else:
        with atomic_write(path, "wb") as f:
            out.to_parquet(f, index=False)
    return path


def claims(model) -> pd.DataFrame:
    """One row per claim of the model's filtered samples, in the table's order."""
    require(model, "claims", " (the claims are held in the kernel)")
    return model.claims()
