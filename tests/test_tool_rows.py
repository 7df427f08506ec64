"""Other tools' field names live in one place (ragwidgets/sources.py): the same ragas rows load the
same whether they come as a DataFrame, a list of dicts, JSON lines or Parquet."""

import json
import warnings

import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.errors import InputWarning
from ragwidgets.loaders import load_samples
from ragwidgets.sources import FIELD_SPELLINGS, SHAPES, tool_shape

CLAIMS = [[["a", "b", "c"]], [["a", "b", "c"], ["d", "e", "f"]], [["a", "b", "c"]], []]
LABELS = [[["Entailment"]], [["Entailment"], ["Neutral"]], [["Neutral"]], []]
SPELLINGS = {"ragas": ("user_input", "response", "retrieved_contexts", "reference"),  # query, response, passages, gt
             "ragas_v1": ("question", "answer", "contexts", "ground_truth")}


def rows(shape: str) -> list[dict]:
    """Four rows in ``shape``'s spelling (ragas >= 0.2 or < 0.2) with claims, passage labels and the
    tool's own faithfulness (NaN: it has none for that row)."""
    query, response, contexts, reference = SPELLINGS[shape]
    return [{query: f"question {k}", response: f"answer {k}", contexts: [f"passage {k}", "another passage"],
             reference: f"reference {k}", "response_claims": CLAIMS[k],
             "retrieved2response": [[row[0], "Neutral"] for row in LABELS[k]], "faithfulness": theirs}
            for k, theirs in enumerate([0.0, 0.5, float("nan"), 0.9])]


def as_frame(records, tmp_path):
    return pd.DataFrame(records)


def as_list(records, tmp_path):
    return records


def as_jsonl(records, tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records), "utf-8")  # NaN written as JSON's NaN
    return str(path)


def as_parquet(records, tmp_path):
    path = tmp_path / "rows.parquet"
    pd.DataFrame(records).to_parquet(path)
    return str(path)


def scored(source):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        return rw.evaluate(source)


@pytest.mark.parametrize("shape", ["ragas", "ragas_v1"])
def test_the_same_rows_score_the_same_as_a_frame_a_list_jsonl_and_parquet(shape, tmp_path):
    records = rows(shape)
    want = scored(as_frame(records, tmp_path))
    assert want.external_tool == "ragas" and want.frame["faithfulness"].tolist()[:3] == [1.0, 0.5, 0.0]
    for given in (as_list, as_jsonl, as_parquet):
        got = scored(given(records, tmp_path))
        pd.testing.assert_frame_equal(got.frame, want.frame, obj=given.__name__)
        pd.testing.assert_frame_equal(got.external, want.external, obj=given.__name__)
        assert got.external_tool == want.external_tool
        assert [s.query for s in got.samples] == [s.query for s in want.samples]
        assert [[p.text for p in s.passages] for s in got.samples] == [[p.text for p in s.passages]
                                                                        for s in want.samples]


def test_the_list_is_read_as_its_table_with_the_same_note():
    records = rows("ragas")
    with pytest.warns(InputWarning, match="the records read as ragas >= 0.2 columns: user_input -> query"):
        load_samples(records)


def test_a_json_file_of_ragas_v1_records_is_read_not_refused(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps([{"question": "q", "answer": "a", "contexts": ["c"]}]), "utf-8")
    with pytest.warns(InputWarning, match="read as ragas < 0.2 columns: question -> query, answer -> response"):
        sample, = load_samples(path).samples
    assert (sample.query, sample.response, [p.text for p in sample.passages]) == ("q", "a", ["c"])


def test_ragcheckers_own_records_are_not_another_tools():
    assert tool_shape([{"query_id": "a", "query": "q", "response_claims": [], "answer": "x"}]) is None
    assert tool_shape([{"user_input": "q"}, "not a record"]) is None
    assert tool_shape([]) is None and tool_shape([{"response_claims": []}]) is None
    assert tool_shape(rows("ragas")) == "ragas" and tool_shape(rows("ragas_v1")) == "ragas_v1"


def test_the_hints_for_an_unknown_field_come_from_the_shapes():
    for shape in ("ragas", "ragas_v1"):
        for column, field in SHAPES[shape][1].items():
            assert FIELD_SPELLINGS.get(column, column) == field
    with pytest.warns(InputWarning, match="unknown field 'contexts'.*RAGChecker's field is 'retrieved_context'"):
        load_samples([{"query_id": "a", "query": "q", "response_claims": [], "contexts": ["p"]}])
