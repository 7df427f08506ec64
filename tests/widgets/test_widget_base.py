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


def test_each_view_is_one_trait_whose_json_and_cells_travel_in_one_message(example_samples):
    """The wire form ipywidgets sends (and saves with the notebook): {"json", "cells"} with the
    cells taken out as a binary buffer at that path; no second trait to keep in step."""
    import json

    import numpy as np
    from ipywidgets.widgets.widget import _remove_buffers

    explorer = rw.SampleExplorer(example_samples)
    dataset = rw.DatasetExplorer(rw.datasets.synthetic_run(20, seed=1), selected=3)
    for widget, names in ((explorer, ["_view"]), (dataset, ["_view", "_drill", "_other"])):
        assert not {"_cells", "_drill_cells", "_other_cells"} & set(widget.keys)
        state, paths, buffers = _remove_buffers(widget.get_state(names))
        assert sorted(paths) == sorted([name, "cells"] for name in names)
        for name in names:
            value = getattr(widget, name)
            assert state[name] == {"json": value.json}
            assert bytes(buffers[paths.index([name, "cells"])]) == value.cells
    m = explorer.view["matrix"]
    assert json.loads(explorer._view.json)["matrix"] == {k: v for k, v in m.items() if k != "cells"}
    s = example_samples[0]
    assert explorer._view.cells == np.concatenate([s.retrieved2response, s.retrieved2answer]).astype(np.int8).tobytes()
    assert dataset._drill.state["query_id"] == dataset.frame["query_id"].iat[3] and len(dataset._drill.cells)
    assert not dataset._other and dataset._view.cells == b""
    seen = []
    explorer.observe(lambda change: seen.append(change["name"]), names=["_view"])
    explorer.retrieved = ["000"]
    assert seen == ["_view"] and np.frombuffer(explorer._view.cells, np.int8).size == m["cells"].__len__()
