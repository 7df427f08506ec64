"""A view sent as its changes from a base view (widgets/_patch.py, js/src/patch.js): what the
front end rebuilds from the wire is the whole view, exactly, after any sequence of actions; a
passage toggle sends a small fraction of the view; a new base and the view naming it travel in
one message."""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets.widgets._patch import patched, view_patch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from e2e_support import big_sample_record  # noqa: E402


def apply(base, ops):
    """The operations on a copy of ``base``, as js/src/patch.js applies them."""
    view = copy.deepcopy(base)
    for op in ops:
        path = op[0]
        if not path:
            view = op[1] if len(op) == 2 else view[:op[1]] + op[3] + view[op[2]:]
            continue
        parent = view
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if len(op) == 1:
            del parent[key]
        elif len(op) == 2:
            parent[key] = op[1]
        else:
            parent[key][op[1]:op[2]] = op[3]
    return view


def exact(x) -> str:
    return json.dumps(x, sort_keys=True)


def wire(widget, name: str = "_view") -> dict | None:
    """The view the front end reads from the state ipywidgets sends for ``name`` and its base."""
    state = widget.get_state([name, f"{name}_base"])
    value, base = state[name], state[f"{name}_base"]
    if not value["json"]:
        return None
    if not value["patch"]:
        return json.loads(value["json"])
    assert base["base"] == value["base"] and not base["patch"], "a patch names the base sent beside it"
    return apply(json.loads(base["json"]), json.loads(value["json"]))


def recording(widget):
    """``widget`` with each view dict it shows kept, whole as it was then (``widget.shown``)."""
    from ragwidgets.widgets.base import encode_view
    widget.shown = {}
    show = widget._show

    def kept(name, view):
        widget.shown[name] = None if view is None else json.loads(encode_view(view).json)
        show(name, view)
    widget._show = kept
    return widget


def same_as_sent(widget, names=("_view",)) -> None:
    """The wire rebuilds the view last shown, and the trait's own (lazy) JSON is that view."""
    for name in names:
        view = getattr(widget, name)
        assert exact(wire(widget, name)) == exact(view.state), name
        if name in widget.shown:
            assert exact(view.state) == exact(widget.shown[name]), name


# numbers other than 0 and 1: Python's True == 1 (a path keeps its JSON type, _patch.py's docstring)
leaves = (st.none() | st.booleans() | st.text(max_size=4)
          | st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x not in (0, 1)))
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.sampled_from(["a", "b", "c", "__proto__", "0"]), inner, max_size=4),
                      max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(values, values)
def test_a_patch_turns_the_base_into_the_new_value_exactly(base, new):
    ops = json.loads(json.dumps(view_patch(base, new)))
    before = exact(base)
    assert exact(apply(base, ops)) == exact(new) == exact(patched(base, ops))
    assert exact(base) == before  # patched leaves its base as it was
    assert (ops == []) == (exact(base) == exact(new))


@settings(max_examples=200, deadline=None)
@given(st.lists(values, min_size=1, max_size=12), st.data())
def test_an_array_that_grows_or_shrinks_keeps_its_head_and_tail(items, data):
    cut = data.draw(st.integers(0, len(items)))  # len(items): nothing removed
    removed = items[:cut] + items[cut + 1:]
    assert exact(apply({"x": items}, view_patch({"x": items}, {"x": removed}))) == exact({"x": removed})
    ops = view_patch({"x": items}, {"x": removed})
    if cut < len(items):  # one item out: one splice that inserts nothing
        assert len(ops) == 1 and len(ops[0]) == 4 and ops[0][3] == []


def test_the_smallest_operations():
    assert view_patch({"a": [1, 2, 3], "b": {"c": "x"}}, {"a": [1, 2, 3], "b": {"c": "x"}}) == []
    assert view_patch({"a": {"b": 2, "c": 3}}, {"a": {"b": 5, "c": 3, "d": 4}}) == [[["a", "b"], 5], [["a", "d"], 4]]
    assert view_patch({"a": 1, "b": 2}, {"a": 1}) == [[["b"]]]
    assert view_patch({"s": ["p", "q", "r", "t"]}, {"s": ["p", "r", "t"]}) == [[["s"], 1, 2, []]]
    assert view_patch({"s": [{"on": True}, {"on": False}]}, {"s": [{"on": True}, {"on": True}]}) == [[["s", 1, "on"], True]]
    assert view_patch([1], "whole") == [[[], "whole"]]
    # keys as JSON writes them: a base read back from JSON has "1" where the new view has 1
    assert view_patch({"counts": {"2": "a"}}, {"counts": {2: "b", True: "c"}}) == [
        [["counts", "2"], "b"], [["counts", "true"], "c"]]
    assert view_patch({"counts": {1: "a"}}, {"counts": {"1": "a"}}) == []


def test_a_patched_view_replaced_keeps_its_json():
    from ragwidgets.widgets.base import View
    v = View(patch='[[["a"],1]]', base=3, origin={"a": 0, "b": 2})
    assert v and v._replace(patch="").state == {"a": 1, "b": 2} == v.state


def test_a_passage_toggle_sends_its_few_changes_and_python_rebuilds_nothing_else():
    """60 passages x 80 claims: the whole view is ~233 KB; a toggle sends under 2 % of it, switching
    the passage back sends no change at all ([]: the base again), and the view stays exact."""
    record = big_sample_record()
    x = recording(rw.SampleExplorer(record))
    doc = record["retrieved_context"][10]["doc_id"]
    base = x._view_base
    sent = []
    x.observe(lambda change: sent.append(change["name"]), names=["_view", "_view_base"])
    x.toggle_passage(doc)
    assert sent == ["_view"] and x._view_base is base
    assert len(x._view.patch) * 50 < len(x._view.json) and x._view.base == base.base
    same_as_sent(x)
    x.toggle_passage(doc)
    assert x._view.patch == "[]" and x._view.json == base.json
    same_as_sent(x)


def test_any_sequence_of_actions_rebuilds_the_view_the_kernel_holds():
    """Random toggles, sample switches, predict-then-reveal and reviews on RAGChecker's example
    and a 60 x 80 sample: after each, the view rebuilt from the wire is the kernel's, exactly."""
    rng = random.Random(7)
    for x in (rw.SampleExplorer.ragchecker_example(), rw.SampleExplorer([big_sample_record(), {**big_sample_record(20, 30, 10), "query_id": "small"}])):
        recording(x)
        bases = set()
        for step in range(60):
            action = rng.choice(["toggle", "toggle", "sample", "predict", "guess", "review", "reset"])
            passages = [p["doc_id"] for p in x.view["sources"] if p["toggleable"]]
            if action == "toggle" and passages:
                x.toggle_passage(rng.choice(passages))
            elif action == "sample":
                x.sample_index = rng.randrange(len(x.samples))
            elif action == "predict":
                x.predict = not x.predict
            elif action == "guess" and x.predict:
                x.predictions = {**x.predictions, "precision": rng.choice(["0.5", "2/3", "Undefined", "oops"])}
            elif action == "review":
                claims = len(x.view["claims"])
                if claims:
                    x.review("answer2response", rng.randrange(claims), rng.choice(["Entailment", "Neutral", None]))
            elif action == "reset":
                x.retrieved = [p["doc_id"] for p in x.view["sources"] if p["toggleable"]]
            same_as_sent(x)
            bases.add(x._view_base.base)
        assert len(bases) > 1  # new samples were new bases


def sorted_by_it(x) -> None:
    """The table's order sorts the filtered rows by ``sort_by`` (undefined values last), and the
    saved first rows and the view's selected place follow that order."""
    values = x.frame[x.sort_by].to_numpy(dtype=float)[x.order]
    defined = values[~np.isnan(values)]
    assert list(defined) == sorted(defined, reverse=x.descending)
    assert np.isnan(values[len(defined):]).all()
    assert x._rows["positions"] == [int(i) for i in x.order[:len(x._rows["positions"])]]
    if x.selected in x.order:
        assert x._view.state["selected"]["index"] == list(x.order).index(x.selected)


def test_the_dataset_explorers_views_and_drill_downs_rebuild_exactly():
    x = recording(rw.DatasetExplorer(rw.datasets.synthetic_run(200, seed=3), selected=2))
    names = ("_view", "_drill", "_other")
    same_as_sent(x, names)
    rng = random.Random(3)
    sorts = 0
    for _ in range(30):
        action = rng.choice(["row", "text", "sort", "drill", "clear"])
        if action == "row":
            x.selected = rng.randrange(len(x.frame))
        elif action == "text":
            x.text = rng.choice(["", "a", "the", "zzz-no-match"])
        elif action == "sort":
            x.sort_by = rng.choice(["precision", "recall", "faithfulness"])
            x.descending = rng.random() < 0.5
            sorted_by_it(x)
            sorts += 1
        elif action == "drill" and x._drill:
            docs = [p["doc_id"] for p in x._drill.state["sources"] if p["toggleable"]]
            if docs:
                x._handlers()["drill"]({"which": "main", "patch": {"retrieved": rng.sample(docs, rng.randrange(len(docs) + 1))}}, [])
        elif action == "clear":
            x.selected = -1
        same_as_sent(x, names)


def test_a_new_base_and_the_view_that_names_it_travel_in_one_message():
    x = rw.SampleExplorer.ragchecker_example()
    messages = []
    x.send_state = lambda key=None: messages.append(sorted([key] if isinstance(key, str) else key))
    x.sample_index = 1  # another sample: a new base
    assert [m for m in messages if "_view" in m or "_view_base" in m] == [["_view", "_view_base"]]
    messages.clear()
    x.toggle_passage(x.retrieved[0])  # the trait set from Python, then the view alone
    assert messages == [["retrieved"], ["_view"]]
