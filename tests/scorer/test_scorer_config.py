"""RagChecker's configuration: defaults, validation, the requirement map, reprs."""

from __future__ import annotations

import pytest

import ragwidgets as rw
from ragwidgets.scoring import MeanMetricTemplate, PythonMetricTemplate, RagChecker, judge_needs


def test_defaults_follow_the_seed():
    scorer = RagChecker(judge_model_key="lexical")
    assert scorer.type == "rag_checker" and scorer.purpose == "score" and scorer.mode == "all_claims"
    assert (scorer.query_column, scorer.target_column, scorer.response_column, scorer.context_column) == (
        "query", "target", "response", "context")
    assert scorer.scores == rw.RAGCHECKER_METRICS and len(scorer.scores) == 11
    assert [m.name for m in scorer.aggregations] == [f"mean_{s}" for s in rw.RAGCHECKER_METRICS]
    assert rw.RagChecker is RagChecker


def test_repr_shows_what_differs_from_the_defaults():
    assert repr(RagChecker(judge_model_key="lexical")) == "RagChecker(judge_model_key='lexical')"
    scorer = RagChecker(judge_model_key="gpt", target_column=None, scores_to_compute=["faithfulness"],
                        metrics=[MeanMetricTemplate(score="faithfulness", key="avg")], display_name="Faith")
    assert repr(scorer) == ("RagChecker(judge_model_key='gpt', target_column=None, "
                            "scores_to_compute=('faithfulness',), "
                            "display_name='Faith', metrics=(MeanMetricTemplate(score='faithfulness', key='avg'),))")


def test_unknown_scores_are_a_clear_error():
    with pytest.raises(ValueError, match=r"unknown score\(s\) 'faithfullness'.*known: precision, recall"):
        RagChecker(scores_to_compute=["faithfullness"])
    with pytest.raises(TypeError, match="not a string"):
        RagChecker(scores_to_compute="faithfulness")
    with pytest.raises(ValueError, match="empty"):
        RagChecker(scores_to_compute=[])


def test_f1_score_is_the_seeds_name_for_f1():
    assert RagChecker(scores_to_compute=["f1_score", "recall"]).scores == ("f1", "recall")


def test_without_a_target_only_target_free_scores():
    assert RagChecker(target_column=None).scores == ("faithfulness",)
    with pytest.raises(ValueError, match=r"target_column is None, but 'precision', 'claim_recall' need\(s\) a target"):
        RagChecker(target_column=None, scores_to_compute=["faithfulness", "precision", "claim_recall"])
    with pytest.raises(ValueError, match="target_claims_column cannot be used"):
        RagChecker(target_column=None, target_claims_column="gt_claims")


@pytest.mark.parametrize("options, message", [
    (dict(mode="required"), "mode must be one of all_claims, required_only, required_and_optional"),
    (dict(purpose="grade"), "purpose must be one of score, qa"),
    (dict(type="model_scorer"), "type must be 'rag_checker'"),
    (dict(query_column=""), "query_column must be a non-empty string"),
    (dict(context_column=None), "context_column must be a non-empty string, got None"),
    (dict(metrics=[MeanMetricTemplate(score="precision")], scores_to_compute=["recall"]),
     "aggregates 'precision', which this scorer does not compute; it computes recall"),
    (dict(metrics=[MeanMetricTemplate(score="recall"), MeanMetricTemplate(score="recall")]),
     "metric keys must be unique; repeated: mean_recall"),
    (dict(metrics=[{"type": "median", "score": "recall"}]), "unknown metric type 'median'"),
    (dict(metrics=MeanMetricTemplate(score="recall")), "metrics must be a list"),
])
def test_bad_configurations(options, message):
    with pytest.raises((ValueError, TypeError), match=message):
        RagChecker(**options)


def test_metrics_from_dicts_and_the_required_prefix():
    scorer = RagChecker(mode="required_and_optional", scores_to_compute=["recall"],
                        metrics=[{"type": "mean", "score": "required_recall"}, {"type": "max", "score": "recall"}])
    assert scorer.score_columns == ("recall", "required_recall")
    assert [m.name for m in scorer.metrics] == ["mean_required_recall", "max_recall"]


def test_the_configuration_is_frozen():
    scorer = RagChecker()
    with pytest.raises(AttributeError):
        scorer.mode = "required_only"


def test_requirement_map():
    assert judge_needs(["faithfulness"], "all_claims") == {"response_claims", "retrieved2response"}
    assert judge_needs(["faithfulness"], "required_only") == {
        "response_claims", "retrieved2response", "response_claim_labels"}
    assert judge_needs(["precision"], "all_claims") == {"response_claims", "answer2response"}
    assert judge_needs(["context_precision"], "required_only") == {
        "gt_answer_claims", "retrieved2answer", "gt_answer_claim_labels"}
    assert judge_needs(["noise_sensitivity_in_relevant"], "all_claims") == {
        "response_claims", "gt_answer_claims", "retrieved2response", "answer2response", "retrieved2answer"}


def test_python_metric_template_takes_a_callable_and_never_imports_a_name(monkeypatch):
    import statistics
    import sys

    from ragwidgets.scoring.aggregations import as_template

    template = PythonMetricTemplate(score="recall", function=statistics.median)
    assert repr(template) == f"PythonMetricTemplate(score='recall', function={statistics.median!r})"
    monkeypatch.delitem(sys.modules, "this", raising=False)  # importing 'this' prints; a config must not run it
    for spec in ({"type": "python", "score": "recall", "function": "this:s"},
                 {"type": "PythonMetricTemplate", "score": "recall", "function": "statistics:median"}):
        with pytest.raises(ValueError, match="is a name, and a configuration does not import code"):
            as_template(spec)
    assert "this" not in sys.modules
    with pytest.raises(ValueError, match="function must be a callable"):
        PythonMetricTemplate(score="recall", function=3)
