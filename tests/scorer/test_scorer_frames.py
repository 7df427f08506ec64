"""Frames in and out: precomputed claims and labels, RAGChecker records, saved outputs, bad input."""

from __future__ import annotations

import json
from importlib import resources

import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.judges import PrecomputedJudge, UnknownJudgeError, register_judge, unregister_judge
from ragwidgets.reviews import Review, Reviews
from ragwidgets.scoring import RagChecker, ScoringInputError

EXAMPLE = resources.files("ragwidgets.data").joinpath("ragchecker_example.json")


def example_records() -> list[dict]:
    return json.loads(EXAMPLE.read_text())["results"]


class NoCallJudge(PrecomputedJudge):
    """A judge that fails the test if it is asked anything."""

    async def arun(self, jobs, **kwargs):
        raise AssertionError(f"the judge was asked {len(jobs)} job(s)")


def test_ragchecker_results_with_their_labels_cost_nothing():
    scorer = RagChecker(judge_model_key="unused-key")  # never resolved: nothing to judge
    result = scorer.score({"results": example_records()})
    expected = rw.evaluate(str(EXAMPLE), list(rw.RAGCHECKER_METRICS)).frame
    assert result.usage.calls == 0
    pd.testing.assert_frame_equal(result.scores.reset_index(drop=True), expected.reset_index(drop=True))
    assert result.scores.loc[1, "recall"] == 0.75 and list(result.frame["query_id"]) == ["0", "1"]
    assert RagChecker().dry_run(str(EXAMPLE)).calls == 0


def test_evaluate_reads_a_scoring_result_as_its_records():
    """rw.evaluate(result) is rw.evaluate(result.records): what the explorers take, evaluate takes."""
    result = RagChecker().score({"results": example_records()})
    pd.testing.assert_frame_equal(rw.evaluate(result).frame, rw.evaluate(result.records).frame)
    assert rw.evaluate(result, ["recall"]).frame["recall"].tolist() == result.scores["recall"].tolist()


def test_a_reviewed_scoring_result_is_read_as_the_judge_said_it_with_its_reviews():
    """result.reviewed(r): evaluate and the DatasetExplorer keep the judge's labels and the reviews
    apart (judge_scores, agreement), as the SampleExplorer does; a reviews= given wins."""
    result = RagChecker().score({"results": example_records()})
    query_id = result.records[0]["query_id"]
    reviewed = result.reviewed(Reviews([Review(query_id, "answer2response", 0, "Contradiction")]))
    scores = rw.evaluate(reviewed)
    assert len(scores.reviews) == 1
    pd.testing.assert_frame_equal(scores.judge_scores.frame, rw.evaluate(result).frame)
    pd.testing.assert_frame_equal(scores.frame, rw.evaluate(reviewed.records).frame)  # the reviewed labels in force
    assert rw.analysis.agreement(scores).table.set_index("kind").loc["answer2response", "n"] == 1
    assert len(rw.DatasetExplorer(reviewed).reviews) == 1
    none = rw.evaluate(reviewed, reviews=Reviews())
    assert none.judge_scores is not None and len(none.reviews) == 0


def test_precomputed_dict_claims_in_configured_columns(frame):
    frame["my_claims"] = [
        [{"subject": "Paris", "predicate": "is", "object": "the capital of France"}],
        [{"subject": "Seine", "predicate": "flows", "object": "through Paris"}],
    ]
    frame["retrieved2response"] = [[["Entailment", "Neutral"]], [["Neutral"]]]
    scorer = RagChecker(response_claims_column="my_claims", target_column=None)
    result = scorer.score(frame, NoCallJudge())
    assert result.scores["faithfulness"].tolist() == [1.0, 0.0]
    seine = {"subject": "Seine", "predicate": "flows", "object": "through Paris"}
    assert result.frame.loc["q2", "response_claims"] == [seine]


def test_records_round_trip_through_ragchecker_json(tmp_path):
    result = RagChecker(mode="required_and_optional", scores_to_compute=["precision"]).score(
        [{**r, "response_claim_labels": ["REQUIRED"] * len(r["response_claims"])} for r in example_records()])
    path = tmp_path / "out.json"
    text = result.to_ragchecker_json(path)
    saved = json.loads(path.read_text())
    assert json.loads(text) == saved
    first = saved["results"][0]
    assert first["response_claims"][0] == ["Nile", "is", "longest river in the world"]
    assert first["metrics"] == {"precision": pytest.approx(8 / 11), "required_precision": pytest.approx(8 / 11)}
    again = rw.evaluate(str(path), ["precision"])
    assert again.frame["precision"].tolist() == result.scores["precision"].tolist()
    assert RagChecker(scores_to_compute=["precision"]).score(str(path)).usage.calls == 0


@pytest.mark.parametrize("fmt", ["json", "pickle"])
def test_saved_output_rescored_makes_zero_judge_calls(frame, tmp_path, fmt):
    scorer = RagChecker(mode="required_and_optional")
    result = scorer.score(frame, "lexical")
    path = tmp_path / f"scored.{fmt}"
    if fmt == "json":
        result.frame.to_json(path, orient="split")
        saved = pd.read_json(path, orient="split")
    else:
        result.frame.to_pickle(path)
        saved = pd.read_pickle(path)
    rescored = scorer.score(saved, NoCallJudge())
    assert rescored.usage.calls == 0
    pd.testing.assert_frame_equal(rescored.scores, result.scores, check_names=False)


def test_result_repr_reasons_and_metrics(frame):
    frame.loc["q2", "response"] = ""
    result = RagChecker(scores_to_compute=["precision", "recall"], key="rc").score(frame, "lexical")
    assert repr(result) == ("ScoringResult(rc: 2 rows × 2 scores, 2 metrics; Undefined: precision 1; "
                            f"judge: {result.usage.calls} calls, 0 cache hits, 0 tokens, 0 failures)")
    assert result.reasons.loc["q2", "precision"] == "no response claims"
    assert result.frame.loc["q2", "undefined_reasons"] == {"precision": "no response claims"}
    assert result.metrics["mean_precision"].undefined == 1
    assert result.metrics_frame().loc["mean_precision", "undefined"] == 1
    assert "precision = 0/0 = Undefined" in str(result.explain("q2"))


def test_a_judge_key_at_call_time_and_from_the_registry(frame):
    register_judge("scorer-test-precomputed", PrecomputedJudge())
    try:
        result = RagChecker(judge_model_key="scorer-test-precomputed", target_column=None).score(frame)
    finally:
        unregister_judge("scorer-test-precomputed")
    assert result.frame.loc["q1", "unjudged"][0]["field"] == "response_claims"  # it knows no claims: unjudged
    assert result.scores["faithfulness"].isna().all()
    with pytest.raises(UnknownJudgeError, match="no judge registered under 'nope'.*'lexical'"):
        RagChecker(judge_model_key="nope").score(frame)
    with pytest.raises(ValueError, match="no judge is set: give judge_model_key"):
        RagChecker().score(frame)


def test_id_column_and_duplicate_ids(frame):
    frame["case"] = ["a", "b"]
    result = RagChecker(id_column="case", target_column=None).score(frame, "lexical")
    assert [r["query_id"] for r in result.to_ragchecker()["results"]] == ["a", "b"]
    frame.index = ["x", "x"]
    with pytest.raises(ScoringInputError, match=r"row 'x', column 'index': id 'x' repeats row 'x'"):
        RagChecker(target_column=None).score(frame, "lexical")


@pytest.mark.parametrize("change, message", [
    (lambda f: f.drop(columns="context"), r"column 'context': the DataFrame has no such column"),
    (lambda f: f.assign(query=["Q?", None]), r"row 'q2', column 'query': is empty"),
    (lambda f: f.assign(response=["ok", 3]), r"row 'q2', column 'response': must be a string, got int"),
    (lambda f: f.assign(context=["one passage", []]), r"row 'q1', column 'context': must be a list of passages"),
    (lambda f: f.assign(context=[[{"doc_id": "d"}], []]), r"row 'q1', column 'context': passage 0 must be"),
    (lambda f: f.assign(context=[[{"doc_id": "d", "text": "x"}, {"doc_id": "d", "text": "y"}], []]),
     r"row 'q1', column 'context': retrieved_context\[1\].doc_id: doc_id 'd' appears twice"),
    (lambda f: f.assign(response_claims=["[['a', 'b', 'c']]", None]),  # a CSV round trip
     r"row 'q1', column 'response_claims': must be a list of \{subject, predicate, object\} claims, got str"),
    (lambda f: f.assign(response_claims=[[{"subject": "a"}], None]),
     r"row 'q1', column 'response_claims': claim 0 needs"),
    (lambda f: f.assign(response_claims=[[["a", "b", "c"]], None], retrieved2response=[[["Entailment"]], None]),
     r"row 'q1', column 'retrieved2response': retrieved2response\[0\]: must have one label per retrieved passage"),
])
def test_bad_input_names_the_row_and_the_column(frame, change, message):
    with pytest.raises(ScoringInputError, match=message):
        RagChecker(target_column=None).score(change(frame), "lexical")


def test_bad_labels_and_missing_optional_columns(frame):
    frame["labels"] = [["REQUIRED", "maybe"], ["REQUIRED"]]
    with pytest.raises(ScoringInputError, match=r"row 'q1', column 'labels': label 1 must be 'REQUIRED', 'OPTIONAL'"):
        RagChecker(mode="required_only", response_labels_column="labels").score(frame, "lexical")
    frame["labels"] = [["REQUIRED"], None]  # a label list one short of the response's claims
    frame["claims"] = [[["a", "b", "c"], ["d", "e", "f"]], None]
    with pytest.raises(ScoringInputError, match=r"row 'q1', column 'labels': has 1 entries but there are 2 claims"):
        RagChecker(mode="required_only", response_claims_column="claims", response_labels_column="labels",
                   target_column=None).score(frame, "lexical")
    with pytest.raises(ScoringInputError, match=r"column 'gt_claims': the DataFrame has no such column"):
        RagChecker(target_claims_column="gt_claims").score(frame, "lexical")
    with pytest.raises(ValueError, match="reads column 'weight', which the DataFrame lacks"):
        RagChecker(metrics=[{"type": "weighted_average", "score": "recall", "weights_column": "weight"}]).score(
            frame, "lexical")


def test_passages_in_other_common_spellings_are_read_as_doc_id_and_text(frame):
    """{id, content} (LlamaIndex, Haystack) and {document_id, page_content} (LangChain) are passages
    with their text, scored as {doc_id, text} are (before: refused as having no 'text')."""
    spelled = frame.assign(context=[[{"id": "a", "content": "Paris is the capital of France."}],
                                    [{"document_id": "b", "page_content": "The Seine flows through Paris."}]])
    plain = frame.assign(context=[[{"doc_id": "a", "text": "Paris is the capital of France."}],
                                  [{"doc_id": "b", "text": "The Seine flows through Paris."}]])
    got = RagChecker(target_column=None).score(spelled, "lexical")
    want = RagChecker(target_column=None).score(plain, "lexical")
    pd.testing.assert_frame_equal(got.scores, want.scores)
    assert [p["doc_id"] for r in got.records for p in r["retrieved_context"]] == ["a", "b"]
    assert "content" not in got.records[0]["retrieved_context"][0]


def test_of_two_spellings_of_a_passage_field_the_loaders_choice_is_scored(frame):
    """RAGChecker's doc_id / text win over another spelling beside them (a chunk's id beside its document's),
    else the first in PASSAGE_SPELLINGS order, as the loaders read them; each ignored spelling said once
    (before: the row was refused as giving its text or doc_id twice)."""
    twice = frame.assign(context=[[{"doc_id": "a", "id": "chunk7", "text": "Paris is the capital of France.",
                                    "content": "Nothing."}],
                                  [{"id": "b", "document_id": "doc9", "page_content": "Nothing.",
                                    "content": "The Seine flows through Paris."}]])
    plain = frame.assign(context=[[{"doc_id": "a", "text": "Paris is the capital of France."}],
                                  [{"doc_id": "b", "text": "The Seine flows through Paris."}]])
    with pytest.warns(rw.InputWarning) as said:
        got = RagChecker(target_column=None).score(twice, "lexical")
    want = RagChecker(target_column=None).score(plain, "lexical")
    pd.testing.assert_frame_equal(got.scores, want.scores)
    assert [r["retrieved_context"] for r in got.records] == [
        [{"doc_id": "a", "text": "Paris is the capital of France."}],
        [{"doc_id": "b", "text": "The Seine flows through Paris."}]]
    said = [str(w.message) for w in said]
    for key, kept in (("id", "doc_id"), ("content", "text"), ("document_id", "id"), ("page_content", "content")):
        assert sum(f"passage key {key!r} beside {kept!r} in 1 passage(s)" in m for m in said) == 1, (key, said)
    assert "row 'q1', column 'context', passage 0" in " ".join(said)
