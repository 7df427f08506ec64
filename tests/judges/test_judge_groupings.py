"""Grouping notes into failure modes with an LLM judge, over a real HTTP server on 127.0.0.1 (the
loopback chat server of conftest.py, replying scripted texts): a good reply proposed and cached,
a malformed or hostile one an error naming what was wrong, never cached, never half-proposed."""

from __future__ import annotations

import json

import pytest

from ragwidgets.analysis.groupings import JUDGE_NOTE_CHARS, JUDGE_NOTES, propose_with_judge
from ragwidgets.judges import JudgeError, LexicalJudge
from ragwidgets.notes import Note, Notes

TEXTS = ["the date is wrong", "retrieved passages are irrelevant", "wrong year in the date",
         "refuses to answer", "irrelevant passage retrieved"]
NOTES = Notes([Note(f"q{i}", t) for i, t in enumerate(TEXTS)] + [Note("t", "tagged already", tags=("done",)),
                                                                 Note("c", "a claim's note", claim=1)])
GOOD = {"groups": [{"name": "wrong date", "notes": [1, 3]}, {"name": "irrelevant passages", "notes": [5, 2, 6]}]}


def reply(value) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def test_a_good_reply_is_proposed_largest_first_and_cached(chat_server, make_judge):
    judge = make_judge()
    chat_server.script.replies.append(f"<think>two modes</think>```json\n{reply(GOOD)}\n```")
    proposals = propose_with_judge(NOTES, judge)
    assert [(p.name, p.keys, p.source, p.terms) for p in proposals] == [
        ("irrelevant passages", (("q1", None), ("q4", None), ("c", 1)), "judge", ()),
        ("wrong date", (("q0", None), ("q2", None)), "judge", ())]
    assert proposals[0].why == "fake-judge-1 put 3 notes here (of the 6 notes asked)"
    (body,) = chat_server.script.bodies
    system, user = (m["content"] for m in body["messages"])
    assert "failure modes" in system and user.startswith("Make at most 8 groups.")
    assert user.endswith("\n".join(f"{i}. {t}" for i, t in enumerate(TEXTS + ["a claim's note"], start=1)))
    assert "tagged already" not in user
    assert propose_with_judge(NOTES, judge) == proposals  # from the cache: no new request
    assert chat_server.script.requests == 1 and judge.stats.cache_hits == 1


def test_a_reply_that_fails_is_asked_again_and_the_valid_one_used(chat_server, make_judge):
    chat_server.script.replies.extend([reply({"groups": [{"name": "x", "notes": [9]}]}), reply(GOOD)])
    assert len(propose_with_judge(NOTES, make_judge())) == 2
    assert chat_server.script.requests == 2


@pytest.mark.parametrize("answer, wrong", [
    ("Sure! Here are the groups: [wrong date, 1", "no JSON in the answer"),
    ({"groups": [{"name": "wrong date", "notes": [1, 7]}]}, "group 1 names note 7, not a note number 1 to 6"),
    ({"groups": [{"name": "wrong date", "notes": [0]}]}, "group 1 names note 0, not a note number 1 to 6"),
    ({"groups": [{"name": "a", "notes": [True]}]}, "group 1 names note True"),
    ({"groups": [{"name": "a", "notes": ["1"]}]}, "group 1 names note '1'"),
    ({"groups": [{"name": "bad\u0007tag", "notes": [1]}]}, "group 1's name: a tag has no control characters"),
    ({"groups": [{"name": "x" * 81, "notes": [1]}]}, "group 1's name: a tag is 1 to 80 characters"),
    ({"groups": [{"name": 3, "notes": [1]}]}, "group 1's name: a tag is a string"),
    ({"groups": [{"name": "a", "notes": [1, 2]}, {"name": "b", "notes": [2]}]}, "note 2 is in group 1 and group 2"),
    ({"groups": [{"name": "a", "notes": [1, 1]}]}, "group 1 names note 1 twice"),
    ({"groups": [{"name": "a", "notes": [1]}, {"name": " a ", "notes": [2]}]}, "group 2's name 'a' names an earlier"),
    ({"groups": [{"name": "a", "notes": []}]}, "group 1's notes are not a non-empty list"),
    ({"groups": [{"name": "a"}]}, 'group 1 is not an object with "name" and "notes"'),
    ({"groups": [{"name": f"g{k}", "notes": [k]} for k in range(1, 4)]}, "3 groups, more than the 2 asked for"),
    ({"modes": []}, "expected {\"groups\": [...]} or a list of groups, got dict"),
])
def test_a_reply_that_does_not_validate_is_an_error_never_cached(chat_server, make_judge, answer, wrong):
    judge = make_judge(max_retries=0)
    chat_server.script.replies.append(reply(answer))
    with pytest.raises(JudgeError, match="fake-judge-1 gave no valid group answer: unreadable answer: ") as err:
        propose_with_judge(NOTES, judge, max_groups=2)
    assert wrong in str(err.value)
    chat_server.script.replies.append(reply(GOOD))
    assert len(propose_with_judge(NOTES, judge, max_groups=2)) == 2  # nothing was cached: asked again
    assert chat_server.script.requests == 2


def test_html_and_odd_spacing_in_a_name_are_kept_as_text(chat_server, make_judge):
    chat_server.script.replies.append(reply([{"name": "<b>wrong</b>  date <script>x()</script>", "notes": [1, 3]}]))
    (proposal,) = propose_with_judge(NOTES, make_judge())
    assert proposal.name == "<b>wrong</b> date <script>x()</script>"


def test_what_is_sent_is_bounded_and_what_is_left_out_said(chat_server, make_judge):
    notes = Notes([Note(f"q{i}", f"note {i}\nline two " + "x" * 1000) for i in range(JUDGE_NOTES + 30)])
    chat_server.script.replies.append(reply({"groups": [{"name": "long", "notes": [1, 2]}]}))
    with pytest.warns(UserWarning, match=r"first \d+ of 230 untagged notes \(\d+ left out"):
        (proposal,) = propose_with_judge(notes, make_judge())
    lines = chat_server.script.bodies[0]["messages"][1]["content"].split("\n")[3:]
    assert len(lines) == 40_000 // JUDGE_NOTE_CHARS < JUDGE_NOTES
    assert lines[0] == "1. " + ("note 0 line two " + "x" * 1000)[:JUDGE_NOTE_CHARS]
    assert proposal.why.endswith(f"(of the {len(lines)} notes asked, {230 - len(lines)} untagged notes left out)")


def test_fewer_than_two_notes_ask_nothing_and_a_judge_without_a_chat_is_refused(chat_server, make_judge):
    assert propose_with_judge(Notes([Note("a", "one note")]), make_judge()) == []
    assert chat_server.script.requests == 0
    with pytest.raises(TypeError, match="LexicalJudge cannot group notes"):
        propose_with_judge(NOTES, LexicalJudge())
