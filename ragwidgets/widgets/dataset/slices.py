"""The slices panel (``js/src/dataset/slices.js``): named filters, each with its size (the run
model's view), and the expression in force kept as a new slice (``add_slice``)."""

from __future__ import annotations

from ...analysis.runs import require
from ...analysis.slices import Slice
from .common import ROWS, Context, Panel, text


class SlicesPanel(Panel):
    """The request that adds a slice."""

    key = "slices"
    requests = {"add_slice": ROWS}

    def on_add_slice(self, ctx: Context, message: dict) -> None:
        add(self.model, [Slice(text(message, "name").strip(), text(message, "expression"))])


def add(model, slices) -> None:
    """Add (or replace, by name) slices on ``model``; each must evaluate on its data."""
    require(model, "slices", ": use the filter expression")
    model.add_slices(slices)
