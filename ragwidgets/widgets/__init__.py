"""Views: anywidget explorers over the metric engine, and the state-space chart.

Widgets only wire state to views: the view state is built by the pure functions in
:mod:`ragwidgets.widgets._view`; every number comes from :mod:`ragwidgets.engine`.
"""

from .explorer import Explorer, SampleExplorer
from .lessons import HARBOR_PRESETS, Preset

__all__ = ["Explorer", "SampleExplorer", "DatasetExplorer", "Preset", "HARBOR_PRESETS", "state_space_chart", "StateSpace"]


def __getattr__(name):
    if name == "DatasetExplorer":
        from .dataset import DatasetExplorer
        return DatasetExplorer
    if name in ("state_space_chart", "StateSpace"):
        from . import state_space
        return getattr(state_space, name)
    raise AttributeError(name)
