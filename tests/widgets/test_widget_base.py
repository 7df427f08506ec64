"""Every widget refuses a keyword it does not know, naming it and the close match."""

import pytest

import ragwidgets as rw
from ragwidgets.widgets import StateSpace


def test_a_misspelt_control_is_an_error_not_a_hidden_warning(example_samples):
    with pytest.raises(TypeError, match=r"SampleExplorer\(\) got an unexpected keyword argument 'undefind'; "
                                        r"did you mean 'undefined'\?"):
        rw.SampleExplorer(example_samples, undefind="zero")
    explorer = rw.Explorer(rw.Scenario.harbor(), retrieval="No retrieval")
    with pytest.raises(TypeError, match="'retreival'; did you mean 'retrieval'"):
        rw.Explorer(rw.Scenario.harbor(), retreival="No retrieval")
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'$"):
        rw.Explorer(rw.Scenario.harbor(), bogus=1)
    assert StateSpace(explorer).metric == "context_relevance"


def test_the_dataset_explorer_refuses_a_misspelt_control():
    with pytest.raises(TypeError, match="'chart_metirc'; did you mean 'chart_metric'"):
        rw.DatasetExplorer(rw.datasets.synthetic_run(20, seed=1), chart_metirc="precision")
    with pytest.raises(TypeError, match="'bogus'"):
        rw.DatasetExplorer(rw.datasets.synthetic_run(20, seed=1), bogus=1)


def test_one_view_encoder_refuses_nan_for_every_widget():
    import numpy as np

    from ragwidgets.widgets.base import view_json
    assert view_json({"n": np.int64(3), "ok": np.bool_(True), "q": "Ünïcode"}) == '{"n":3,"ok":true,"q":"Ünïcode"}'
    with pytest.raises(ValueError):
        view_json({"mean": float("nan")})
