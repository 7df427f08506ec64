"""fill_labels: only the requested fields, only the missing entries, never recomputing what is present."""

from __future__ import annotations

import copy

import pytest

from ragwidgets.errors import InputError
from ragwidgets.judges import FactJudge, FillInputError, LexicalJudge, PrecomputedJudge, fill_labels, plan_fill

MATRICES = ("answer2response", "response2answer", "retrieved2response", "retrieved2answer")


def make_records():
    return [
        {
            "query_id": "q1",
            "query": "What is the capital of France?",
            "gt_answer": "Paris is the capital of France. Paris has the Louvre.",
            "response": "Paris is the capital of France. Lyon never hosted the Olympics.",
            "retrieved_context": [
                {"doc_id": "d1", "text": "Paris is the capital of France."},
                {"doc_id": "d2", "text": "The Louvre is in Paris. Paris has the Louvre."},
            ],
        },
        {
            "query_id": "q2",
            "query": "Which river flows through Paris?",
            "gt_answer": "The Seine flows through Paris.",
            "response": "Seine flows through Paris.",
            "retrieved_context": [{"doc_id": "d3", "text": "The Seine flows through Paris in France."}],
        },
    ]


def test_fill_everything_end_to_end_then_again_from_the_cache(make_judge, chat_server):
    records = make_records()
    original = copy.deepcopy(records)
    filled = fill_labels(records, make_judge(check_batch_size=4), progress=False)
    assert records == original  # inputs are not modified

    first = filled[0]
    assert first["response_claims"] == [["Paris", "is", "the capital of France"], ["Lyon", "never", "hosted the Olympics"]]
    assert first["gt_answer_claims"] == [["Paris", "is", "the capital of France"], ["Paris", "has", "the Louvre"]]
    assert first["answer2response"] == ["Entailment", "Contradiction"]
    assert first["response2answer"] == ["Entailment", "Neutral"]
    assert first["retrieved2response"] == [["Entailment", "Neutral"], ["Contradiction", "Contradiction"]]
    assert first["retrieved2answer"] == [["Entailment", "Neutral"], ["Neutral", "Entailment"]]
    assert first["response_claim_labels"] == ["REQUIRED", "OPTIONAL"]
    assert first["gt_answer_claim_labels"] == ["REQUIRED", "OPTIONAL"]
    assert "unjudged" not in first
    assert filled[1]["retrieved2answer"] == [["Entailment"]]
    requests = chat_server.script.requests
    assert requests > 0

    again = make_judge(check_batch_size=4)
    assert fill_labels(make_records(), again, progress=False) == filled
    assert chat_server.script.requests == requests
    assert again.stats.calls == 0 and again.stats.cache_hits > 0


def test_present_values_are_never_recomputed(make_judge, chat_server):
    record = make_records()[0]
    record["response_claims"] = [["Paris", "is", "the capital of France"], ["Lyon", "never", "hosted the Olympics"]]
    record["answer2response"] = ["Neutral", "Entailment"]  # deliberately not what the judge would say
    record["retrieved2response"] = [["Neutral", None], [None, "Entailment"]]
    judge = make_judge(check_batch_size=8)
    filled = fill_labels([record], judge, needs={"answer2response", "retrieved2response"}, progress=False)[0]
    assert filled["answer2response"] == ["Neutral", "Entailment"]
    assert filled["retrieved2response"] == [["Neutral", "Neutral"], ["Contradiction", "Entailment"]]
    assert "gt_answer_claims" not in filled and "response2answer" not in filled
    assert chat_server.script.requests == 2  # one check per passage column with a gap, no extraction
    assert [c.operation for c in judge.stats.per_call] == ["check", "check"]


def test_target_free_needs_do_not_touch_the_gt_answer(make_judge):
    record = make_records()[1]
    del record["gt_answer"]
    filled = fill_labels([record], make_judge(), needs={"retrieved2response"}, progress=False)[0]
    assert filled["retrieved2response"] == [["Entailment"]]
    assert set(filled) == set(record) | {"response_claims", "retrieved2response"}


def test_a_missing_gt_answer_is_an_error_naming_sample_and_field():
    record = make_records()[1]
    del record["gt_answer"]
    with pytest.raises(FillInputError) as info:
        fill_labels([make_records()[0], record], LexicalJudge(), needs={"answer2response"})
    assert isinstance(info.value, InputError)
    assert "sample 1 (query_id 'q2')" in str(info.value) and "field 'gt_answer'" in str(info.value)


def test_a_matrix_of_the_wrong_shape_is_an_error():
    record = make_records()[0]
    record["response_claims"] = [["a", "b", "c"]]
    record["retrieved2response"] = [["Entailment"]]  # one passage short
    with pytest.raises(FillInputError, match="field 'retrieved2response'.*one label per passage"):
        fill_labels([record], LexicalJudge(), needs={"retrieved2response"})
    record["answer2response"] = ["Entailment", "Neutral"]
    with pytest.raises(FillInputError, match="field 'answer2response': has 2 entries but there are 1 claims"):
        fill_labels([record], LexicalJudge(), needs={"answer2response"})


def test_unknown_needs_are_refused():
    with pytest.raises(ValueError, match="unknown needs"):
        fill_labels(make_records(), LexicalJudge(), needs={"precision"})


def test_unjudged_extraction_leaves_claims_missing_with_reasons_then_resumes(make_judge, chat_server):
    chat_server.script.always_malformed = True
    judge = make_judge()
    records = make_records()[:1]
    filled = fill_labels(records, judge, needs={"answer2response", "response_claim_labels"}, progress=False)[0]
    assert filled.get("response_claims") is None and "answer2response" not in filled
    notes = {n["field"]: n for n in filled["unjudged"]}
    assert set(notes) == {"response_claims", "answer2response", "response_claim_labels"}
    assert "unreadable answer" in notes["response_claims"]["reason"]
    assert notes["answer2response"]["reason"] == "response_claims are unjudged"

    chat_server.script.always_malformed = False
    resumed = fill_labels([filled], judge, needs={"answer2response", "response_claim_labels"}, progress=False)[0]
    assert resumed["answer2response"] == ["Entailment", "Contradiction"]
    assert resumed["unjudged"] == []


def test_unjudged_labels_are_none_with_their_index(make_judge, chat_server):
    record = make_records()[0]
    record["response_claims"] = [["Paris", "is", "the capital of France"], ["Lyon", "never", "hosted the Olympics"]]
    chat_server.script.always_malformed = True
    filled = fill_labels([record], make_judge(check_batch_size=1), needs={"retrieved2response"}, progress=False)[0]
    assert filled["retrieved2response"] == [[None, None], [None, None]]
    assert sorted(tuple(n["index"]) for n in filled["unjudged"]) == [(0, 0), (0, 1), (1, 0), (1, 1)]


@pytest.mark.parametrize("batch", [1, 2, 4])
def test_plan_fill_counts_exactly_the_requests_the_fill_sends(make_judge, chat_server, batch):
    judge = make_judge(check_batch_size=batch)
    plan = plan_fill(make_records(), judge)
    assert chat_server.script.requests == 0
    assert plan.estimated_texts == 4  # every sentence of these texts is one claim, as the dry run assumes
    fill_labels(make_records(), judge, progress=False)
    spent = chat_server.script.requests
    assert plan.calls == spent == judge.stats.requests
    assert plan.by_operation["extract"].calls == 4

    plan = plan_fill(make_records(), judge)
    assert (plan.calls, plan.estimated_texts) == (0, 0)
    assert plan.cached == plan.judgements > 0
    assert chat_server.script.requests == spent


def test_plan_fill_sizes_checks_from_cached_claims(make_judge):
    judge = make_judge(check_batch_size=4)
    fill_labels(make_records(), judge, needs={"response_claims", "gt_answer_claims"}, progress=False)
    plan = plan_fill(make_records(), judge, needs={"answer2response"})
    assert (plan.calls, plan.cached, plan.estimated_texts) == (2, 2, 0)
    assert {op: p.calls for op, p in plan.by_operation.items()} == {"extract": 0, "check": 2}


def test_labels_with_user_instructions(make_judge):
    record = make_records()[0]
    record["response_claims"] = [["Paris", "is", "the capital of France"], ["Lyon", "never", "hosted the Olympics"]]
    record["response_claim_labels"] = ["OPTIONAL", None]
    filled = fill_labels(
        [record],
        make_judge(),
        needs={"response_claim_labels", "gt_answer_claim_labels"},
        labeling_instructions="EVERY CLAIM IS REQUIRED.",
        progress=False,
    )[0]
    assert filled["response_claim_labels"] == ["OPTIONAL", "REQUIRED"]  # the given label is kept
    assert filled["gt_answer_claim_labels"] == ["REQUIRED", "REQUIRED"]


def test_extraction_instructions_reach_the_prompt(make_judge):
    filled = fill_labels(
        make_records()[:1],
        make_judge(),
        needs={"response_claims"},
        extraction_instructions="Return ONLY THE FIRST CLAIM.",
        progress=False,
    )[0]
    assert filled["response_claims"] == [["Paris", "is", "the capital of France"]]


def test_fact_judge_fills_from_authored_facts():
    record = {
        "query": "When does the Harbor Museum open and what does it cost?",
        "gt_answer": "Tuesday at 10:00, 4 credits.",
        "response": "It opens Tuesday and costs nothing.",
        "response_claims": [{"text": "Opens Tuesday", "facts": ["day"]}, {"text": "Free", "facts": ["free"]}],
        "gt_answer_claims": [{"text": "Tuesday", "facts": ["day"]}, {"text": "10:00", "facts": ["time"]}],
        "retrieved_context": [
            {"doc_id": "D1", "text": "Opens Tuesday at 10:00.", "facts": ["day", "time"]},
            {"doc_id": "D2", "text": "Admission is 4 credits.", "facts": ["fee"]},
        ],
    }
    filled = fill_labels([record], FactJudge(), needs=set(MATRICES))[0]
    assert filled["retrieved2response"] == [["Entailment", "Neutral"], ["Neutral", "Neutral"]]
    assert filled["retrieved2answer"] == [["Entailment", "Neutral"], ["Entailment", "Neutral"]]
    assert filled["answer2response"] == ["Entailment", "Neutral"]
    assert filled["response2answer"] == ["Entailment", "Neutral"]
    assert filled["response_claims"] == record["response_claims"]


def test_precomputed_judge_round_trips_complete_records():
    complete = fill_labels(make_records(), LexicalJudge(), progress=False)
    bare = make_records()
    judge = PrecomputedJudge.from_records(complete)
    refilled = fill_labels(bare, judge, needs=set(MATRICES) | {"response_claims", "gt_answer_claims"})
    for got, want in zip(refilled, complete):
        for field in MATRICES + ("response_claims", "gt_answer_claims"):
            assert got[field] == want[field], field


@pytest.mark.parametrize("field, value", [("response_claim_labels", ["REQUIRED", None]),
                                          ("retrieved2response", [["Entailment", None]])])
def test_labels_given_without_their_claims_are_refused_before_any_request(make_judge, chat_server, field, value):
    record = make_records()[0]
    record[field] = value
    with pytest.raises(FillInputError, match=f"{field}.*not response_claims"):
        fill_labels([record], make_judge(), progress=False)
    with pytest.raises(FillInputError, match=field):
        plan_fill([record], make_judge())
    assert chat_server.script.requests == 0


def test_a_missing_passage_list_is_found_before_the_extractions_are_spent(make_judge, chat_server):
    records = make_records()
    del records[1]["retrieved_context"]
    with pytest.raises(FillInputError, match="q2.*retrieved_context"):
        fill_labels(records, make_judge(), progress=False)
    assert chat_server.script.requests == 0
