"""Runs read by their shape (ragwidgets.sources): ragas of both generations, Phoenix span frames,
Parquet and CSV files, the ambiguous shape's error, and external columns kept out of the scores."""

import warnings

import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.analysis.run import Controls, InMemoryRun
from ragwidgets.errors import InputError, InputWarning
from ragwidgets.sources import read_run

CLAIMS = {"response_claims": [[["Ann", "built", "it"], ["it", "is", "red"]], [["it", "was", "1900"]]],
          "retrieved2response": [[["Entailment"], ["Neutral"]], [["Neutral", "Entailment"]]]}


def ragas(v1: bool = False) -> pd.DataFrame:
    """A ragas evaluation's to_pandas(), built without ragas (its own faithfulness beside)."""
    names = ("question", "answer", "contexts", "ground_truth") if v1 else \
        ("user_input", "response", "retrieved_contexts", "reference")
    return pd.DataFrame({names[0]: ["Who built it?", "When?"], names[1]: ["Ann built it. It is red.", "In 1900."],
                         names[2]: [["Ann built the tower."], ["A note.", "It was 1900."]],
                         names[3]: ["Ann", "1900"], "faithfulness": [0.25, np.nan], **CLAIMS})


@pytest.mark.parametrize("v1", [False, True])
def test_ragas_both_schemas_are_mapped_and_said_once(v1):
    with pytest.warns(InputWarning, match="ragas < 0.2" if v1 else "ragas >= 0.2") as said:
        scores = rw.evaluate(ragas(v1))
    assert len([w for w in said if "read as" in str(w.message)]) == 1
    assert scores.samples[1].query == "When?" and [p.text for p in scores.samples[1].passages] == ["A note.", "It was 1900."]
    assert scores.frame["faithfulness"].tolist() == [0.5, 1.0]  # the labels' count, not ragas' 0.25


def test_phoenix_span_frame_is_joined_per_trace():
    t0 = pd.Timestamp("2026-01-01T00:00:00Z")
    spans = pd.DataFrame({
        "context.trace_id": ["t1", "t1", "t1", "t2", "t2"], "context.span_id": ["a", "b", "c", "d", "e"],
        "parent_id": [None, "a", "a", None, "d"], "span_kind": ["CHAIN", "RETRIEVER", "LLM", "CHAIN", "RETRIEVER"],
        "start_time": [t0, t0, t0, t0, t0], "end_time": [t0 + pd.Timedelta(milliseconds=1500)] + [t0] * 2 + [t0 + pd.Timedelta(milliseconds=20)] * 2,
        "attributes.input.value": ["Who built it?", "Who built it?", "prompt", "When?", "When?"],
        "attributes.output.value": ["Ann built it.", None, "Ann built it.", "In 1900.", None],
        "attributes.retrieval.documents": [None, [{"document.id": "d1", "document.content": "Ann built the tower.",
                                                    "document.score": 0.9}], None, None,
                                           [{"document.id": "d7", "document.content": "It was 1900."}]],
    })
    with pytest.warns(InputWarning, match="Phoenix"):
        run = read_run(spans)
    assert [r["query_id"] for r in run.records] == ["t1", "t2"]
    assert run.records[0]["query"] == "Who built it?" and run.records[0]["response"] == "Ann built it."
    assert run.records[1]["retrieved_context"] == [{"doc_id": "d7", "text": "It was 1900."}]
    assert run.external["latency_ms"].tolist() == [1500.0, 20.0]


def test_parquet_and_csv_round_trips(tmp_path):
    frame = ragas()
    frame.to_parquet(tmp_path / "run.parquet")
    frame.assign(**{c: frame[c].map(str) for c in ("retrieved_contexts", *CLAIMS)}).to_csv(tmp_path / "run.csv", index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        direct = rw.evaluate(frame).frame
        for name in ("run.parquet", "run.csv"):
            pd.testing.assert_frame_equal(rw.evaluate(str(tmp_path / name)).frame, direct)
            assert read_run(tmp_path / name).external["faithfulness"].iloc[0] == 0.25


def test_ambiguous_shape_names_the_option():
    with pytest.raises(InputError, match=r"more than one shape.*shape="):
        read_run(ragas().assign(query=["a", "b"]))
    with pytest.warns(InputWarning):
        assert read_run(ragas().assign(query=["a", "b"]), shape="ragchecker").records[0]["query"] == "a"
    with pytest.raises(InputError, match="columns="):
        read_run(pd.DataFrame({"q": ["a"]}))


def test_external_columns_never_enter_the_aggregates():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        run = InMemoryRun(ragas())
    assert run.external == ["ragas_faithfulness"]  # renamed: ragwidgets' own faithfulness keeps its name
    assert {r["metric"] for r in run._summary(False)} == {m for m in run.metrics}
    assert "ragas_faithfulness" not in run.metrics
    run.update(Controls(expression="ragas_faithfulness < 0.5"))
    assert run.order.tolist() == [0]  # NaN is missing: not kept by a comparison
    run.update(Controls())
    assert run.window(0, 2)["status"]["ragas_faithfulness"].tolist() == [0, 2]


def test_scorer_reads_a_ragas_frame_with_the_mapping_made():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        result = rw.RagChecker(scores_to_compute=("faithfulness",), target_column=None).score(ragas())
    assert "ragas_faithfulness" in result.frame.columns


def test_real_ragas_evaluation_dataset():
    ragas_lib = pytest.importorskip("ragas", reason="ragas is not installed: the real EvaluationDataset is not fed")
    data = ragas_lib.EvaluationDataset.from_list([{"user_input": "Q", "response": "A", "retrieved_contexts": ["P"]}])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        assert read_run(data).records[0]["query"] == "Q"
