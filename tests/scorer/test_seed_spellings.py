"""RagChecker configurations as users write them — f1_score, the template class names,
TemplateValue columns."""

from __future__ import annotations

import pytest

import ragwidgets as rw
from ragwidgets.judges import LexicalJudge
from ragwidgets.scoring import MeanMetricTemplate, ScoringInputError, TemplateValue


def judge():
    return LexicalJudge(cache=None, progress=False)


def test_f1_score_is_written_as_f1_score_and_takes_a_metric_template(frame):
    scorer = rw.RagChecker(scores_to_compute=["f1_score", "recall"], mode="required_and_optional",
                           metrics=[{"type": "MeanMetricTemplate", "score": "f1_score"},
                                    {"type": "F1ScoreMetricTemplate", "score": "required_f1_score",
                                     "label_column": "ok"},
                                    MeanMetricTemplate(score="f1", key="mean_f1_engine_name")])
    assert scorer.score_columns == ("f1_score", "recall", "required_f1_score", "required_recall")
    result = scorer.score(frame.assign(ok=[True, False]), judge())
    assert list(result.scores.columns) == list(scorer.score_columns)
    assert set(result.metrics) == {"mean_f1_score", "f1_score_required_f1_score", "mean_f1_engine_name"}
    assert result.metrics["mean_f1_engine_name"].value == result.metrics["mean_f1_score"].value
    assert result.metrics["mean_f1_score"].value == pytest.approx(result.scores["f1_score"].mean())
    assert "f1_score" in result.to_ragchecker()["results"][0]["metrics"]
    assert rw.RagChecker(scores_to_compute=["f1"]).score_columns == ("f1",)


def test_an_unknown_template_type_names_both_spellings():
    with pytest.raises(ValueError, match="unknown metric type 'MedianMetricTemplate'.*'MeanMetricTemplate'"):
        rw.RagChecker(metrics=[{"type": "MedianMetricTemplate", "score": "recall"}])


def test_template_values_fill_columns_and_instructions_from_each_row(frame):
    frame = frame.rename(columns={"query": "question"}).assign(topic=["capitals", "rivers"])
    scorer = rw.RagChecker(query_column=TemplateValue("{{ topic }}: {{ question }}"),
                           context_column={"template": "{{ context }}"},
                           judge_model_key=TemplateValue("lexical"),
                           claim_extraction_instructions=TemplateValue("The text is about {{ topic }}."),
                           scores_to_compute=["faithfulness"])
    assert scorer.judge_model_key == "lexical"
    result = scorer.score(frame, judge())
    assert [r["query"] for r in result.records] == ["capitals: What is the capital of France?",
                                                    "rivers: Which river flows through Paris?"]
    assert result.records[1]["retrieved_context"][0]["text"] == "The Seine flows through Paris in France."
    assert result.scores["faithfulness"].notna().all()


def test_template_values_are_checked_before_any_work(frame):
    with pytest.raises(ScoringInputError, match="column 'topic': the DataFrame has no such column; "
                                                "TemplateValue\\('\\{\\{ topic \\}\\}: \\{\\{ query \\}\\}'\\) reads it"):
        rw.RagChecker(query_column=TemplateValue("{{ topic }}: {{ query }}")).dry_run(frame, judge())
    with pytest.raises(ValueError, match="judge_model_key holds for the whole run"):
        rw.RagChecker(judge_model_key=TemplateValue("{{ judge }}"))
    with pytest.raises(ValueError, match="only \\{\\{ column \\}\\} placeholders"):
        TemplateValue("{{ query | upper }}")
