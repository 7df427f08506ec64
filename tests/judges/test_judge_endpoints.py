"""The judge under the faults of real endpoints, against the loopback server in conftest.py."""

from __future__ import annotations

import asyncio
import base64
import logging
import signal
import threading
import time

import pytest

from ragwidgets.judges import (CheckJob, ExtractJob, JudgeInterrupted, JudgeRunStopped, OpenAICompatibleJudge,
                               fill_labels, plan_fill)
from ragwidgets.judges.secrets import FRAGMENT

REFERENCE = "Paris is the capital of France and the Seine flows through Paris."


def records(n: int, bad: tuple[int, ...] = (), city: str = "City") -> list[dict]:
    """``n`` raw samples; the responses of those in ``bad`` hold the server's reject marker."""
    return [{"query_id": f"s{i}", "query": f"What is true of {city} {i}?",
             "gt_answer": f"{city} {i} has a harbor.",
             "response": f"{city} {i} has a harbor{' TOO LONG' if i in bad else ''}.",
             "retrieved_context": [{"doc_id": f"d{i}", "text": f"{city} {i} has a harbor and a museum."}]}
            for i in range(n)]


# -- 1. a request a retry cannot fix ---------------------------------------------------------------

def test_a_400_for_one_row_leaves_that_row_unjudged_with_the_servers_reason_and_the_run_goes_on(
        make_judge, chat_server):
    chat_server.script.reject_marker = "TOO LONG"
    judge = make_judge()
    filled = fill_labels(records(6, bad=(3,)), judge, needs={"response_claims", "retrieved2response"}, progress=False)
    assert [r.get("unjudged") for r in filled[:3] + filled[4:]] == [None] * 5
    assert [r["retrieved2response"] for r in filled[:3]] == [[["Entailment"]]] * 3
    note, blocked = filled[3]["unjudged"]
    assert note["field"] == "response_claims" and "HTTP 400" in note["reason"]
    assert "maximum context length" in note["reason"]
    assert blocked == {"field": "retrieved2response", "index": None, "reason": "response_claims are unjudged"}
    assert chat_server.script.requests == 6 + 5  # the 400 is not retried
    assert judge.stats.failures == 1 and judge.stats.retries == 0

    rerun = make_judge()  # a rerun answers the rest from the cache and asks only the bad row again
    fill_labels(records(6, bad=(3,)), rerun, needs={"response_claims", "retrieved2response"}, progress=False)
    assert (rerun.stats.requests, rerun.stats.failures) == (1, 1)


def test_more_failures_than_the_threshold_stop_the_run_with_a_summary_keeping_finished_work(
        make_judge, chat_server):
    chat_server.script.reject_marker = "TOO LONG"
    judge = make_judge(max_failures=1, max_concurrency=1)
    judge.max_jobs_in_flight = 1  # jobs in order, so the third bad row comes after the good ones
    with pytest.raises(JudgeRunStopped) as stop:
        fill_labels(records(12, bad=(2, 5, 11)), judge, needs={"response_claims"}, progress=False)
    message = str(stop.value)
    assert "2 calls failed, more than max_failures=1" in message
    assert "sample 's2' (response_claims): the server refused the request: HTTP 400" in message
    assert "sample 's5'" in message and "6 of 12 jobs had finished" in message
    assert chat_server.script.requests == 6  # nothing after the stop
    assert [r is not None for r in stop.value.results] == [True] * 6 + [False] * 6
    assert len(judge.cache) == 4  # the four answered extractions are kept


# -- 2. interrupts ------------------------------------------------------------------------------------

@pytest.mark.parametrize("inside_a_loop", [False, True], ids=["script", "notebook-loop"])
def test_an_interrupt_stops_new_requests_within_a_second_and_raises_with_what_finished(
        make_judge, chat_server, inside_a_loop, python_sigint):
    chat_server.script.delay = 0.05
    judge = make_judge(max_concurrency=2)
    jobs = [CheckJob([f"claim {i}"], f"claim {i}") for i in range(400)]
    main = threading.main_thread().ident
    sent = {}

    def press_ctrl_c():
        while chat_server.script.requests < 10:
            time.sleep(0.005)
        sent["at"] = time.monotonic()
        signal.pthread_kill(main, signal.SIGINT)

    async def cell():  # a notebook cell: sync code while the kernel's loop runs
        return judge.run(jobs)

    def kernel():  # like ipykernel: a running loop, and Ctrl-C raises KeyboardInterrupt in the cell's code
        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(cell())
        finally:
            loop.close()

    threading.Thread(target=press_ctrl_c, daemon=True).start()
    with pytest.raises(JudgeInterrupted) as info:
        kernel() if inside_a_loop else judge.run(jobs)
    stopped = time.monotonic() - sent["at"]
    requests = chat_server.script.requests
    time.sleep(0.3)
    assert chat_server.script.requests == requests  # nothing sent after the interrupt returned
    assert stopped < 1.0 and requests < 30
    assert isinstance(info.value, KeyboardInterrupt)
    finished = [r for r in info.value.results if r is not None]
    assert 5 <= len(finished) < 400 and all(r == ["Entailment"] for r in finished)
    assert f"{len(finished)} of 400 jobs had finished" in str(info.value)
    assert len(judge.cache) == len(finished)  # every finished answer is kept


# -- 3. one judge, many threads --------------------------------------------------------------------

def test_max_concurrency_holds_across_four_threads_and_their_loops_with_exact_counts(make_judge, chat_server):
    chat_server.script.delay = 0.03
    judge = make_judge(max_concurrency=4, check_batch_size=1)
    results, usages = {}, {}

    def work(t: int) -> None:
        results[t] = judge.run([CheckJob([f"claim {t} {i}"], f"claim {t} {i}") for i in range(12)])
        usages[t] = fill_labels(records(3, city=f"Town{t}"), judge, needs={"response_claims"}, progress=False).usage

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert chat_server.script.max_in_flight == 4
    assert all(r == [["Entailment"]] * 12 for r in results.values())
    assert sum(sum(x.usage.calls for x in r) for r in results.values()) == 48
    assert [(u.calls, u.requests, u.cache_hits) for u in usages.values()] == [(3, 3, 0)] * 4  # each its own work
    assert judge.stats.requests == judge.stats.calls == chat_server.script.requests == 48 + 12


# -- 4. validated answers only ---------------------------------------------------------------------

def test_a_think_block_with_a_draft_answer_does_not_win(make_judge, chat_server):
    chat_server.script.fault_next("think", "think")
    judge = make_judge()
    assert judge.check(["Paris is the capital of France"], REFERENCE) == ["Entailment"]
    assert judge.extract_claims("Paris is the capital of France.", "q") == [
        {"subject": "Paris", "predicate": "is", "object": "the capital of France"}]
    assert chat_server.script.requests == 2


@pytest.mark.parametrize("job, answer", [
    (CheckJob(["Paris is the capital of France", "Seine flows through Paris"], REFERENCE), ["Entailment"] * 2),
    (ExtractJob("Paris is the capital of France.", "q"), [{"subject": "Paris", "predicate": "is",
                                                           "object": "the capital of France"}]),
])
def test_a_wrong_count_is_asked_again_with_backoff_and_only_the_valid_answer_is_cached(
        make_judge, chat_server, job, answer):
    chat_server.script.fault_next("wrong-count", "wrong-count")
    judge = make_judge()
    assert judge.run([job]) == [answer]
    assert chat_server.script.requests == 3 and judge.stats.retries == 2
    assert sum(judge.stats.retry_reasons.values()) == 2
    assert all("unreadable answer" in why for why in judge.stats.retry_reasons)
    again = make_judge()
    assert again.run([job]) == [answer] and again.stats.requests == 0


def test_persistently_wrong_counts_are_unjudged_and_never_cached(make_judge, chat_server):
    chat_server.script.fault_next(*["wrong-count"] * 4)
    judge = make_judge(max_retries=3)
    result = judge.extract_claims("Paris is the capital of France.", "q")
    assert not result.judged and "no claims extracted from a text that is not blank" in result.failure
    assert len(judge.cache) == 0 and chat_server.script.requests == 4


# -- 5. an echoing proxy ------------------------------------------------------------------------------

@pytest.mark.parametrize("fault", ["echo", "echo-header"])
def test_an_echoing_proxy_never_gets_a_piece_of_the_key_into_a_reason_or_a_log(make_judge, chat_server, api_secret,
                                                                               caplog, fault):
    caplog.set_level(logging.DEBUG)  # the HTTP client logs response headers, echoed key and all
    chat_server.script.fault_next(fault)
    judge = make_judge()
    result = judge.check(["Paris is the capital of France"], REFERENCE)
    reason = result.reasons[0]
    assert "HTTP 400" in reason and "upstream rejected" in reason and "Bearer ***" in reason
    if fault == "echo-header":
        assert "x-echo-authorization: bearer ***" in reason.lower()
    texts = reason + repr(result) + caplog.text
    pieces = {api_secret[i : i + FRAGMENT] for i in range(len(api_secret) - FRAGMENT + 1)}
    assert not [p for p in pieces if p in texts]


# -- 6. a trickling response ----------------------------------------------------------------------------

def test_a_trickling_response_is_cut_at_the_total_deadline(make_judge, chat_server):
    chat_server.script.fault_next("trickle")
    judge = make_judge(timeout=0.6, max_retries=1)
    started = time.monotonic()
    assert judge.check(["Paris is the capital of France"], REFERENCE) == ["Entailment"]  # the retry answers
    assert time.monotonic() - started < 5  # the trickle alone would take minutes (0.2 s a byte)
    assert list(judge.stats.retry_reasons) == ["no complete answer within 0.6 s"]


# -- 7. cost before spending -----------------------------------------------------------------------------

def test_the_dry_run_estimates_tokens_and_prices_them(make_judge, chat_server):
    judge = make_judge(price_per_input_token=2e-6, price_per_output_token=8e-6, check_batch_size=2)
    plan = plan_fill(records(4), judge)
    assert plan.prompt_tokens > 0 and plan.completion_tokens > 0
    assert plan.cost == pytest.approx(plan.prompt_tokens * 2e-6 + plan.completion_tokens * 8e-6)
    table = plan.table()
    assert list(table.index) == ["extract", "check", "label", "total"]
    assert table.loc["total", "calls"] == plan.calls and table.loc["total", "cost"] == pytest.approx(plan.cost)
    assert "in cost" in str(plan) and chat_server.script.requests == 0
    fill_labels(records(4), judge, progress=False)
    assert chat_server.script.requests == plan.calls
    spent = plan_fill(records(4), judge)
    assert (spent.calls, spent.prompt_tokens, spent.cost) == (0, 0, 0)


# -- 8, 9. exact usage; malformed and empty answers retried like transient faults ------------------

def test_usage_counts_requests_retries_and_every_replys_tokens(make_judge, chat_server):
    chat_server.script.fault_next(429, "empty-choices", "malformed", "not-json")
    judge = make_judge(max_retries=4)
    result = judge.check(["Paris is the capital of France"], REFERENCE)
    assert result == ["Entailment"]
    assert (result.usage.calls, result.usage.requests, result.usage.retries) == (1, 5, 4)
    assert (judge.stats.calls, judge.stats.requests, judge.stats.retries) == (1, 5, 4)
    assert [judge.stats.prompt_tokens, judge.stats.completion_tokens] == chat_server.script.tokens  # empty choices too
    assert result.usage.prompt_tokens == judge.stats.prompt_tokens
    assert set(judge.stats.retry_reasons) == {
        "HTTP 429", "the response is not a chat completion (no choices)",
        "unreadable answer: no JSON in the answer: Sure! Here are the labels: [Entailment, Neutral"}
    assert judge.stats.retry_reasons["the response is not a chat completion (no choices)"] == 2


# -- 10. credentials and configuration ----------------------------------------------------------------

def test_credentials_in_the_url_are_sent_as_basic_auth_and_never_shown(chat_server):
    url = chat_server.base_url.replace("http://", "http://judge:p%40ss-word-77@")
    judge = OpenAICompatibleJudge("m", url, cache=None, progress=False)
    assert judge.check(["a b c"], "a b c") == ["Entailment"]
    assert chat_server.script.authorization == ["Basic " + base64.b64encode(b"judge:p@ss-word-77").decode()]
    assert "p@ss" not in repr(judge) and "p%40ss" not in repr(judge) and "api_key=<basic>" in repr(judge)


def test_credentials_in_the_url_and_a_key_are_refused(chat_server, api_secret):
    url = chat_server.base_url.replace("http://", "http://judge:pass@")
    with pytest.raises(ValueError, match="user and password and an API key"):
        OpenAICompatibleJudge("m", url, api_key=api_secret, cache=None, progress=False)


def test_the_openai_key_goes_only_to_openai_unless_the_variable_is_named(chat_server, monkeypatch, api_secret):
    monkeypatch.setenv("OPENAI_API_KEY", api_secret)
    local = OpenAICompatibleJudge("m", chat_server.base_url, cache=None, progress=False)
    local.check(["a b c"], "a b c")
    assert chat_server.script.authorization == [None] and "api_key=<none>" in repr(local)
    named = OpenAICompatibleJudge("m", chat_server.base_url, api_key_env="OPENAI_API_KEY", cache=None, progress=False)
    named.check(["d e f"], "d e f")
    assert chat_server.script.authorization[-1] == f"Bearer {api_secret}"
    hosted = OpenAICompatibleJudge("gpt-4o-mini", "https://api.openai.com/v1", cache=None, progress=False)
    assert "api_key=<set>" in repr(hosted)


@pytest.mark.parametrize("option, value", [("max_concurrency", 0), ("timeout", 0), ("check_batch_size", 0),
                                           ("max_failures", -1), ("price_per_input_token", -1.0),
                                           ("max_retries", 1.5)])
def test_a_configuration_that_cannot_work_is_refused_before_any_request(make_judge, chat_server, option, value):
    with pytest.raises(ValueError, match=option):
        make_judge(**{option: value})
    assert chat_server.script.requests == 0
