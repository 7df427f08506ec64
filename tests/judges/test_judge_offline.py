"""The offline judges (lexical baseline, authored facts, precomputed answers) and the registry."""

from __future__ import annotations

import pytest

from ragwidgets.judges import (
    FactJudge,
    Judge,
    JudgeError,
    JudgeCache,
    LexicalJudge,
    PrecomputedJudge,
    UnknownJudgeError,
    get_judge,
    register_judge,
    registered_judges,
    unregister_judge,
)


def test_lexical_extraction_cuts_sentences_at_the_linking_verb():
    judge = LexicalJudge()
    claims = judge.extract_claims("The Nile is the longest river. It flows into the Mediterranean! Yes.")
    assert claims == [
        {"subject": "The Nile", "predicate": "is", "object": "the longest river"},
        {"subject": "It", "predicate": "flows", "object": "into the Mediterranean"},
    ]


def test_lexical_check_is_token_overlap_against_a_threshold():
    reference = "The Nile, about 6,650 km long, flows north into the Mediterranean Sea."
    claims = [
        ["The Nile", "flows into", "the Mediterranean Sea"],  # all content tokens present
        ["The Nile", "is", "6,650 km long in Egypt"],  # 4 of 5 content tokens
        ["The Amazon", "is", "the longest river"],  # none
        ["It", "is", "the"],  # no content tokens: unjudged
    ]
    assert LexicalJudge(threshold=0.6).check(claims, reference) == ["Entailment", "Entailment", "Neutral", None]
    strict = LexicalJudge(threshold=0.9).check(claims, reference)
    assert strict[:3] == ["Entailment", "Neutral", "Neutral"]
    assert "content words" in strict.reasons[3]


def test_lexical_labels_by_shared_question_words():
    claims = [["The Nile", "is", "the longest river"], ["Egypt", "has", "pyramids"]]
    assert LexicalJudge().label_claims(claims, "Which river is the longest?") == ["REQUIRED", "OPTIONAL"]
    assert LexicalJudge().label_claims(claims, "") == [None, None]


def test_lexical_judge_is_documented_as_a_baseline():
    import ragwidgets.judges.lexical as module

    assert "baseline" in LexicalJudge.__doc__ and "not an LLM" in LexicalJudge.__doc__

    assert "not a language model" in module.__doc__


def test_fact_judge_entails_iff_all_facts_are_in_the_passage():
    passage = {"doc_id": "D1", "text": "Opens Tuesday at 10:00.", "facts": ["day", "time"]}
    claims = [
        {"text": "Opens Tuesday", "facts": ["day"]},
        {"text": "Opens Tuesday at 10", "facts": ["day", "time"]},
        {"text": "Costs 4 credits", "facts": ["fee"]},
        {"text": "Has benches", "facts": []},
        {"text": "No facts given"},
    ]
    labels = FactJudge().check(claims, passage)
    assert labels == ["Entailment", "Entailment", "Neutral", "Neutral", None]
    assert "no authored facts" in labels.reasons[4]
    assert FactJudge().check(claims[:1], "plain text") == [None]


def test_fact_judge_labels_from_authored_labels_and_cannot_extract():
    claims = [{"facts": ["day"], "label": "required"}, {"facts": ["x"], "label": "optional"}, {"facts": ["y"]}]
    assert FactJudge().label_claims(claims) == ["REQUIRED", "OPTIONAL", None]
    with pytest.raises(JudgeError, match="cannot extract"):
        FactJudge().extract_claims("The museum opens on Tuesday.")


def test_precomputed_judge_answers_only_what_it_was_given():
    judge = PrecomputedJudge(
        claims={"The sky is blue.": [["sky", "is", "blue"]]},
        checks={("sky is blue", "ref"): "Entailment", ("grass is red", "ref"): False},
        labels={("q", "sky is blue"): "required", "grass is red": "OPTIONAL"},
    )
    assert judge.extract_claims("The sky is blue.") == [["sky", "is", "blue"]]
    missing = judge.extract_claims("Something else.")
    assert not missing.judged and "no precomputed claims" in missing.failure
    labels = judge.check([["sky", "is", "blue"], "grass is red", "other"], "ref")
    assert labels == ["Entailment", "Neutral", None]
    assert judge.label_claims(["sky is blue", "grass is red", "other"], "q") == ["REQUIRED", "OPTIONAL", None]
    assert (judge.stats.calls, judge.stats.failures) == (4, 3)


def test_precomputed_conflicts_are_unjudged_not_guessed():
    records = [
        {"response": "r", "gt_answer": "g", "response_claims": [["a", "b", "c"]], "answer2response": ["Entailment"]},
        {"response": "r2", "gt_answer": "g", "response_claims": [["a", "b", "c"]], "answer2response": ["Neutral"]},
    ]
    labels = PrecomputedJudge.from_records(records).check([["a", "b", "c"]], "g")
    assert labels == [None] and "conflicting" in labels.reasons[0]


def test_offline_judges_can_use_the_cache(tmp_path):
    cache = JudgeCache(tmp_path / "c.sqlite")
    first = LexicalJudge(cache=cache)
    first.check(["Nile flows north"], "The Nile flows north.")
    second = LexicalJudge(cache=cache)
    assert second.check(["Nile flows north"], "The Nile flows north.") == ["Entailment"]
    assert (second.stats.calls, second.stats.cache_hits) == (0, 1)
    other_threshold = LexicalJudge(threshold=0.5, cache=cache)
    other_threshold.check(["Nile flows north"], "The Nile flows north.")
    assert other_threshold.stats.calls == 1


def test_every_judge_implements_the_protocol():
    for judge in (LexicalJudge(), FactJudge(), PrecomputedJudge()):
        assert isinstance(judge, Judge)


def test_registry_resolves_keys_and_lists_known_ones_on_a_miss():
    judge = LexicalJudge(threshold=0.8)
    try:
        assert register_judge("strict-lexical", judge) is judge
        assert get_judge("strict-lexical") is judge
        assert "lexical" in registered_judges() and "strict-lexical" in registered_judges()
        with pytest.raises(UnknownJudgeError) as info:
            get_judge("gpt-judge")
        assert "'gpt-judge'" in str(info.value) and "'lexical'" in str(info.value)
        assert "'strict-lexical'" in str(info.value)
        with pytest.raises(TypeError):
            register_judge("bad", object())
    finally:
        unregister_judge("strict-lexical")
    assert "strict-lexical" not in registered_judges()
