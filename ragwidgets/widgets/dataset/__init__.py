"""DatasetExplorer: error analysis over a whole run (or several runs of the same queries).

A core widget (``core.py``: the traits, the one update path, the table's rows, the step through
them, the requests' dispatcher) over a run model (:mod:`ragwidgets.analysis.runs`), and one
module per panel, each the twin of ``js/src/dataset/<name>.js``: ``summary``, ``charts``,
``trust`` (the reviews), ``whatif``, ``export``, ``slices``, ``drill`` (the drill-down and its
reviews), ``queue`` (the review queue and its progress line), ``adjudicate`` (the labels the
reviewers disagree on, and the decisions). A panel holds the run model, gets the widget's plain values (``common.Context``) and
returns its part of the view and its requests' replies as dicts; it never reaches the widget.
Adding a panel: one module here, its class in ``core.PANELS``, one JS module in ``PANELS`` of
``js/src/dataset.js``.
"""

from .core import ControlError, DatasetExplorer

__all__ = ["DatasetExplorer", "ControlError"]
