"""SampleExplorer's picker: a search answered from Python; the view's size does not grow with the run."""

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.widgets import SampleExplorer
from ragwidgets.widgets._picker import parse_search

LABELS = ("Entailment", "Neutral")


def run(n: int, seed: int = 0) -> list:
    """``n`` small labelled samples; every seventh asks about a river."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        k = 1 + i % 3

        def labels(*shape):
            return rng.choice(LABELS, size=shape).tolist()
        out.append(rw.parse_sample({
            "query_id": f"q{i}", "query": f"Question {i} about the {'river' if i % 7 == 0 else 'museum'}?",
            "gt_answer": "A.", "response": "B.",
            "retrieved_context": [{"doc_id": f"d{j}", "text": "t"} for j in range(k)],
            "response_claims": [["s", "p", f"o{j}"] for j in range(2)], "gt_answer_claims": [["s", "p", "o"]],
            "answer2response": labels(2), "response2answer": labels(1),
            "retrieved2response": labels(2, k), "retrieved2answer": labels(1, k)}))
    return out


@pytest.fixture(scope="module")
def samples():
    return run(700)


def test_search_by_words_and_metric_conditions_matches_the_engine(samples):
    e = SampleExplorer(samples)
    frame = rw.evaluate(samples).frame
    got = e.search("river faithfulness<0.5", limit=1000)
    want = [i for i, s in enumerate(samples) if "river" in s.query and frame["faithfulness"].iat[i] < 0.5]
    assert got["matches"] == len(want) > 0
    assert [r["index"] for r in got["rows"]] == want
    assert got["rows"][0]["metrics"]["faithfulness"] == round(float(frame["faithfulness"].iat[want[0]]), 3)
    assert e.search("q12")["rows"][0]["query_id"] == "q12"  # the id is searched too
    undefined = e.search("precision=undefined", limit=1000)
    assert undefined["matches"] == int(frame["precision"].isna().sum())
    assert e.search("river", limit=5)["matches"] == 100 and len(e.search("river", limit=5)["rows"]) == 5


def test_bad_searches_say_what_is_wrong(samples):
    with pytest.raises(ValueError, match="unknown metric 'faithfulnes'"):
        parse_search("faithfulnes<0.5", ["faithfulness"])
    with pytest.raises(ValueError, match="only = and != compare with undefined"):
        parse_search("precision > undefined", ["precision"])
    assert parse_search("Museum  recall >= 0.5", ["recall"]).conditions == [("recall", ">=", 0.5)]


def test_the_search_message_round_trip(samples, monkeypatch):
    e = SampleExplorer(samples)
    sent = []
    monkeypatch.setattr(e, "send", sent.append)
    e._handle_custom_msg({"type": "search", "text": "river", "request": 7}, [])
    assert sent[-1]["type"] == "results" and sent[-1]["request"] == 7 and sent[-1]["matches"] == 100
    e._handle_custom_msg({"type": "search", "text": "nope<1", "request": 8}, [])
    assert sent[-1] == {"type": "results", "request": 8, "error": sent[-1]["error"]}
    assert "unknown metric 'nope'" in sent[-1]["error"]


def test_the_view_does_not_grow_with_the_run(samples):
    small, big = SampleExplorer(samples[:20], sample_index=3), SampleExplorer(samples, sample_index=3)
    assert abs(len(big._view.json) - len(small._view.json)) < 10  # "4 of 20" vs "4 of 700"
    assert big.view["controls"]["picker"] == {"index": 3, "total": 700, "query_id": "q3",
                                              "query": samples[3].query}
    assert SampleExplorer(samples[:1]).view["controls"]["picker"] is None


def test_opened_on_scores_at_a_query_id(samples):
    scores = rw.evaluate(samples)
    e = SampleExplorer(scores, query_id="q42")
    assert e.sample_index == 42 and e.sample.query_id == "q42"
    assert e.metrics == scores.metrics(42)
    assert e.search("river")["matches"] == 100
    with pytest.raises(KeyError, match="q9999"):
        SampleExplorer(scores, query_id="q9999")
    assert SampleExplorer(samples, query_id="q5").sample_index == 5


def test_a_closed_explorer_frees_its_run_and_keeps_a_bounded_number_of_views(samples):
    """No gc.freeze() in the kernel (it kept every object then alive, this explorer included, out of
    the collector's reach for the kernel's life); the views of the last VIEWS samples shown are kept."""
    import gc
    import weakref

    from ragwidgets.widgets.explorer import VIEWS
    frozen = gc.get_freeze_count()
    e = SampleExplorer(samples * 15)  # 10,500 samples: a large run
    assert gc.get_freeze_count() == frozen
    for i in range(VIEWS + 10):
        e.sample_index = i
    assert len(e._views) == VIEWS and list(e._views)[-1] == VIEWS + 9
    e.sample_index = VIEWS + 9 - (VIEWS - 1)  # the oldest kept: used again, now the newest
    assert list(e._views)[-1] == 10 and len(e._views) == VIEWS
    gone = weakref.ref(e)
    e.close()
    del e
    gc.collect()
    assert gone() is None
