"""Reviews at the other entry points and in the exports: the command lines' --reviews, RagChecker
results reviewed, the RAGChecker-format export of reviewed labels, and the per-claim table with
its CSV / Parquet / JSONL files."""

import json
from importlib import resources

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets.cli import main
from ragwidgets.errors import InputWarning
from ragwidgets.loaders import load_samples
from ragwidgets.reviews import Review, ReviewLog
from ragwidgets.scoring import RagChecker
from strategies import ragchecker_records

EXAMPLE = resources.files("ragwidgets.data").joinpath("ragchecker_example.json")
HAND = {  # one sample whose every per-claim fact is worked out below
    "query_id": "h", "query": "Where is Paris?", "gt_answer": "Paris is in France.", "response": "Paris, France.",
    "retrieved_context": [{"doc_id": "d0", "text": "Paris is in France."}, {"doc_id": "d1", "text": "Paris is big."}],
    "response_claims": [["Paris", "is in", "France"], ["Paris", "is", "big"], ["Paris", "is", "old"]],
    "gt_answer_claims": [["Paris", "is in", "France"]],
    "answer2response": ["Entailment", "Neutral", "Entailment"],
    "response2answer": ["Entailment"],
    "retrieved2response": [["Entailment", "Neutral"], ["Neutral", "Entailment"], ["Contradiction", "Neutral"]],
    "retrieved2answer": [["Entailment", "Neutral"]],
}


def _reviews_file(tmp_path, *reviews):
    path = tmp_path / "reviews.jsonl"
    log = ReviewLog(path)
    for r in reviews:
        log.append(r)
    return path


# -- the command lines -----------------------------------------------------------------------------------

def test_score_takes_reviews_and_names_each_problem_on_stderr(tmp_path, capsys):
    path = _reviews_file(tmp_path, Review("0", "answer2response", 1, "Neutral"),
                         Review("0", "answer2response", 99, "Neutral"), Review("gone", "response2answer", 0, "Neutral"))
    assert main(["score", "--example", "ragchecker", "--scores", "precision", "--format", "json",
                 "--reviews", str(path)]) == 0
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.startswith("ragwidgets: review not applied")]
    assert len(lines) == 2 and "claim 99: claim index out of range" in err and "query_id 'gone'" in err
    data = json.loads(out)
    with pytest.warns(InputWarning, match="2 review"):
        expected = rw.evaluate(str(EXAMPLE), ["precision"], reviews=str(path))
    assert data["metrics"]["precision"]["mean"] == pytest.approx(expected.aggregate()["precision"]["mean"])
    assert data["metrics"]["precision"]["mean"] != pytest.approx(rw.evaluate(str(EXAMPLE)).aggregate()["precision"]["mean"])
    assert data["reviews"]["labels"] == 3 and len(data["reviews"]["not_applied"]) == 2
    assert main(["explain", "--example", "ragchecker", "--reviews", str(path)]) == 0


def test_a_bad_reviews_file_is_one_line_and_status_2(tmp_path, capsys):
    path = tmp_path / "reviews.jsonl"
    path.write_text('{"query_id": "0", "kind": "answer2response", "claim": "one", "label": "Neutral"}\n')
    assert main(["score", "--example", "ragchecker", "--reviews", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path} line 1, field 'claim'" in err and "Traceback" not in err


def test_the_cluster_path_refuses_reviews(tmp_path, capsys):
    assert main(["score", str(EXAMPLE), "--workers", "1", "--reviews", str(tmp_path / "r.jsonl")]) == 2
    assert "--reviews is not available with --workers" in capsys.readouterr().err


def test_the_judge_command_takes_reviews(tmp_path, capsys):
    rows = tmp_path / "rows.json"
    rows.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    path = _reviews_file(tmp_path, Review("0", "answer2response", 1, "Neutral"), Review("0", "answer2response", 50, "Neutral"))
    out_path = tmp_path / "out.json"
    assert main(["judge", str(rows), "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--no-cache",
                 "--no-progress", "--reviews", str(path), "--output", str(out_path)]) == 0
    err = capsys.readouterr().err
    assert err.count("review not applied") == 1 and "claim 50" in err
    saved = json.loads(out_path.read_text())["results"][0]
    assert saved["answer2response"][1] == "Neutral"


# -- RagChecker results ----------------------------------------------------------------------------------

def test_ragchecker_results_reviewed_and_exported_read_back_as_the_reviewed_labels(tmp_path):
    records = json.loads(EXAMPLE.read_text())["results"]
    untouched = json.loads(EXAMPLE.read_text())["results"]
    reviews = [Review("0", "answer2response", 1, "Neutral"),
               Review("1", "retrieved2answer", 0, "Contradiction", doc_id=records[1]["retrieved_context"][2]["doc_id"]),
               Review("1", "response2answer", 40, "Neutral")]
    with pytest.warns(InputWarning, match="1 review"):
        result = RagChecker(judge_model_key="unused").score(records, reviews=reviews)
    assert records == untouched  # pure
    assert result.judge_result.records[0]["answer2response"][1] == "Entailment"
    assert "out of range" in result.review_problems[0].reason and len(result.reviews) == 3
    with pytest.warns(InputWarning) as seen:
        expected = rw.evaluate(records, list(result.score_columns), reviews=reviews)
    assert seen[0].filename == __file__  # pointed at the caller, not inside ragwidgets
    np.testing.assert_allclose(result.scores.to_numpy(dtype=float), expected.frame.to_numpy(dtype=float))
    assert result.scores["precision"].iat[0] != result.judge_result.scores["precision"].iat[0]
    path = tmp_path / "reviewed.json"
    result.to_ragchecker_json(path)
    back = load_samples(path).samples
    for got, want in zip(back, expected.samples):
        for kind in ("answer2response", "response2answer", "retrieved2response", "retrieved2answer"):
            np.testing.assert_array_equal(getattr(got, kind), getattr(want, kind))
    again = result.reviewed([Review("0", "answer2response", 0, "Entailment")])  # replaces, never stacks
    assert again.records[0]["answer2response"][1] == "Entailment" and again.records[0]["answer2response"][0] == "Entailment"


# -- the per-claim table -------------------------------------------------------------------------------

def test_the_claims_table_of_a_hand_made_sample():
    scores = rw.evaluate([HAND], reviews=[Review("h", "answer2response", 1, "Contradiction"),
                                          Review("h", "retrieved2response", 2, "Entailment", doc_id="d1")])
    table = scores.claims()
    assert list(table["side"]) == ["response"] * 3 + ["ground_truth"]
    assert list(table["claim"]) == [0, 1, 2, 0] and table["text"].iat[1] == "Paris is big"
    assert table["triple"].iat[0] == ["Paris", "is in", "France"]
    assert list(table["label"]) == ["Entailment", "Contradiction", "Entailment", "Entailment"]
    assert list(table["judge_label"]) == ["Entailment", "Neutral", "Entailment", "Entailment"]
    assert list(table["label_source"]) == ["judge", "reviewer", "judge", "judge"]
    assert table["entailed_by"].tolist() == [["d0"], ["d1"], ["d1"], ["d0"]]
    assert table["contradicted_by"].tolist() == [[], [], ["d0"], []]
    assert table["passages_reviewed"].tolist() == [[], [], ["d1"], []]
    # d0 entails the gt claim (relevant), d1 none; claim 1 is incorrect and entailed by d1 only
    assert table["faithful"].tolist()[:3] == [True, True, True]
    assert table["hallucinated"].tolist()[:3] == [False, False, False]
    assert table["noise_in_relevant"].tolist()[:3] == [False, False, False]
    assert table["noise_in_irrelevant"].tolist()[:3] == [False, True, False]
    assert table["self_knowledge"].tolist()[:3] == [False, False, False]
    assert table["retrieved"].iat[3] and pd.isna(table["retrieved"].iat[0]) and pd.isna(table["hallucinated"].iat[3])
    unjudged = rw.evaluate([{**HAND, "retrieved2response": [["Entailment", None], ["Neutral", "Entailment"],
                                                            ["Contradiction", "Neutral"]]}]).claims()
    assert unjudged["faithful"].isna().sum() == 4  # Undefined for the sample: no flag, never a guess
    assert list(unjudged["label_source"]) == ["judge"] * 4


def test_a_sample_without_passage_labels_has_none_there():
    record = {k: v for k, v in HAND.items() if k not in ("retrieved2response", "retrieved2answer")}
    table = rw.evaluate([record]).claims()
    assert table["entailed_by"].isna().all() and table["faithful"].isna().all()
    assert list(table["label"]) == ["Entailment", "Neutral", "Entailment", "Entailment"]


@pytest.mark.parametrize("suffix", [".csv", ".parquet", ".jsonl"])
def test_the_claims_table_is_written_by_suffix(tmp_path, suffix):
    scores = rw.evaluate(str(EXAMPLE), reviews=[Review("1", "answer2response", 0, "Neutral")])
    table = scores.claims()
    path = tmp_path / f"claims{suffix}"
    scores.to_claims(path)
    if suffix == ".parquet":
        back = pd.read_parquet(path)
        lists = {c: [list(v) if v is not None else None for v in back[c]] for c in ("entailed_by", "triple")}
    elif suffix == ".csv":
        back = pd.read_csv(path, keep_default_na=False, dtype={"query_id": str})
        lists = {c: [json.loads(v) if v else None for v in back[c]] for c in ("entailed_by", "triple")}
    else:
        back = pd.DataFrame([json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()])
        lists = {c: list(back[c]) for c in ("entailed_by", "triple")}
    assert len(back) == len(table) and list(back.columns) == list(table.columns)
    assert list(back["query_id"].astype(str)) == list(table["query_id"])
    assert list(back["label_source"]) == list(table["label_source"])
    assert lists["entailed_by"] == table["entailed_by"].tolist() and lists["triple"] == table["triple"].tolist()
    assert [str(v).lower() for v in back["hallucinated"]][:3] == [str(v).lower() for v in table["hallucinated"]][:3]
    with pytest.raises(ValueError, match="by the file's suffix"):
        scores.to_claims(tmp_path / "claims.xlsx")


@settings(max_examples=60, deadline=None)
@given(st.lists(ragchecker_records(max_claims=3, max_passages=3, labelled=True), min_size=1, max_size=4),
       st.data())
def test_scores_export_reads_back_as_the_reviewed_labels(records, data):
    for i, r in enumerate(records):
        r["query_id"] = f"q{i}"
    cells = [(r["query_id"], kind, j) for r in records for kind in ("answer2response", "response2answer")
             for j in range(len(r[kind]))]
    picked = data.draw(st.lists(st.sampled_from(cells), max_size=4)) if cells else []
    reviews = [Review(q, kind, j, data.draw(st.sampled_from(["Entailment", "Neutral", "Contradiction"])))
               for q, kind, j in picked]
    scores = rw.evaluate(records, mode="required_and_optional", reviews=reviews)
    text = scores.to_ragchecker_json()
    back = rw.evaluate(text, mode="required_and_optional")
    for got, want in zip(back.samples, scores.samples):
        for kind in ("answer2response", "response2answer", "retrieved2response", "retrieved2answer"):
            np.testing.assert_array_equal(getattr(got, kind), getattr(want, kind))
        assert [c.required for c in got.response_claims] == [c.required for c in want.response_claims]
    pd.testing.assert_frame_equal(back.frame, scores.frame)
    saved = json.loads(text)
    assert [r["metrics"] for r in saved["results"]] == [scores.metrics(i) for i in range(len(records))]


def test_texts_that_need_escaping_survive_every_file(tmp_path):
    odd = 'say "hi" \\ back\nslash\ttab \u2028 \x01 é'
    record = {**HAND, "response_claims": [[odd, "is", "x"], ["a", "b", "c"], ["d", "e", "f"]],
              "retrieved_context": [{"doc_id": 'd"0\n', "text": "t"}, {"doc_id": "d1", "text": "u"}]}
    scores = rw.evaluate([record])
    scores.to_claims(tmp_path / "c.jsonl")
    scores.to_claims(tmp_path / "c.csv")
    rows = [json.loads(line) for line in (tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows[0]["text"] == f"{odd} is x" and rows[0]["triple"][0] == odd and rows[0]["entailed_by"] == ['d"0\n']
    back = pd.read_csv(tmp_path / "c.csv", keep_default_na=False)
    assert back["text"].iat[0] == f"{odd} is x" and json.loads(back["entailed_by"].iat[0]) == ['d"0\n']
    empty = rw.evaluate([{"query_id": "e", "response_claims": [], "answer2response": []}])
    empty.to_claims(tmp_path / "empty.jsonl")
    assert (tmp_path / "empty.jsonl").read_bytes() == b""
