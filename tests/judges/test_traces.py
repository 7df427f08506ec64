"""Traces: the prompt and raw reply behind a label, kept in the cache and read back without a call."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from ragwidgets.errors import InputError
from ragwidgets.judges import (DirectoryCache, FactJudge, JudgeCache, LexicalJudge, PrecomputedJudge, Trace,
                               fill_labels, find_trace, trace_of)
from ragwidgets.judges.openai_compatible import _Received
from ragwidgets.loaders import parse_sample

_NAME = "ragwidgets_tests_judges_conftest"  # the fake server's module, as tests/scorer/conftest.py loads it
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, Path(__file__).parent / "conftest.py")
    sys.modules[_NAME] = _module = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_module)
fake_answer = sys.modules[_NAME].fake_answer  # the answer the server sends to a prompt (no fault)

RECORD = {
    "query_id": "q1",
    "query": "What is the capital of France?",
    "gt_answer": "Paris is the capital of France.",
    "response": "Paris is the capital. France has Lyon too. Lyon never hosted the games. Paris hosts museums.",
    "retrieved_context": [{"doc_id": "D1", "text": "Lyon is a city."},
                          {"doc_id": "D3", "text": "Paris is the capital of France and Paris hosts museums."}],
}


def _body_with(bodies: list, reference: str, claims: list[str]) -> dict:
    """The one request body that checked these claims (in this order) against this reference."""
    listed = "\n".join(f"{i}. {c}" for i, c in enumerate(claims, start=1))
    found = [b for b in bodies if b["messages"][1]["content"] == f"Reference:\n{reference}\n\nClaims:\n{listed}"]
    assert len(found) == 1, claims
    return found[0]


@pytest.mark.parametrize("as_sample", [False, True])
def test_a_batched_claim_has_the_exact_messages_and_reply_of_its_call(make_judge, chat_server, as_sample):
    judge = make_judge(check_batch_size=3)
    filled = fill_labels([RECORD], judge, progress=False)[0]
    sample = parse_sample(filled) if as_sample else filled
    claims = filled["response_claims"]
    assert len(claims) == 4  # two calls per passage: claims 0-2, then claim 3
    requests, usage = chat_server.script.requests, judge.stats.as_usage()
    for j, claim in enumerate(claims):
        trace = trace_of(judge, sample, "retrieved2response", j, "D3")
        passage = RECORD["retrieved_context"][1]["text"]
        batch = claims[:3] if j < 3 else claims[3:]
        body = _body_with(chat_server.script.bodies, passage, [" ".join(c) for c in batch])
        assert list(trace.messages) == body["messages"]  # as the server received them
        assert trace.reply == fake_answer(body["messages"][0]["content"], body["messages"][1]["content"])
        assert trace.label == filled["retrieved2response"][j][1] == json.loads(trace.reply)[j % 3]
        assert (trace.kind, trace.claim, trace.doc_id) == ("retrieved2response", j, "D3")
        assert trace.model == "fake-judge-1" and trace.prompt_version == judge.prompt_version("check")
        assert trace.finish_reason == "stop" and datetime.fromisoformat(trace.time).tzinfo is not None
        assert f"checked as claim {j % 3 + 1} of its call" in trace.note
    gt = trace_of(judge, sample, "response2answer", 0)
    assert gt.label == filled["response2answer"][0] and RECORD["response"] in gt.messages[1]["content"]
    extract = trace_of(judge, sample, "extract", 1, side="response")
    assert extract.label == {"subject": "France", "predicate": "has", "object": "Lyon too"}
    assert RECORD["response"] in extract.messages[1]["content"] and json.loads(extract.reply)[1] == extract.label
    assert chat_server.script.requests == requests and judge.stats.as_usage() == usage  # lookups call nothing


def test_a_reply_that_failed_validation_leaves_no_trace(make_judge, chat_server):
    judge = make_judge(max_retries=1)
    chat_server.script.fault_next("malformed", "think")  # the retry answers, after a wrong draft in <think>
    assert judge.check(["Paris is big"], "Paris is big").usage.requests == 2
    trace = trace_of(judge, {"query_id": "a", "gt_answer": "Paris is big", "response_claims": ["Paris is big"]},
                     "answer2response", 0)
    assert trace.reply.startswith("<think>A first draft") and "Sure!" not in trace.reply  # the validated one only

    chat_server.script.always_malformed = True
    record = {"query_id": "b", "gt_answer": "Rome is old", "response_claims": ["Rome is old"]}
    assert judge.check(["Rome is old"], "Rome is old") == [None]
    answer = find_trace(judge, record, "answer2response", 0)
    assert answer.trace is None and "holds no check answer" in answer.reason
    traces = [json.loads(row[0]) for row in sqlite3.connect(judge.cache.path).execute("SELECT value FROM traces")]
    calls = [t for t in traces if "reply" in t]  # the others: the system prompt, stored once
    assert len(calls) == 1 and len(traces) == 2 and "Sure!" not in json.dumps(traces)


@pytest.mark.parametrize("kind", ["sqlite", "directory"])
def test_an_answer_cached_before_traces_were_kept_still_answers_and_has_none(make_judge, chat_server, tmp_path, kind):
    probe = make_judge(cache=None)
    key = probe._check_key("Paris is big", "Paris is big")
    if kind == "sqlite":
        path = tmp_path / "old.sqlite"
        with sqlite3.connect(path) as conn:  # the schema before traces
            conn.execute("CREATE TABLE judgements (key TEXT PRIMARY KEY, operation TEXT NOT NULL, value TEXT NOT NULL,"
                         " created REAL NOT NULL)")
            conn.execute("INSERT INTO judgements VALUES (?, 'check', '\"Neutral\"', 0)", (key,))
        cache = JudgeCache(path)
    else:
        cache = DirectoryCache(tmp_path / "old")
        (cache.path / key[:2]).mkdir()
        (cache.path / key[:2] / f"{key}.json").write_text('{"operation": "check", "value": "Neutral", "created": 0}')
    judge = make_judge(cache=cache)
    assert judge.check(["Paris is big"], "Paris is big") == ["Neutral"] and chat_server.script.requests == 0
    record = {"query_id": "a", "gt_answer": "Paris is big", "response_claims": ["Paris is big"]}
    answer = find_trace(judge, record, "answer2response", 0)
    assert answer.trace is None and "judged before traces were kept" in answer.reason
    judge.check(["Rome is old"], "Rome is old")  # a new answer in the old file keeps its trace
    assert trace_of(judge, dict(record, gt_answer="Rome is old", response_claims=["Rome is old"]),
                    "answer2response", 0).label == "Entailment"


@pytest.mark.parametrize("kind", ["sqlite", "directory"])
def test_the_api_key_is_never_in_the_cache(make_judge, chat_server, api_secret, tmp_path, kind):
    cache = JudgeCache(tmp_path / "keys.sqlite") if kind == "sqlite" else DirectoryCache(tmp_path / "keys")
    judge = make_judge(cache=cache)
    filled = fill_labels([RECORD], judge, progress=False)[0]
    assert chat_server.script.authorization[-1] == f"Bearer {api_secret}"
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    data = b"".join(p.read_bytes() for p in files)
    assert b'"messages"' in data and b"Paris hosts museums" in data  # the bytes searched hold the traces
    assert api_secret.encode() not in data and b"Bearer" not in data and b"Authorization" not in data
    trace = trace_of(judge, filled, "retrieved2answer", 0, "D3")
    assert api_secret not in json.dumps(trace.to_json()) + str(trace) + trace._repr_html_()


def test_the_lexical_judge_explains_its_overlap():
    judge = LexicalJudge(threshold=0.6)
    record = {"query_id": "x", "gt_answer": "Paris is a city in France.",
              "response_claims": [["Paris", "is", "capital of France"], ["Lyon", "is", "capital of Spain"]]}
    entailed, neutral = (trace_of(judge, record, "answer2response", j) for j in (0, 1))
    assert entailed.label == "Entailment" == judge.check([record["response_claims"][0]], record["gt_answer"])[0]
    assert "2 of 3 content words" in entailed.note and "0.67 ≥ threshold 0.6" in entailed.note
    assert "Shared: france, paris; not found: capital" in entailed.note
    assert neutral.label == "Neutral" and "0 of 3" in neutral.note and "0.00 < threshold 0.6" in neutral.note
    assert entailed.messages == () and entailed.reply is None  # no prompt: a rule
    extract = trace_of(judge, {"query_id": "x", "response": "Paris is big. Rome is old."}, "extract")
    assert extract.label == [{"subject": "Paris", "predicate": "is", "object": "big"},
                             {"subject": "Rome", "predicate": "is", "object": "old"}]
    assert "2 claim(s): one per sentence" in extract.note


def test_the_fact_judge_names_the_facts_that_matched():
    record = {"query_id": "f", "query": "q", "gt_answer": "g", "response": "r",
              "response_claims": [{"text": "Opened 1901 by the mayor", "facts": ["F1", "F2"]},
                                  {"text": "Opened 1901", "facts": ["F1"]}],
              "retrieved_context": [{"doc_id": "D3", "text": "p", "facts": ["F1", "F3"]}]}
    judge = FactJudge()
    first, second = (trace_of(judge, parse_sample(record), "retrieved2response", j, "D3") for j in (0, 1))
    assert first.label == "Neutral" and "matched in the reference: F1" in first.note and "not in the reference: F2" in first.note
    assert second.label == "Entailment" and "all of its facts are the reference's" in second.note
    answer = find_trace(judge, record, "extract")
    assert answer.trace is None and "extracts no claims" in answer.reason


def test_the_precomputed_judge_says_the_label_was_given():
    record = dict(RECORD, response_claims=["Paris is the capital"], retrieved2response=[["Neutral", "Entailment"]])
    judge = PrecomputedJudge.from_records([record])
    trace = trace_of(judge, record, "retrieved2response", 0, "D3")
    assert trace.label == "Entailment" and "came from the input file" in trace.note
    assert find_trace(judge, record, "answer2response", 0).reason == "no precomputed label for this claim and reference"


def test_a_lookup_names_the_sample_and_field_it_cannot_find():
    judge = LexicalJudge()
    record = dict(RECORD, response_claims=["Paris is the capital"])
    with pytest.raises(InputError, match="sample 'q1', field 'response_claims': claim 5 is not an index"):
        trace_of(judge, record, "answer2response", 5)
    with pytest.raises(InputError, match="field 'retrieved_context': no retrieved passage has doc_id 'D9'"):
        trace_of(judge, record, "retrieved2response", 0, "D9")
    with pytest.raises(InputError, match="unknown label kind"):
        trace_of(judge, record, "answer2passage", 0)


def test_a_trace_shows_untrusted_text_as_text():
    trace = Trace("answer2response", 0, None, "Neutral", ({"role": "user", "content": "<script>x()</script>"},),
                  reply='["Neutral"] <img src=x onerror=y>', model="m", finish_reason="stop")
    page = trace._repr_html_()
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;x()&lt;/script&gt;" in page and "&lt;img src=x onerror=y&gt;" in page
    assert str(trace).splitlines() == ["answer2response, claim 0: Neutral (m)", "--- user ---", "<script>x()</script>",
                                       "--- reply (finish_reason stop) ---", '["Neutral"] <img src=x onerror=y>']
    assert json.loads(json.dumps(trace.to_json()))["messages"] == [{"role": "user", "content": "<script>x()</script>"}]


def test_a_reasoning_text_sent_beside_the_reply_is_kept(make_judge, api_secret):
    judge = make_judge()
    body = {"choices": [{"message": {"content": '["Neutral"]', "reasoning_content": f"No mention. {api_secret}"},
                         "finish_reason": "stop"}]}
    reply = judge._read_reply(_Received(200, httpx.Headers(), json.dumps(body).encode(), "utf-8"))
    trace = judge._trace([{"role": "user", "content": "u"}], reply)
    assert trace["reply"] == '["Neutral"]' and trace["reasoning"] == "No mention. ***"  # the key redacted


def test_keep_traces_false_caches_the_answers_only(make_judge, chat_server, tmp_path):
    judge = make_judge(keep_traces=False)
    filled = fill_labels([RECORD], judge, progress=False)[0]
    answer = find_trace(judge, filled, "retrieved2response", 0, "D3")
    assert answer.trace is None and "keep_traces=False" in answer.reason
    db = sqlite3.connect(tmp_path / "judge_cache.sqlite")
    assert db.execute("select count(*) from traces").fetchone()[0] == 0
    requests = chat_server.script.requests
    again = make_judge()  # the same cache: every answer a hit, and a judge that keeps traces adds none for them
    fill_labels([RECORD], again, progress=False)
    assert chat_server.script.requests == requests
