"""Tables a careless or hostile user hands over (issue 33): Phoenix chunks of one document, spans
with no trace, unreadable times, a column named by a number, passages in other spellings, ragas
frames in the explorer and column names that collide with the run table's own."""

import json
import warnings
from datetime import datetime

import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.errors import InputError, InputWarning
from ragwidgets.sources import read_run

T0 = pd.Timestamp("2026-01-01T00:00:00Z")


def spans(docs_a, docs_b=None, **columns) -> pd.DataFrame:
    """One trace: a root CHAIN span answering, one or two RETRIEVER spans with ``docs_a`` / ``docs_b``."""
    retrievers = [docs_a] + ([docs_b] if docs_b is not None else [])
    n = 1 + len(retrievers)
    frame = pd.DataFrame({
        "context.trace_id": ["t1"] * n, "context.span_id": [f"s{k}" for k in range(n)],
        "parent_id": [None] + ["s0"] * (n - 1), "span_kind": ["CHAIN"] + ["RETRIEVER"] * (n - 1),
        "start_time": [T0] * n, "end_time": [T0 + pd.Timedelta(milliseconds=5)] * n,
        "attributes.input.value": ["Who built it?"] * n,
        "attributes.output.value": ["Ann built it."] + [None] * (n - 1),
        "attributes.retrieval.documents": [None] + retrievers,
    })
    for name, values in columns.items():
        frame[name] = values
    return frame


def doc(doc_id, text):
    return {"document.id": doc_id, "document.content": text}


def read_said(source, **options):
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        run = read_run(source, **options)
    return run, [str(w.message) for w in said if issubclass(w.category, InputWarning)]


# item 4: Phoenix chunks sharing a document.id


def test_phoenix_chunks_of_one_document_are_two_passages_said_once():
    run, said = read_said(spans([doc("d1", "Ann built"), doc("d1", "the tower."), doc("d2", "In 1900.")]))
    assert run.records[0]["retrieved_context"] == [
        {"doc_id": "d1", "text": "Ann built"}, {"doc_id": "d1#2", "text": "the tower."},
        {"doc_id": "d2", "text": "In 1900."}]
    notes = [m for m in said if "d1#2" in m]
    assert len(notes) == 1 and "1 document chunk" in notes[0]


def test_a_made_id_never_takes_a_real_documents_id():
    run, _ = read_said(spans([doc("d1", "a"), doc("d1", "b"), doc("d1#2", "c"), doc(None, "d"), doc("P4", "e")]))
    ids = [p["doc_id"] for p in run.records[0]["retrieved_context"]]
    assert len(set(ids)) == 5 and ids[:3] == ["d1", "d1#3", "d1#2"] and ids[4] == "P4"


def test_one_chunk_retrieved_twice_in_a_trace_is_one_passage_counted_in_a_warning():
    run, said = read_said(spans([doc("d1", "Ann built it.")], [doc("d1", "Ann built it."), doc("d2", "x")]))
    assert [p["doc_id"] for p in run.records[0]["retrieved_context"]] == ["d1", "d2"]
    assert any("1 document" in m and "read once" in m for m in said)


def test_spans_with_no_trace_id_are_counted_not_dropped_silently():
    frame = spans([doc("d1", "a")])
    frame = pd.concat([frame, frame.assign(**{"context.trace_id": [None, np.nan]})], ignore_index=True)
    run, said = read_said(frame)
    assert [r["query_id"] for r in run.records] == ["t1"]
    assert any("2 span(s) have no context.trace_id" in m for m in said)


# item 16: an unreadable start_time, a column named by a number


@pytest.mark.parametrize("bad", ["yesterday", 12.5, "2026-13-45"])
def test_an_unreadable_phoenix_time_names_its_span_and_column(bad):
    frame = spans([doc("d1", "a")])
    frame["start_time"] = frame["start_time"].astype(object)
    frame.loc[1, "start_time"] = bad
    with pytest.raises(InputError) as err:
        read_said(frame)
    assert err.value.field == "start_time" and "span row 1" in err.value.sample
    assert "\n" not in str(err.value)


def test_times_as_text_are_read_as_times():
    frame = spans([doc("d1", "a")])
    frame["start_time"] = frame["start_time"].map(lambda t: t.isoformat())
    frame["end_time"] = frame["end_time"].map(lambda t: t.isoformat())
    run, _ = read_said(frame)
    assert run.external["latency_ms"].tolist() == [5.0]


@pytest.mark.parametrize("far", [
    "9999-12-31T00:00:00Z", "0001-01-01T00:00:00", datetime(1, 1, 1), np.datetime64("9999-12-31", "s"),
    "in a column of seconds"])
def test_a_phoenix_time_outside_the_times_read_names_its_span_and_column(far):
    """A placeholder time (9999-12-31, year 1) fits no nanosecond timestamp (before: OutOfBoundsDatetime)."""
    frame = spans([doc("d1", "a")])
    if far == "in a column of seconds":
        frame["start_time"] = np.array(["2026-01-01", "9999-12-31"], dtype="datetime64[s]")
    else:
        frame["start_time"] = frame["start_time"].astype(object)
        frame.loc[1, "start_time"] = far
    with pytest.raises(InputError) as err:
        read_said(frame)
    assert err.value.field == "start_time" and "span row 1" in err.value.sample
    assert "is outside the times read" in err.value.detail and "\n" not in str(err.value)


@pytest.mark.parametrize("naive", ["column", "cells"])
def test_naive_start_times_beside_zoned_end_times_are_read_as_utc_and_counted_once(naive):
    frame = spans([doc("d1", "a")])
    frame["start_time"] = frame["start_time"].dt.tz_localize(None)
    if naive == "cells":
        frame["start_time"] = frame["start_time"].map(lambda t: t.isoformat())
    run, said = read_said(frame)
    assert run.external["latency_ms"].tolist() == [5.0]
    assert [m for m in said if "time zone" in m] == [
        "the DataFrame: 2 span time(s) with no time zone, beside times with one, are read as UTC "
        "(first: span row 0, start_time)"]


def test_naive_times_alone_are_read_as_utc_unsaid():
    frame = spans([doc("d1", "a")])
    frame["start_time"] = frame["start_time"].dt.tz_localize(None)
    frame["end_time"] = frame["end_time"].dt.tz_localize(None).map(lambda t: t.isoformat())
    run, said = read_said(frame)
    assert run.external["latency_ms"].tolist() == [5.0] and not [m for m in said if "time zone" in m]


@pytest.mark.parametrize("shape", ["ragas", "ragchecker"])
def test_a_column_named_by_a_number_is_an_input_error_naming_it(shape):
    frame = pd.DataFrame({"user_input" if shape == "ragas" else "query": ["q"], "response": ["r"],
                          "retrieved_contexts" if shape == "ragas" else "retrieved_context": [["p"]],
                          0: [1.5]})
    with pytest.raises(InputError, match=r"column 0 .*int.*rename") as err:
        read_said(frame)
    assert err.value.field == "0" and "\n" not in str(err.value)


# items 9 and 13: ragas frames in the explorer, column names the run table has


def ragas_result(v1: bool = False, n: int = 3, **columns) -> pd.DataFrame:
    """What ragas' EvaluationResult.to_pandas() gives (>= 0.2, or < 0.2 with ``v1``): rows and ragas' scores."""
    names = ("question", "contexts", "answer", "ground_truth") if v1 else \
        ("user_input", "retrieved_contexts", "response", "reference")
    frame = pd.DataFrame({names[0]: [f"q{k}" for k in range(n)], names[1]: [["Ann built it.", "It is red."]] * n,
                          names[2]: ["Ann built it."] * n, names[3]: ["Ann"] * n,
                          "faithfulness": np.linspace(0, 1, n), "answer_relevancy": [0.9] * n,
                          "context_precision": [1.0] * n, "context_recall": [np.nan] + [0.5] * (n - 1)})
    for name, values in columns.items():
        frame[name] = values
    return frame


def open_explorer(frame):
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        explorer = rw.DatasetExplorer(frame)
    return explorer, [str(w.message) for w in said if issubclass(w.category, InputWarning)]


@pytest.mark.parametrize("v1", [False, True])
def test_the_readmes_ragas_result_opens_with_ragas_scores_as_external_columns(v1):
    explorer, _ = open_explorer(ragas_result(v1))
    external = explorer.model.external
    assert set(external) == {"ragas_faithfulness", "answer_relevancy", "ragas_context_precision", "context_recall"}
    assert explorer.metrics == [] and explorer.chart_metric in external and explorer.scatter_y in external
    assert explorer.model.frame["ragas_faithfulness"].tolist() == [0.0, 0.5, 1.0]
    explorer.chart_metric = "context_recall"  # the charts and the table work on another tool's numbers alone
    assert {"key": "context_recall", "label": "context_recall (external)"} in explorer.view_state["chartable"]


def test_a_run_column_in_a_single_run_is_renamed_with_a_warning():
    explorer, said = open_explorer(ragas_result(run=["x", "y", "x"]))
    frame = explorer.model.frame
    assert frame["run"].tolist() == ["run"] * 3 and frame["ragas_run"].tolist() == ["x", "y", "x"]
    assert "ragas_run" in explorer.model.group_columns
    renames = [m for m in said if "renamed" in m]
    assert len(renames) == 1 and "run -> ragas_run" in renames[0]


def test_a_run_column_in_several_runs_is_renamed_in_each():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        explorer = rw.DatasetExplorer({"a": ragas_result(run=["x", "y", "x"]), "b": ragas_result()})
    assert explorer.model.frame["run"].tolist() == ["a"] * 3 + ["b"] * 3
    assert explorer.model.frame["ragas_run"].tolist()[:3] == ["x", "y", "x"]


def test_faithfulness_beside_ragas_faithfulness_keeps_both_apart():
    explorer, said = open_explorer(ragas_result(ragas_faithfulness=[0.25, 0.5, 0.75]))
    frame = explorer.model.frame
    assert frame["ragas_faithfulness"].tolist() == [0.25, 0.5, 0.75]  # the user's own column, under its name
    assert frame["ragas_faithfulness_2"].tolist() == [0.0, 0.5, 1.0]  # ragas' faithfulness, beside it
    renames = [m for m in said if "renamed" in m]
    assert len(renames) == 1 and "faithfulness -> ragas_faithfulness_2" in renames[0]


def test_a_text_column_named_as_a_metric_or_a_count_is_renamed_not_dropped():
    explorer, said = open_explorer(ragas_result(faithfulness=["high", "low", "high"], n_passages=["a", "b", "c"]))
    frame = explorer.model.frame
    assert frame["ragas_faithfulness"].tolist() == ["high", "low", "high"]
    assert frame["ragas_n_passages"].tolist() == ["a", "b", "c"] and frame["n_passages"].tolist() == [2, 2, 2]


# item 10: passages written as {id, content} and other spellings, read alike on every load path


SPELLED = [
    {"query_id": "a", "query": "Who built it?", "response": "Ann built it.",
     "retrieved_context": [{"id": "d1", "content": "Ann built the tower."},
                           {"doc_id": "d2", "page_content": "It is red."}],
     "response_claims": [["Ann", "built", "it"]], "retrieved2response": [["Entailment", "Neutral"]]},
    {"query_id": "b", "retrieved_context": [{"document_id": "d7", "text": "In 1900."}], "response_claims": []},
]


def every_path(records, tmp_path):
    """name -> (LoadResult or the InputError, the passage warnings) of ``records`` read from a list, a
    JSON file, a JSONL file (Arrow's path, msgspec's, the validator's), a gzipped one, a DataFrame, Parquet."""
    import gzip

    lines = "\n".join(json.dumps(r) for r in records) + "\n"
    (tmp_path / "run.json").write_text(json.dumps({"results": records}))
    (tmp_path / "run.jsonl").write_text(lines)
    (tmp_path / "run.jsonl.gz").write_bytes(gzip.compress(lines.encode()))
    pd.DataFrame(records).to_parquet(tmp_path / "run.parquet")
    sources = {"records": records, "json": tmp_path / "run.json", "jsonl": tmp_path / "run.jsonl",
               "jsonl.gz": tmp_path / "run.jsonl.gz", "frame": pd.DataFrame(records),
               "parquet": tmp_path / "run.parquet"}
    out = {}
    for name, source in sources.items():
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            try:
                result = rw.load_samples(source)
            except InputError as err:
                result = err
        out[name] = result, [str(w.message) for w in said if "passage" in str(w.message)]
    return out


def passages_of(result):
    return [[(p.doc_id, p.text) for p in s.passages] for s in result.samples]


def test_common_passage_spellings_are_read_alike_on_every_path_and_said_once(tmp_path):
    loads = every_path(SPELLED, tmp_path)
    for name, (result, said) in loads.items():
        assert not isinstance(result, Exception), (name, result)
        assert passages_of(result) == [[("d1", "Ann built the tower."), ("d2", "It is red.")],
                                       [("d7", "In 1900.")]], name
        assert len(said) == 1, (name, said)
        assert all(f"{old!r} -> {new!r}" in said[0] for old, new in (
            ("id", "doc_id"), ("content", "text"), ("page_content", "text"), ("document_id", "doc_id"))), name
    assert len({tuple(said) for _, said in loads.values()}) == 1
    scores = rw.evaluate(SPELLED)  # the labels line up with the passages read
    assert scores.samples[0].passages[0].text == "Ann built the tower."


def test_an_empty_passage_text_is_said_on_every_path(tmp_path):
    records = [{"query_id": f"q{k}", "retrieved_context": [{"doc_id": "d1", "text": "x"},
                                                           {"doc_id": "d2", "text": "" if k in (1, 2) else "y"}],
                "response_claims": []} for k in range(4)]
    from ragwidgets import _arrowload
    from ragwidgets._fastload import read_flat

    (tmp_path / "plain.jsonl").write_text("\n".join(json.dumps(r) for r in records))
    assert _arrowload.read_jsonl(str(tmp_path / "plain.jsonl")) is None  # the fast paths leave it to the validator
    assert read_flat((tmp_path / "plain.jsonl").read_bytes(), True) is None
    loads = every_path(records, tmp_path)
    for name, (result, said) in loads.items():
        assert passages_of(result)[1] == [("d1", "x"), ("d2", "")], name
        assert said == ["2 passage(s) have an empty text (first: sample 1 (query_id 'q1'), retrieved_context[1]); "
                        "nothing in them can support a claim"], name


def test_unknown_passage_keys_are_counted_and_a_passage_with_no_text_is_refused(tmp_path):
    scored = [{"query_id": "a", "retrieved_context": [{"doc_id": "d1", "text": "x", "score": 0.9, "metadata": {"source": "wiki"}},
                                                      {"doc_id": "d2", "text": "y", "score": 0.5}],
               "response_claims": []}]
    for name, (result, said) in every_path(scored, tmp_path).items():
        assert passages_of(result) == [[("d1", "x"), ("d2", "y")]], name
        assert any("unknown passage key 'score' in 2 passage(s)" in m for m in said), (name, said)
    untexted = [{"query_id": "a", "retrieved_context": [{"id": "d1", "body": "x"}], "response_claims": []}]
    for name, (result, _) in every_path(untexted, tmp_path).items():
        assert isinstance(result, InputError), name
        assert result.field == "retrieved_context[0]" and "'text'" in result.detail and "body" in result.detail, name


TWICE_SPELLED = [  # a chunk id beside a document id, a text twice, two spellings neither RAGChecker's
    {"query_id": "a", "retrieved_context": [{"doc_id": "d1", "id": "chunk7", "text": "hello"},
                                            {"doc_id": "d2", "text": "x", "content": "y"},
                                            {"id": "d3", "document_id": "doc3", "page_content": "p", "content": "c"}],
     "response_claims": []},
    {"query_id": "b", "retrieved_context": [{"doc_id": "d4", "id": "chunk9", "text": "z"}], "response_claims": []},
]


def test_two_spellings_of_one_passage_field_read_ragcheckers_else_the_first_on_every_path(tmp_path):
    """RAGChecker's own key wins (doc_id beside a chunk's id loaded before the spellings were mapped);
    between two others, the first in PASSAGE_SPELLINGS order; each ignored spelling said once."""
    loads = every_path(TWICE_SPELLED, tmp_path)
    for name, (result, said) in loads.items():
        assert not isinstance(result, Exception), (name, result)
        assert passages_of(result) == [[("d1", "hello"), ("d2", "x"), ("d3", "c")], [("d4", "z")]], name
        beside = [m for m in said if " beside " in m]
        assert len(beside) == 4, (name, said)
        assert any("'id' beside 'doc_id' in 2 passage(s) (first: sample 0 (query_id 'a'), retrieved_context[0]) "
                   "is ignored: RAGChecker's 'doc_id' is read" in m for m in beside), (name, said)
        assert any("'content' beside 'text' in 1 passage(s)" in m for m in beside), (name, said)
        assert any("'document_id' beside 'id' in 1 passage(s)" in m and "'id' is read, the first of doc_id's "
                   "spellings ('doc_id', 'id', 'document_id')" in m for m in beside), (name, said)
        assert any("'page_content' beside 'content' in 1 passage(s)" in m for m in beside), (name, said)
    assert len({tuple(said) for _, said in loads.values()}) == 1


def test_a_null_passage_text_is_said_to_be_null(tmp_path):
    for name, (result, _) in every_path([{"query_id": "a", "retrieved_context": [{"doc_id": "d1", "text": None}],
                                          "response_claims": []}], tmp_path).items():
        assert isinstance(result, InputError), name
        assert result.field == "retrieved_context[0]" and "its 'text' is null" in result.detail, (name, result)
        assert "its keys" not in result.detail, name


def test_ragas_contexts_as_objects_or_empty_strings(tmp_path):
    frame = pd.DataFrame({"user_input": ["q"], "response": ["r"], "reference": ["g"],
                          "retrieved_contexts": [[{"id": "d9", "page_content": "p"}, ""]]})
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        result = rw.load_samples(frame)
    assert passages_of(result) == [[("d9", "p"), ("P2", "")]]
    said = [str(w.message) for w in said]
    assert any("'page_content' -> 'text'" in m for m in said) and any("1 passage(s) have an empty text" in m for m in said)
