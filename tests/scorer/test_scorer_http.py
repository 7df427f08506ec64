"""RagChecker end to end through the real HTTP fake chat-completions server on 127.0.0.1.

The fake server's answers for ``raw_frame()`` (see tests/judges/conftest.py for its rules):
q1 response claims "Paris is the capital of France" (correct, in d1) and "Lyon never hosted the
Olympics" (a Contradiction everywhere); gt claims "Paris is the capital of France" (in d1),
"Paris has the Louvre" (in d2, not in the response). q2: one response claim, entailed by the gt
answer and the passage; one gt claim "The Seine flows through Paris", not entailed by the
response (no "The"), entailed by the passage.
"""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.judges import LexicalJudge
from ragwidgets.scoring import ScoringInputError

ALL_CLAIMS = {
    "q1": dict(precision=0.5, recall=0.5, f1=0.5, claim_recall=1.0, context_precision=1.0, context_utilization=0.5,
               noise_sensitivity_in_relevant=0.0, noise_sensitivity_in_irrelevant=0.0, hallucination=0.5,
               self_knowledge=0.0, faithfulness=0.5),
    "q2": dict(precision=1.0, recall=0.0, f1=0.0, claim_recall=1.0, context_precision=1.0, context_utilization=0.0,
               noise_sensitivity_in_relevant=0.0, noise_sensitivity_in_irrelevant=0.0, hallucination=0.0,
               self_knowledge=0.0, faithfulness=1.0),
}


def operations(script) -> list[str]:
    """The kind of each request the server answered: extract, check or label."""
    out = []
    for body in script.bodies:
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        out.append("extract" if user.startswith("Question the text answers:") else
                   "check" if user.startswith("Reference:\n") else "label")
    return out


def test_every_score_end_to_end_then_free_from_the_cache(frame, make_judge, chat_server):
    judge = make_judge()
    scorer = rw.RagChecker(judge_model_key="unused")
    plan = scorer.dry_run(frame, judge)
    assert plan.by_operation["extract"].calls == 4 and plan.cached == 0 and plan.estimated_texts == 4
    assert chat_server.script.requests == 0

    result = scorer.score(frame, judge)
    for qid, expected in ALL_CLAIMS.items():
        assert result.scores.loc[qid].to_dict() == pytest.approx(expected)
    assert list(result.frame.index) == ["q1", "q2"] and list(result.frame.columns[:4]) == list(frame.columns)
    assert result.frame.loc["q1", "response_claims"] == [
        {"subject": "Paris", "predicate": "is", "object": "the capital of France"},
        {"subject": "Lyon", "predicate": "never", "object": "hosted the Olympics"},
    ]
    assert result.frame.loc["q1", "retrieved2answer"] == [["Entailment", "Neutral"], ["Neutral", "Entailment"]]
    requests = chat_server.script.requests
    assert result.usage.calls == requests == judge.stats.calls == plan.calls  # the dry run counted exactly
    assert result.usage.prompt_tokens > 0 and result.usage.failures == 0
    assert sorted(set(operations(chat_server.script))) == ["check", "extract"]  # all_claims: no labelling

    again = make_judge()  # a new judge on the same cache file
    assert scorer.dry_run(frame, again).calls == 0
    second = scorer.score(frame, again)
    assert chat_server.script.requests == requests
    assert second.usage.calls == 0 and second.usage.cache_hits > 0
    pd.testing.assert_frame_equal(second.scores, result.scores)


def test_rescoring_the_output_needs_no_judge_at_all(frame, make_judge, chat_server):
    result = rw.RagChecker(judge_model_key="unused").score(frame, make_judge())
    requests = chat_server.script.requests
    rescored = rw.RagChecker().score(result.frame)  # no judge configured or passed: none is needed
    assert chat_server.script.requests == requests and rescored.usage.calls == 0
    pd.testing.assert_frame_equal(rescored.scores, result.scores)
    assert rw.RagChecker().dry_run(result.frame).calls == 0


def test_only_faithfulness_judges_only_the_response_side(frame, make_judge, chat_server):
    scorer = rw.RagChecker(scores_to_compute=["faithfulness"])
    result = scorer.score(frame, make_judge())
    # two response extractions, one check per passage (3); nothing about the target, no labels
    assert operations(chat_server.script).count("extract") == 2
    assert operations(chat_server.script).count("check") == 3 and chat_server.script.requests == 5
    bodies = zip(chat_server.script.bodies, operations(chat_server.script))
    extracted = [json.dumps(body) for body, op in bodies if op == "extract"]
    assert not any("Paris has the Louvre" in text or "The Seine flows" in text for text in extracted)
    assert result.scores["faithfulness"].tolist() == [0.5, 1.0]
    target_side = {"gt_answer_claims", "answer2response", "response2answer", "retrieved2answer"}
    assert target_side.isdisjoint(result.frame.columns)


def test_target_free_scoring_without_a_target_column(frame, make_judge, chat_server):
    scorer = rw.RagChecker(target_column=None)
    assert scorer.scores == ("faithfulness",)
    result = scorer.score(frame.drop(columns="target"), make_judge())
    assert result.scores["faithfulness"].tolist() == [0.5, 1.0]
    assert chat_server.script.requests == 5


def test_precomputed_claims_skip_extraction(frame, make_judge, chat_server):
    frame["answer_claims"] = [
        [{"subject": "Paris", "predicate": "is", "object": "the capital of France"}],
        [{"subject": "Seine", "predicate": "flows", "object": "through Paris"}],
    ]
    scorer = rw.RagChecker(response_claims_column="answer_claims", scores_to_compute=["faithfulness", "precision"])
    result = scorer.score(frame, make_judge())
    assert "extract" not in operations(chat_server.script)
    assert result.scores["faithfulness"].tolist() == [1.0, 1.0]
    assert result.scores["precision"].tolist() == [1.0, 1.0]


def test_required_labels_come_from_the_judge_and_select_the_claims(frame, make_judge, chat_server):
    scorer = rw.RagChecker(mode="required_only",
                           scores_to_compute=["precision", "recall", "faithfulness", "hallucination"])
    result = scorer.score(frame, make_judge())
    assert "label" in operations(chat_server.script)
    assert result.frame.loc["q1", "response_claim_labels"] == ["REQUIRED", "OPTIONAL"]
    assert result.frame.loc["q1", "gt_answer_claim_labels"] == ["REQUIRED", "OPTIONAL"]
    # q1 over its required claims only: "Paris is the capital of France" on both sides
    assert result.scores.loc["q1"].to_dict() == dict(precision=1.0, recall=1.0, faithfulness=1.0, hallucination=0.0)
    assert result.scores.loc["q2"].to_dict() == dict(precision=1.0, recall=0.0, faithfulness=1.0, hallucination=0.0)


def test_required_and_optional_with_labelling_instructions(frame, make_judge, chat_server):
    scorer = rw.RagChecker(mode="required_and_optional", scores_to_compute=["precision"],
                           claim_labeling_instructions="EVERY CLAIM IS REQUIRED")
    result = scorer.score(frame, make_judge())
    assert result.score_columns == ("precision", "required_precision")
    assert result.frame.loc["q1", "response_claim_labels"] == ["REQUIRED", "REQUIRED"]
    assert result.scores["required_precision"].tolist() == result.scores["precision"].tolist() == [0.5, 1.0]


def test_given_labels_are_used_and_not_asked_for(frame, make_judge, chat_server):
    frame["importance"] = [["OPTIONAL", "REQUIRED"], ["REQUIRED"]]
    frame["claims"] = [[["Paris", "is", "the capital of France"], ["Lyon", "never", "hosted the Olympics"]],
                       [["Seine", "flows", "through Paris"]]]
    scorer = rw.RagChecker(mode="required_only", scores_to_compute=["precision"], response_labels_column="importance",
                           response_claims_column="claims")
    result = scorer.score(frame, make_judge())
    assert "label" not in operations(chat_server.script)
    assert result.scores["precision"].tolist() == [0.0, 1.0]  # q1: only the Lyon claim is required


def test_labels_without_their_claims_are_refused_before_any_request(frame, make_judge, chat_server):
    frame["importance"] = [["OPTIONAL", "REQUIRED"], ["REQUIRED"]]
    scorer = rw.RagChecker(mode="required_only", scores_to_compute=["precision"], response_labels_column="importance")
    for run in (scorer.dry_run, scorer.score):
        with pytest.raises(ScoringInputError, match="row 'q1', column 'importance': is given, but not response_claims"):
            run(frame, make_judge())
    assert chat_server.script.requests == 0


def test_extraction_instructions_reach_the_prompt(frame, make_judge, chat_server):
    scorer = rw.RagChecker(scores_to_compute=["faithfulness"], claim_extraction_instructions="ONLY THE FIRST CLAIM")
    result = scorer.score(frame, make_judge())
    assert len(result.frame.loc["q1", "response_claims"]) == 1
    assert result.scores["faithfulness"].tolist() == [1.0, 1.0]


def test_unreadable_labels_make_the_required_scores_undefined_not_zero(frame, make_judge, chat_server):
    frame["response_claims"] = [[["Paris", "is", "the capital of France"], ["Lyon", "never", "hosted the Olympics"]],
                                [["Seine", "flows", "through Paris"]]]
    frame["retrieved2response"] = [[["Entailment", "Neutral"], ["Neutral", "Neutral"]], [["Entailment"]]]
    chat_server.script.always_malformed = True
    scorer = rw.RagChecker(mode="required_and_optional", target_column=None)
    result = scorer.score(frame.drop(columns="target"), make_judge())
    assert set(operations(chat_server.script)) == {"label"}  # claims and checks were given
    assert result.scores["faithfulness"].tolist() == [0.5, 1.0]
    assert result.scores["required_faithfulness"].isna().all()
    assert result.reasons.loc["q1", "required_faithfulness"] == "2 unjudged label(s) in response_claim_labels"
    assert result.reasons.loc["q1", "faithfulness"] is None
    assert result.metrics["mean_required_faithfulness"].undefined == 2
    assert result.metrics["mean_required_faithfulness"].value is None
    assert result.usage.failures == 2
    assert result.frame.loc["q1", "unjudged"][0]["field"] == "response_claim_labels"


def test_unreadable_checks_and_extractions_are_undefined_with_their_reason(frame, make_judge, chat_server):
    frame["response_claims"] = [[["Paris", "is", "the capital of France"]], None]
    chat_server.script.always_malformed = True
    result = rw.RagChecker(target_column=None).score(frame, make_judge())
    assert result.scores["faithfulness"].isna().all()
    assert result.reasons.loc["q1", "faithfulness"] == "2 unjudged label(s) in retrieved2response"
    assert result.reasons.loc["q2", "faithfulness"].startswith("response_claims could not be extracted: unreadable")
    assert result.metrics["mean_faithfulness"].undefined == 2


def test_resume_after_a_failure_judges_only_what_is_missing(frame, make_judge, chat_server):
    chat_server.script.always_malformed = True
    failed = rw.RagChecker(target_column=None).score(frame, make_judge())
    chat_server.script.always_malformed = False
    before = chat_server.script.requests
    resumed = rw.RagChecker(target_column=None).score(failed.frame, make_judge())
    assert resumed.scores["faithfulness"].tolist() == [0.5, 1.0]
    assert "unjudged" not in resumed.frame.columns
    assert chat_server.script.requests - before == 5


def test_the_secret_never_appears_in_the_outputs(frame, make_judge, chat_server, api_secret, tmp_path):
    judge = make_judge()
    scorer = rw.RagChecker(judge_model_key="unused", mode="required_and_optional")
    result = scorer.score(frame, judge)
    saved = tmp_path / "results.json"
    result.to_ragchecker_json(saved)
    texts = [result.frame.to_json(), repr(result), repr(scorer), repr(judge), str(result.metrics), saved.read_text(),
             result.frame.to_string(), repr(result.usage), str(scorer.dry_run(frame, judge))]
    assert not any(api_secret in text for text in texts)
    assert all(a == f"Bearer {api_secret}" for a in chat_server.script.authorization)


def test_the_lexical_baseline_scores_the_same_frame_offline(frame):
    result = rw.RagChecker(judge_model_key="lexical").score(frame, LexicalJudge())
    assert result.usage.calls > 0 and result.usage.total_tokens == 0
    assert not math.isnan(result.scores.loc["q1", "faithfulness"])
