from importlib import resources

import pytest

import ragwidgets as rw
from ragwidgets.widgets import Explorer, SampleExplorer


@pytest.fixture
def harbor():
    return Explorer.harbor()


@pytest.fixture
def example_samples():
    path = resources.files("ragwidgets.data").joinpath("ragchecker_example.json")
    return rw.load_samples(str(path)).samples


@pytest.fixture
def sample_explorer(example_samples):
    return SampleExplorer(example_samples)


@pytest.fixture
def front_end():
    """Apply a state update the way a message from the browser does (ipywidgets set_state)."""
    def sets(widget, **state):
        widget.set_state(state)
        return widget.view
    return sets
