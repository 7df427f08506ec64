"""Runs read by their shape (ragwidgets.sources): ragas of both generations, Phoenix span frames,
Parquet and CSV files, the ambiguous shape's error, and external columns kept out of the scores."""

import warnings

import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.analysis.runs import Charts, InMemoryRun, Query
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
    assert {r["metric"] for r in run._summary()} == {m for m in run.metrics}
    assert "ragas_faithfulness" not in run.metrics
    run.update(Query(expression="ragas_faithfulness < 0.5"))
    assert run.order.tolist() == [0]  # NaN is missing: not kept by a comparison
    run.update(Query())
    assert run.window(0, 2)["status"]["ragas_faithfulness"].tolist() == [0, 2]


def test_scorer_reads_a_ragas_frame_with_the_mapping_made():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        result = rw.RagChecker(scores_to_compute=("faithfulness",), target_column=None).score(ragas())
    assert "ragas_faithfulness" in result.frame.columns


def four_answers(theirs) -> pd.DataFrame:
    """Four ragas rows whose ragwidgets faithfulness is 1, 0.5, 0 and Undefined (no claims), ragas' ``theirs``."""
    labels = [[["Entailment"]], [["Entailment"], ["Neutral"]], [["Neutral"]], []]
    claims = [[["a", "b", "c"]], [["a", "b", "c"], ["d", "e", "f"]], [["a", "b", "c"]], []]
    return pd.DataFrame({"user_input": ["q1", "q2", "q3", "q4"], "response": ["r"] * 4,
                         "retrieved_contexts": [["p"]] * 4, "reference": ["g"] * 4,
                         "response_claims": claims, "retrieved2response": [[[x[0]] for x in row] for row in labels],
                         "faithfulness": theirs})


def test_ragas_faithfulness_against_ours_by_hand():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        scores = rw.evaluate(four_answers([0.0, 0.5, np.nan, 0.9]))
    assert scores.external_tool == "ragas" and scores.external.columns.tolist() == ["faithfulness"]
    assert scores.frame["faithfulness"].tolist()[:3] == [1.0, 0.5, 0.0]  # ours, from the labels
    c = rw.analysis.against_external(scores)  # ragas' faithfulness is paired with ours by COUNTERPARTS
    assert (c.column, c.metric) == ("faithfulness", "faithfulness")
    assert c.frame["status"].tolist() == ["both", "both", "theirs missing", "ours undefined"]
    assert c.frame["difference"].tolist()[:2] == [-1.0, 0.0]
    s = c.stats
    assert (s["n_both"], s["n_ours_undefined"], s["n_theirs_missing"]) == (2, 1, 1)
    assert s["mean_ours"] == 0.75 and s["mean_theirs"] == 0.25 and s["mean_abs_difference"] == 0.5
    assert s["pearson"] is None  # two pairs: no correlation is claimed
    assert c.disagreeing() == [scores.batch.query_ids[0]]
    assert c.most_disagreeing(1).index.tolist() == [scores.batch.query_ids[0]]
    with pytest.raises(ValueError, match="carry no other tool"):
        rw.analysis.against_external(rw.evaluate(scores.samples))


def test_explorer_opens_on_ragas_against_ours_with_the_disagreement_slice():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        explorer = rw.DatasetExplorer(four_answers([0.0, 0.5, np.nan, 0.9]))
    assert (explorer.scatter_x, explorer.scatter_y) == ("ragas_faithfulness", "faithfulness")
    name = "ragas_faithfulness disagrees with faithfulness"
    assert name in [s["name"] for s in explorer.view_state["slices"]]
    explorer.slice = name
    kept = explorer.model.frame["query_id"].to_numpy()[explorer.model.order].tolist()
    assert kept == [explorer.model.frame["query_id"].iloc[0]]  # only the answer where they differ by 0.5 or more
    assert {"key": "ragas_faithfulness", "label": "ragas_faithfulness (external)"} in explorer.view_state["chartable"]


def test_external_columns_are_compared_across_runs():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        run = InMemoryRun({"a": four_answers([0.0, 0.5, np.nan, 0.9]), "b": four_answers([0.5, 0.5, 0.2, np.nan])})
    rows = run.comparison.summary.set_index("metric").loc["ragas_faithfulness"]
    assert rows["paired"] == 2 and rows["difference"] == pytest.approx(0.25)  # q1 +0.5, q2 0; q3, q4 missing once
    assert "ragas_faithfulness" not in run.metrics


def test_explorer_claims_follow_the_filter_and_order(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        explorer = rw.DatasetExplorer({"a": four_answers([0.0, 0.5, np.nan, 0.9]),
                                       "b": four_answers([0.5, 0.5, 0.2, np.nan])})
    explorer.sort_by, explorer.descending = "faithfulness", False
    explorer.expression = "faithfulness < 1"
    claims = explorer.claims()
    # samples kept, by faithfulness up: (a, q3) 0, (b, q3) 0, (a, q2) 0.5, (b, q2) 0.5; their claims in that order
    assert list(zip(claims["run"], claims["claim"])) == [("a", 0), ("b", 0), ("a", 0), ("a", 1), ("b", 0), ("b", 1)]
    assert claims["faithful"].tolist() == [False, False, True, False, True, False]
    for suffix in (".parquet", ".csv", ".jsonl"):
        explorer.export_claims(tmp_path / f"claims{suffix}")
    back = pd.read_parquet(tmp_path / "claims.parquet")
    assert back["run"].tolist() == claims["run"].tolist() and len(pd.read_json(tmp_path / "claims.jsonl", lines=True)) == 6


def test_cli_score_writes_the_claims_table(tmp_path, capsys):
    from ragwidgets.cli import main
    path = tmp_path / "run.parquet"
    four_answers([0.0, 0.5, np.nan, 0.9]).to_parquet(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        assert main(["score", str(path), "--claims", str(tmp_path / "claims.parquet")]) == 0
    assert "wrote 4 claims" in capsys.readouterr().err
    claims = pd.read_parquet(tmp_path / "claims.parquet")
    assert claims["query_id"].tolist() == ["0", "1", "1", "2"] and claims["faithful"].tolist() == [True, True, False, False]
    assert main(["score", str(path), "--claims", str(tmp_path / "claims.txt")]) == 2
    assert "--claims writes .csv, .parquet, .jsonl" in capsys.readouterr().err


def test_a_scored_ragas_frame_keeps_ragas_scores_into_the_explorer():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        result = rw.RagChecker(scores_to_compute=("faithfulness",), target_column=None).score(
            four_answers([0.0, 0.5, np.nan, 0.9]))
        explorer = rw.DatasetExplorer(result)
    assert explorer.model.external == ["ragas_faithfulness"]
    assert explorer.model.counterparts == {"ragas_faithfulness": "faithfulness"}
    assert "ragas_faithfulness disagrees with faithfulness" in [s.name for s in explorer.model.slices]


class FakeHFDataset:
    """What ragwidgets asks of a Hugging Face datasets.Dataset (duck-typed): its to_pandas()."""

    def __init__(self, frame):
        self.frame = frame

    def to_pandas(self):
        return self.frame


def test_a_dataset_with_to_pandas_is_read_and_its_external_scores_grouped():
    data = FakeHFDataset(four_answers([0.0, 0.5, np.nan, 0.9]).assign(model=["a", "a", "b", "b"]))
    with pytest.warns(InputWarning, match="the FakeHFDataset read as ragas >= 0.2"):
        explorer = rw.DatasetExplorer(data)
    explorer.group_by, explorer.chart_metric = "model", "ragas_faithfulness"
    rows = explorer.view_state["charts"]["groups"]["rows"]
    # by group: the mean over the rows that have ragas' number (b's missing one is not a 0)
    assert [(r["group"], r["mean"], r["defined"], r["size"]) for r in rows] == [("a", 0.25, 2, 2), ("b", 0.9, 1, 2)]


def test_a_huge_python_literal_in_a_csv_cell_is_refused_by_name(tmp_path, monkeypatch):
    import ragwidgets.sources as sources
    monkeypatch.setattr(sources, "MAX_LITERAL", 50)
    frame = ragas().assign(retrieved_contexts=["['" + "x" * 60 + "']", "['short']"])
    frame.drop(columns=list(CLAIMS)).to_csv(tmp_path / "run.csv", index=False)
    with pytest.raises(InputError, match=r"CSV row 0.*retrieved_contexts|retrieved_contexts.*CSV row 0"):
        read_run(tmp_path / "run.csv")


def test_raw_rows_in_the_explorer_say_they_need_a_judge_first():
    rows = pd.DataFrame({"user_input": ["q"], "response": ["r"], "retrieved_contexts": [["p"]], "reference": ["g"]})
    with pytest.warns(InputWarning, match=r"no metric is computable.*RagChecker"):
        explorer = rw.DatasetExplorer(rows)
    assert explorer.metrics == []


def test_another_tools_score_grouped_by_a_column_one_run_lacks():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        run = InMemoryRun({"a": four_answers([0.0, 0.5, np.nan, 0.9]).assign(model=["x", "x", "y", "y"]),
                           "b": four_answers([0.5, 0.5, 0.2, np.nan])})
    c = Charts("ragas_faithfulness", "faithfulness", "faithfulness", "model")
    run.update(Query(), c)
    rows = run._charts(c)["groups"]["rows"]
    # run b has no model: its rows are a group of their own (not an error), its missing score not averaged
    assert [(r["group"], r["mean"], r["defined"], r["size"]) for r in rows] == [
        ("x", 0.25, 2, 2), ("y", 0.9, 1, 2), ("nan", 0.4, 3, 4)]
