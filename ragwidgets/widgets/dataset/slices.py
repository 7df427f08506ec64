"""The slices panel (``js/src/dataset/slices.js``): named filters, each with its size; the
expression in force kept as a new slice (``add_slice``), the slices saved to or loaded from a
file the front end names in ``files_root``."""

from __future__ import annotations

from ...analysis.runs import require
from ...analysis.slices import Slice, load_slices, save_slices
from .common import NOTHING, ROWS, Context, Panel, front_end_file, text


class SlicesPanel(Panel):
    """The requests that add a slice, save the slices to a file or load them from one."""

    key = "slices"
    requests = {"add_slice": ROWS, "save_slices": NOTHING, "load_slices": ROWS}

    def on_add_slice(self, ctx: Context, message: dict) -> None:
        add(self.model, [Slice(text(message, "name").strip(), text(message, "expression"))])

    def on_save_slices(self, ctx: Context, message: dict) -> dict:
        path = front_end_file(ctx, message, write=True)
        save_slices(path, self.model.slices)
        return {"said": f"Saved {len(self.model.slices)} slices to {path.resolve()}"}

    def on_load_slices(self, ctx: Context, message: dict) -> dict:
        path = front_end_file(ctx, message, write=False)
        slices = load_slices(path)
        add(self.model, slices)
        return {"said": f"Loaded {len(slices)} slices from {path.resolve()}"}


def add(model, slices) -> None:
    """Add (or replace, by name) slices on ``model``; each must evaluate on its data."""
    require(model, "slices", ": use the filter expression")
    model.add_slices(slices)
