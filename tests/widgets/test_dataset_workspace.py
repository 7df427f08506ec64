"""DatasetExplorer's workspace in Python: the charts' removable conditions beside the expression, a
refused expression kept in the view (not a silent revert), the table's chosen columns, the first
rows in the saved state, and acting on a finding (slices saved / loaded, rows written) from the
front end's messages."""

import json

import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.datasets import synthetic_run
from ragwidgets.widgets.dataset import ControlError
from ragwidgets.widgets.dataset.rows import SEED_ROWS


@pytest.fixture(scope="module")
def records():
    return synthetic_run(300, seed=11)


@pytest.fixture
def explorer(records):
    x = rw.DatasetExplorer(records, chart_metric="precision")
    x.replies = []
    x.send = lambda content, buffers=None: x.replies.append((content, buffers or []))
    return x


def ask(x, **message):
    x.replies.clear()
    x._handle_custom_msg({**message, "request": 1}, [])
    (reply, _), = x.replies
    return reply


def test_conditions_and_the_expression_filter_together(explorer):
    frame = explorer.frame
    explorer.expression = "recall < 0.5"
    explorer.conditions = ["n_passages == 2"]
    expect = np.flatnonzero(((frame.recall < 0.5) & (frame.n_passages == 2)).to_numpy())
    assert sorted(explorer.order) == list(expect) and len(expect) > 0
    assert explorer.view_state["controls"]["expression"] == "recall < 0.5"  # the user's, untouched
    assert explorer.view_state["controls"]["conditions"] == ["n_passages == 2"]
    explorer.conditions = []
    assert len(explorer.order) == int((frame.recall < 0.5).sum())
    with pytest.raises(ControlError, match="not a valid expression"):
        explorer.conditions = ["recall <"]
    explorer.set_state({"conditions": ["n_passages == 2", "n_passages == 2"]})
    assert explorer.conditions == ["n_passages == 2"]


def test_a_refused_expression_keeps_the_rows_and_says_so_until_one_applies(explorer):
    explorer.expression = "precision < 0.5"
    before = list(explorer.order)
    explorer.set_state({"expression": "precision <"})
    assert explorer.expression == "precision < 0.5" and list(explorer.order) == before
    refused = explorer.view_state["refused"]
    assert refused["expression"] == "precision <" and "not a valid expression" in refused["error"]
    explorer.sort_by = "recall"  # another change: still said
    assert explorer.view_state["refused"]["expression"] == "precision <"
    explorer.set_state({"expression": "precision < 0.2"})
    assert explorer.view_state["refused"] == {}
    assert len(explorer.order) == int((explorer.frame.precision < 0.2).sum())


def test_the_table_columns_are_chosen_and_ordered_and_checked(explorer):
    every = [c["key"] for c in explorer.view_state["all_columns"]]
    assert every[:2] == ["query_id", "query"]
    labels = {c["key"]: c["label"] for c in explorer.view_state["all_columns"]}
    assert labels["noise_sensitivity_in_relevant"] != labels["noise_sensitivity_in_irrelevant"]
    lower = {c["key"]: c.get("lower_is_better") for c in explorer.view_state["all_columns"] if c["kind"] == "metric"}
    assert lower["hallucination"] is True and lower["precision"] is False
    version = explorer.model.version
    explorer.set_state({"table_columns": ["query_id", "faithfulness", "query"]})
    assert [c["key"] for c in explorer.view_state["columns"]] == ["query_id", "faithfulness", "query"]
    assert explorer.model.version == version  # the rows stay: a choice of columns is not a new order
    assert [c["key"] for c in explorer.view_state["all_columns"]] == every
    with pytest.raises(ControlError, match="unknown columns 'nope'"):
        explorer.table_columns = ["query_id", "nope"]
    explorer.table_columns = []
    assert [c["key"] for c in explorer.view_state["columns"]] == every


def test_the_first_rows_of_the_order_are_in_the_saved_state(explorer):
    def seeded():
        s = explorer._rows
        values = {n: s["values"][i] for i, n in enumerate(s["numeric"])}
        codes = {n: s["codes"][i] for i, n in enumerate(s["status"])}
        return s, values, codes

    explorer.sort_by, explorer.descending = "precision", False
    s, values, codes = seeded()
    assert s["version"] == explorer.model.version and len(s["positions"]) == SEED_ROWS
    assert s["positions"] == list(explorer.order[:SEED_ROWS])
    frame, status = explorer.frame, explorer.status
    for i, pos in enumerate(s["positions"][:10]):
        assert s["query_id"][i] == frame.query_id.iat[pos]
        assert codes["precision"][i] == status.precision.iat[pos]
        assert values["precision"][i] == (None if status.precision.iat[pos] else frame.precision.iat[pos])
    json.dumps(s, allow_nan=False)  # Undefined is null, never NaN
    explorer.expression = "precision > 2"
    assert explorer._rows["positions"] == [] and explorer._rows["version"] == explorer.model.version


def test_rows_written_from_the_front_end_with_undefined_left_empty(explorer, tmp_path):
    explorer.expression = "recall < 0.6"
    explorer.sort_by = "recall"
    explorer.files_root = tmp_path  # the front end's paths are relative to it
    reply = ask(explorer, type="export", path="worst.csv", format="csv")
    assert "error" not in reply and reply["said"].startswith(f"Wrote {len(explorer.order):,} rows to ")
    out = pd.read_csv(tmp_path / "worst.csv")
    assert list(out.query_id.astype(str)) == list(explorer.filtered.query_id)
    status = explorer.status.iloc[explorer.order].reset_index(drop=True)
    undefined = status.context_utilization != 0
    assert out.context_utilization[undefined].isna().all() and out.context_utilization[~undefined].notna().all()
    assert set(out.context_utilization_status[undefined]) <= {"Undefined", "not computable"}
    explorer.export_rows(tmp_path / "worst.parquet")
    back = pd.read_parquet(tmp_path / "worst.parquet")
    assert back.precision.isna().sum() == int((status.precision != 0).sum())
    assert list(back.columns) == list(out.columns)
    reply = ask(explorer, type="export", path="worst.xlsx")
    assert "csv or parquet" in reply["error"] and not (tmp_path / "worst.xlsx").exists()


def test_claims_of_the_filtered_samples_written_from_the_front_end(explorer, tmp_path):
    explorer.expression = "recall < 0.6"
    explorer.files_root = tmp_path
    reply = ask(explorer, type="export_claims", path="claims.jsonl")
    claims = explorer.claims()
    assert "error" not in reply and reply["said"].startswith(f"Wrote the {len(claims):,} claims of {len(explorer.order):,} samples")
    back = pd.read_json(tmp_path / "claims.jsonl", lines=True, dtype={"query_id": str})
    assert back["query_id"].tolist() == claims["query_id"].astype(str).tolist()
    assert set(back["query_id"]) == set(explorer.filtered.query_id)
    reply = ask(explorer, type="export_claims", path="claims.xlsx")
    assert ".parquet" in reply["error"] and not (tmp_path / "claims.xlsx").exists()


def test_slices_saved_and_loaded_from_the_front_end(explorer, records, tmp_path):
    explorer.add_slices([rw.analysis.Slice("long answers", "n_response_claims >= 8")])
    explorer.files_root = tmp_path
    reply = ask(explorer, type="save_slices", path="s.json")
    assert reply["said"] == f"Saved {len(explorer.slices)} slices to {tmp_path / 's.json'}"
    other = rw.DatasetExplorer(records, files_root=tmp_path)
    other.replies = []
    other.send = lambda content, buffers=None: other.replies.append((content, buffers or []))
    assert "long answers" not in {s.name for s in other.slices}
    reply = ask(other, type="load_slices", path="s.json")
    assert reply["said"].startswith(f"Loaded {len(explorer.slices)} slices from ")
    assert {s["name"] for s in other.view_state["slices"]} >= {"long answers"}
    reply = ask(other, type="load_slices", path="missing.json")
    assert "cannot read slices" in reply["error"]
