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
    """The wire form ipywidgets sends (and saves with the notebook): {"json", "cells", "patch",
    "base"} with the cells taken out as a binary buffer at that path; a view sent as changes names
    the base view (in ``<name>_base``) they apply to, and a change of state sends the view alone."""
    import json

    import numpy as np
    from ipywidgets.widgets.widget import _remove_buffers

    explorer = rw.SampleExplorer(example_samples)
    dataset = rw.DatasetExplorer(rw.datasets.synthetic_run(20, seed=1), selected=3)
    for widget, names in ((explorer, ["_view"]), (dataset, ["_view", "_drill", "_other"])):
        assert not {"_cells", "_drill_cells", "_other_cells"} & set(widget.keys)
        traits = [t for n in names for t in (n, f"{n}_base")]
        state, paths, buffers = _remove_buffers(widget.get_state(traits))
        assert sorted(paths) == sorted([name, "cells"] for name in traits)
        for name in names:
            value, base = getattr(widget, name), getattr(widget, f"{name}_base")
            if not value:
                assert not base and state[name] == state[f"{name}_base"] == {"json": "", "patch": False, "base": 0}
                continue
            assert state[f"{name}_base"] == {"json": base.json, "patch": False, "base": base.base}
            assert state[name] == {"json": value.patch, "patch": True, "base": base.base}
            assert bytes(buffers[paths.index([name, "cells"])]) == value.cells
    m = explorer.view["matrix"]
    assert json.loads(explorer._view.json)["matrix"] == {k: v for k, v in m.items() if k != "cells"}
    s = example_samples[0]
    assert explorer._view.cells == np.concatenate([s.retrieved2response, s.retrieved2answer]).astype(np.int8).tobytes()
    assert dataset._drill.state["query_id"] == dataset.frame["query_id"].iat[3] and len(dataset._drill.cells)
    assert not dataset._other and dataset._view.cells == b""
    seen = []
    explorer.observe(lambda change: seen.append(change["name"]), names=["_view", "_view_base"])
    explorer.retrieved = ["000"]
    assert seen == ["_view"] and np.frombuffer(explorer._view.cells, np.int8).size == m["cells"].__len__()
    assert explorer._view.patch != "[]" and explorer._view.base == explorer._view_base.base


def _replies(widget) -> list:
    sent = []
    widget.send = lambda content, buffers=None: sent.append((content, buffers or []))
    return sent


def test_a_request_whose_handler_raises_anything_is_answered_with_its_error(example_samples, monkeypatch, caplog):
    """One dispatcher (base.Widget): every request gets one reply carrying its number back, and an
    exception of any class is that reply's error, logged with its traceback, never raised."""
    from ragwidgets.widgets.dataset.core import REQUESTS
    x = rw.DatasetExplorer(rw.datasets.synthetic_run(20, seed=1))
    assert tuple(x._handlers()) == REQUESTS
    sent = _replies(x)

    def broken(start, count):
        raise RuntimeError("disk gone")
    monkeypatch.setattr(x, "window", broken)
    with caplog.at_level("ERROR", logger="ragwidgets.widgets.base"):
        x._handle_custom_msg({"type": "rows", "start": 0, "count": 10, "request": 3}, [])
    assert sent == [({"type": "rows", "request": 3, "error": "RuntimeError: disk gone"}, [])]
    assert "Traceback" in caplog.text and "disk gone" in caplog.text
    x._handle_custom_msg({"type": "step", "delta": "x", "request": 4}, [])  # a refused input: its reason
    assert sent[-1][0]["request"] == 4 and sent[-1][0]["error"].startswith("ValueError: delta must be a whole number")
    monkeypatch.undo()
    x._handle_custom_msg({"type": "rows", "start": 0, "count": 2, "request": 5}, [])
    assert sent[-1][0]["request"] == 5 and "error" not in sent[-1][0] and len(sent[-1][1]) > 0

    e = rw.SampleExplorer(example_samples)
    sent = _replies(e)
    monkeypatch.setattr(e, "search", lambda text, limit=50: 1 / 0)
    e._handle_custom_msg({"type": "search", "text": "river", "request": 9}, [])
    assert sent == [({"type": "results", "request": 9, "error": "ZeroDivisionError: division by zero"}, [])]
    e._handle_custom_msg({"type": "nope", "request": 10}, [])
    assert sent[-1][0] == {"type": "reply", "request": 10, "error": sent[-1][0]["error"]}
    assert "unknown request 'nope'" in sent[-1][0]["error"]


def test_a_notice_that_raises_is_logged_not_answered_and_a_reply_that_cannot_be_sent_says_so(
        example_samples, monkeypatch, caplog):
    import json
    e = rw.SampleExplorer(example_samples)
    sent = _replies(e)
    monkeypatch.setattr(e, "next_in_queue", lambda step=1: {}["missing"])
    with caplog.at_level("ERROR", logger="ragwidgets.widgets.base"):
        e._handle_custom_msg({"type": "queue", "step": 1}, [])  # fire-and-forget: no reply
    assert sent == [] and "KeyError" in caplog.text and "'queue' message failed" in caplog.text
    monkeypatch.setattr(e, "search", lambda text, limit=50: {"matches": {1, 2}})  # not JSON

    def send(content, buffers=None):
        json.dumps(content)
        sent.append(content)
    e.send = send
    e._handle_custom_msg({"type": "search", "text": "x", "request": 2}, [])
    assert sent == [{"type": "results", "request": 2,
                     "error": "TypeError: Object of type set is not JSON serializable"}]
