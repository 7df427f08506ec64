"""What a ragas user holds, fed as it is: an ``EvaluationDataset`` of ``SingleTurnSample`` and the
``EvaluationResult`` that ``ragas.evaluate`` returns, built by tests/ragas_shapes.py with the
shape of ragas 0.4.3's classes (ragas itself is not installed: it pulls in langchain and openai).

Covered: ragwidgets reads these objects through their ``to_pandas()`` (so the class name in its
messages, a field left None being no column, the scores' columns beside the dataset's), maps
ragas' field names, keeps ragas' scores apart as the other tool's columns (NaN as missing), and
the explorer opens on them. Not covered: that the stand-ins still match a newer ragas release (a
ragas that changed its field names or ``to_pandas()`` would pass here), ``MultiTurnSample``,
pydantic's validation, and ``retrieved_context_ids``, which ragwidgets does not read as the
passages' ids (it names the field as unknown; the passages are numbered P1, P2, ...).
"""

import warnings

import numpy as np
import pytest
from ragas_shapes import EvaluationDataset, EvaluationResult

import ragwidgets as rw
from ragwidgets.errors import InputWarning
from ragwidgets.sources import read_run

ROWS = [{"user_input": "Who built it?", "response": "Ann built it. It is red.",
         "retrieved_contexts": ["Ann built the tower.", "It is red."], "retrieved_context_ids": ["d1", "d2"],
         "reference": "Ann built it."},
        {"user_input": "When?", "response": "In 1900.", "retrieved_contexts": ["A note."],
         "retrieved_context_ids": ["d3"]}]  # no reference: ragas leaves the field out
SCORES = [{"faithfulness": 0.5, "answer_relevancy": 0.9, "context_recall": 1.0},
          {"faithfulness": np.nan, "answer_relevancy": 0.2, "context_recall": 0.0}]


def test_an_evaluation_dataset_is_read_as_records_with_ragas_field_names_mapped():
    with pytest.warns(InputWarning, match=r"the EvaluationDataset read as ragas >= 0.2 columns: user_input -> query, "
                                          r"response -> response, retrieved_contexts -> retrieved_context, reference -> gt_answer"):
        run = read_run(EvaluationDataset.from_list(ROWS))
    first, second = run.records
    assert (first["query"], first["response"], first["gt_answer"]) == ("Who built it?", "Ann built it. It is red.", "Ann built it.")
    assert [p["text"] for p in first["retrieved_context"]] == ["Ann built the tower.", "It is red."]
    assert second["query"] == "When?" and "gt_answer" not in second  # a field ragas left None is no field
    assert run.external is None and run.tool == "ragas"


def test_an_evaluation_result_keeps_ragas_scores_apart_from_ours():
    result = EvaluationResult(scores=SCORES, dataset=EvaluationDataset.from_list(ROWS))
    with pytest.warns(InputWarning, match=r"the EvaluationResult read as .* kept apart as ragas columns \(not scored\): "
                                          r"faithfulness, answer_relevancy, context_recall"):
        scores = rw.evaluate(result)
    assert scores.external_tool == "ragas"
    assert scores.external.columns.tolist() == ["faithfulness", "answer_relevancy", "context_recall"]
    assert scores.external["answer_relevancy"].tolist() == result["answer_relevancy"] == [0.9, 0.2]
    assert np.isnan(scores.external["faithfulness"].iloc[1])  # ragas' NaN stays missing
    assert [s.query for s in scores.samples] == ["Who built it?", "When?"]
    assert scores.frame["faithfulness"].isna().all()  # ours: no claims or labels to score from


def test_the_explorer_opens_on_an_evaluation_result_with_ragas_scores_to_chart():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        explorer = rw.DatasetExplorer(EvaluationResult(scores=SCORES, dataset=EvaluationDataset.from_list(ROWS)))
    assert explorer.model.external == ["ragas_faithfulness", "answer_relevancy", "context_recall"]
    assert len(explorer.frame) == 2 and explorer.frame["query"].tolist() == ["Who built it?", "When?"]
