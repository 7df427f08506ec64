"""Comparing runs says when they were judged differently (another judge, other repeats), and
never when it cannot tell (issue 22, item 5)."""

import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets import analysis as A
from ragwidgets.analysis.compare import JudgeInfo, judge_info

E, N = "Entailment", "Neutral"


def records(label=E, repeats=None):
    out = []
    for i in range(3):
        r = {"query_id": f"q{i}", "query": f"question {i}", "response_claims": [["s", "p", "o"]],
             "answer2response": [label]}
        if repeats:
            r["label_repeats"] = {"answer2response": [[label]] * repeats}
        out.append(r)
    return out


def table(label=E):
    return A.run_table(rw.evaluate(records(label)))


def compare(base, other):
    return A.compare_runs({"base": table(), "new": table(N)}, judges={"base": base, "new": other})


def test_another_judge_is_said_beside_the_difference():
    c = compare(JudgeInfo("gpt-4o", 1), {"judge": "lexical", "repeats": 1})
    note = c.judge_notes["new"]
    assert note == ("judged differently: judge 'lexical', 1 repeat per label; "
                    "base: judge 'gpt-4o', 1 repeat per label")
    assert set(c.summary["judge_note"]) == {note}  # on every row of the run, beside its difference


def test_other_repeats_are_said_and_an_unknown_judge_is_spelt_unknown():
    c = compare(JudgeInfo(None, 1), JudgeInfo("gpt-4o", 3))
    assert c.judge_notes["new"] == ("judged differently: judge 'gpt-4o', 3 repeats per label; "
                                    "base: judge unknown, 1 repeat per label")


@pytest.mark.parametrize("base, other", [
    (JudgeInfo("gpt-4o", 3), JudgeInfo("gpt-4o", 3)),  # the same
    (JudgeInfo("gpt-4o", 3), JudgeInfo()),  # the new run says nothing: no difference can be claimed
    (JudgeInfo("gpt-4o", None), JudgeInfo(None, 3)),  # nothing known on both sides
    (None, None),
])
def test_no_note_where_no_known_field_differs(base, other):
    c = compare(base, other)
    assert c.judge_notes == {"new": ""} and set(c.summary["judge_note"]) == {""}


def test_judges_for_a_run_not_compared_is_an_error():
    with pytest.raises(ValueError, match=r"judges for run\(s\) 'other'"):
        A.compare_runs({"a": table(), "b": table()}, judges={"other": JudgeInfo("x")})


def test_judge_info_from_what_a_run_carries():
    assert judge_info(records(repeats=3)) == JudgeInfo(None, 3)
    assert judge_info({"results": records(repeats=2)}) == JudgeInfo(None, 2)
    assert judge_info(records()) == JudgeInfo()  # labels given in the input: nobody knows who judged them
    assert judge_info(rw.evaluate(records())) == JudgeInfo()
    assert judge_info("results.json") == JudgeInfo()
    rows = pd.DataFrame({"query": ["Where is the ferry?"], "target": ["The ferry leaves from pier 9."],
                         "response": ["The ferry leaves from pier 9."], "context": [["The ferry leaves from pier 9."]]})
    judged = rw.RagChecker(judge_model_key="lexical").score(rows)
    assert judge_info(judged) == JudgeInfo("lexical", 1)
    again = rw.RagChecker(judge_model_key="lexical").score(judged.frame)  # every label given: no judge work
    assert judge_info(again) == JudgeInfo()


def test_the_explorer_and_its_report_say_it(tmp_path):
    d = rw.DatasetExplorer({"base": records(), "new": records(N, repeats=3)})
    assert d.view_state["compare"]["judge_notes"] == {"new": ""}  # the baseline's repeats are unknown
    rows = pd.DataFrame({"query_id": [f"q{i}" for i in range(3)], "query": [f"question {i}" for i in range(3)],
                         "target": ["The ferry leaves from pier 9."] * 3, "response": ["The ferry leaves."] * 3,
                         "context": [["The ferry leaves from pier 9."]] * 3})
    judged = rw.RagChecker(judge_model_key="lexical").score(rows)
    d = rw.DatasetExplorer({"base": judged, "new": records(N, repeats=3)})
    note = d.view_state["compare"]["judge_notes"]["new"]
    assert note == "judged differently: judge unknown, 3 repeats per label; base: judge 'lexical', 1 repeat per label"
    page = d.to_html(tmp_path / "r.html").read_text(encoding="utf-8")
    assert "judged differently: judge unknown, 3 repeats per label; base: judge &#x27;lexical&#x27;" in page
