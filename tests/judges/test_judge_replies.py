"""Replies cut short, numbered answers, oversized bodies, a server that is down or refuses the key."""

from __future__ import annotations

import socket
import tracemalloc
from email.utils import formatdate

import pytest

from ragwidgets.judges import CheckJob, ExtractJob, JudgeRequestError
from ragwidgets.judges.answers import ENTAILMENT_SYNONYMS, final_answer, find_json, parse_labels
from ragwidgets.judges.errors import AnswerParseError

REFERENCE = "Paris is the capital of France and the Seine flows through Paris."
CLAIMS = ["Paris is the capital of France", "Lyon never hosted the Olympics", "Rome is big"]
LABELS = ["Entailment", "Contradiction", "Neutral"]


def free_port_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


# -- a reply cut short, reasoning left open --------------------------------------------------------

@pytest.mark.parametrize("fault", ["length", "think-cut", "think-open"])
def test_a_reply_cut_short_or_left_in_its_reasoning_is_retried(make_judge, chat_server, fault):
    chat_server.script.fault_next(fault, fault)
    judge = make_judge()
    assert judge.check(CLAIMS, REFERENCE) == LABELS
    assert judge.extract_claims("Paris is the capital of France.", "q") == [
        {"subject": "Paris", "predicate": "is", "object": "the capital of France"}]
    assert chat_server.script.requests == 4 and judge.stats.retries == 2
    why = "cut short" if fault != "think-open" else "not closed"
    assert all(why in reason for reason in judge.stats.retry_reasons)


@pytest.mark.parametrize("fault", ["length", "think-cut"])
def test_a_reply_always_cut_short_is_undefined_with_the_reason_and_never_cached(make_judge, chat_server, fault):
    chat_server.script.fault_next(*[fault] * 8)
    judge = make_judge(max_retries=3, max_tokens=64)
    labels = judge.check(CLAIMS, REFERENCE)
    assert labels == [None] * 3
    assert 'cut short (finish_reason "length")' in labels.reasons[0] and "max_tokens=64" in labels.reasons[0]
    assert "4 attempts" in labels.reasons[0]
    claims = judge.extract_claims("Paris is the capital of France.", "q")
    assert not claims.judged and "cut short" in claims.failure
    assert len(judge.cache) == 0 and judge.stats.failures == 2
    assert judge.stats.completion_tokens > 0  # what a cut reply cost is still counted


def test_json_inside_reasoning_is_never_the_answer():
    with pytest.raises(AnswerParseError, match="<think> block is not closed"):
        final_answer('<think>Draft: ["Neutral"]. Now the')
    with pytest.raises(AnswerParseError, match="<reasoning> block is not closed"):
        find_json('<think>a</think> ["Entailment"] <reasoning>["Neutral"]')
    with pytest.raises(AnswerParseError, match="no JSON"):
        find_json('<think>["Neutral"]</think> I cannot tell.')
    assert find_json('draft ["Neutral"] </think> more ["Neutral"] </think> ["Entailment"]') == ["Entailment"]


# -- numbered answers --------------------------------------------------------------------------------

def test_numbered_labels_are_assigned_by_their_numbers():
    reordered = '[{"claim": 2, "label": "Neutral"}, {"claim": "1", "label": "Entailment"}]'
    assert parse_labels(reordered, 2, ENTAILMENT_SYNONYMS) == ["Entailment", "Neutral"]
    assert parse_labels('{"2": "Neutral", "1": "Entailment"}', 2, ENTAILMENT_SYNONYMS) == ["Entailment", "Neutral"]
    assert parse_labels('{"labels": {"2": "Neutral", "1": "Entailment"}}', 2,
                        ENTAILMENT_SYNONYMS) == ["Entailment", "Neutral"]
    by_text = '[{"claim": "Paris is big", "label": "Neutral"}, {"claim": "Rome", "label": "Entailment"}]'
    assert parse_labels(by_text, 2, ENTAILMENT_SYNONYMS) == ["Neutral", "Entailment"]  # not numbers: in order


@pytest.mark.parametrize("answer", [
    '[{"claim": 1, "label": "Neutral"}, {"claim": 1, "label": "Entailment"}]',  # a duplicate
    '[{"claim": 0, "label": "Neutral"}, {"claim": 1, "label": "Entailment"}]',  # zero
    '[{"claim": 1, "label": "Neutral"}, {"claim": 3, "label": "Entailment"}]',  # a gap, out of range
    '[{"claim": 1, "label": "Neutral"}, {"label": "Entailment"}]',  # numbered in part
    '{"1": "Neutral", "3": "Entailment"}',
    '{"2": "Neutral"}',
], ids=["duplicate", "zero", "gap", "partly", "dict-gap", "dict-one"])
def test_numbers_that_are_not_one_to_n_are_refused(answer):
    n = 1 if answer == '{"2": "Neutral"}' else 2
    with pytest.raises(AnswerParseError, match="numbered"):
        parse_labels(answer, n, ENTAILMENT_SYNONYMS)


def test_reordered_numbered_labels_from_the_server_land_on_their_claims(make_judge, chat_server):
    chat_server.script.fault_next("numbered-reversed", "numbered-reversed")
    judge = make_judge()
    assert judge.check(CLAIMS, REFERENCE) == LABELS
    assert judge.label_claims(CLAIMS, "Where is the capital of France?") == ["REQUIRED", "OPTIONAL", "OPTIONAL"]
    assert chat_server.script.requests == 2
    assert make_judge().check(CLAIMS, REFERENCE) == LABELS  # and so they were cached


@pytest.mark.parametrize("fault", ["numbered-duplicate", "numbered-zero", "numbered-beyond"])
def test_wrongly_numbered_labels_are_retried_and_never_cached(make_judge, chat_server, fault):
    chat_server.script.fault_next(*[fault] * 4)
    judge = make_judge(max_retries=3)
    labels = judge.check(CLAIMS, REFERENCE)
    assert labels == [None] * 3 and "numbered" in labels.reasons[0] and "4 attempts" in labels.reasons[0]
    assert len(judge.cache) == 0
    assert judge.check(CLAIMS, REFERENCE) == LABELS and len(judge.cache) == 3


# -- the size of a reply -----------------------------------------------------------------------------

@pytest.mark.parametrize("fault", ["gzip-bomb", "endless"])
def test_a_reply_over_max_reply_bytes_is_a_failed_attempt_read_no_further(make_judge, chat_server, fault):
    chat_server.script.fault_next(fault)
    judge = make_judge(max_reply_bytes=1 << 20)
    tracemalloc.start()
    try:
        assert judge.check(CLAIMS, REFERENCE) == LABELS  # the retry answers
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20  # the bomb inflates to 32 MiB, the endless body to anything
    assert list(judge.stats.retry_reasons) == ["the reply is over max_reply_bytes=1048576 bytes (decoded)"]


def test_compressed_replies_are_read(make_judge, chat_server):
    chat_server.script.fault_next("gzip", "deflate")
    judge = make_judge()
    assert judge.check(CLAIMS, REFERENCE) == LABELS and judge.check(CLAIMS[:1], "Paris is the capital of France")
    assert chat_server.script.requests == 2 and judge.stats.retries == 0


def test_a_reply_always_over_the_limit_is_undefined_with_the_reason(make_judge, chat_server):
    chat_server.script.fault_next(*["gzip-bomb"] * 2)
    judge = make_judge(max_reply_bytes=1 << 20, max_retries=1)
    labels = judge.check(CLAIMS[:1], REFERENCE)
    assert labels == [None] and "over max_reply_bytes" in labels.reasons[0] and len(judge.cache) == 0


def test_max_reply_bytes_must_be_a_positive_whole_number(make_judge):
    for value in (0, 1.5, None):
        with pytest.raises(ValueError, match="max_reply_bytes"):
            make_judge(max_reply_bytes=value)
    assert make_judge().max_reply_bytes >= 1 << 20  # the default: far above any real answer


# -- a server that is down -----------------------------------------------------------------------------

def test_a_server_that_is_down_stops_the_run_naming_the_host(make_judge, api_secret):
    url = free_port_url()
    judge = make_judge(base_url=url, max_retries=2)
    stop = r"could not reach 127\.0\.0\.1:\d+ \(Connection refused\) after 3 attempts: is the server at http://"
    with pytest.raises(JudgeRequestError, match=stop + r"127\.0\.0\.1:\d+/v1 running\?") as info:
        judge.run([CheckJob([f"claim {i}"], f"claim {i}") for i in range(20)])
    assert api_secret not in str(info.value) and "answers received are in the cache" in str(info.value)


def test_a_server_going_down_mid_run_stops_it_and_keeps_the_finished_answers(make_judge, chat_server):
    chat_server.script.down_after = 3
    judge = make_judge(max_concurrency=1, max_retries=1)
    judge.max_jobs_in_flight = 1  # jobs in order
    jobs = [CheckJob([f"claim {i}"], f"claim {i}") for i in range(10)]
    with pytest.raises(JudgeRequestError, match="could not reach 127.0.0.1"):
        judge.run(jobs)
    assert chat_server.script.requests == 3 and len(judge.cache) == 3


# -- a refused key on a run of many jobs -------------------------------------------------------------------

@pytest.mark.parametrize("concurrency", [1, 2, 4, 8])
@pytest.mark.parametrize("status", [401, 403, 405])
def test_a_refused_key_stops_a_run_of_many_jobs_with_no_new_request(make_judge, chat_server, api_secret,
                                                                   status, concurrency):
    chat_server.script.refuse_with = status
    judge = make_judge(max_concurrency=concurrency, check_batch_size=1)
    jobs = [CheckJob([f"claim {i}"], f"claim {i}") for i in range(40)]
    with pytest.raises(JudgeRequestError, match=f"HTTP {status}") as info:
        judge.run(jobs)
    assert api_secret not in str(info.value) and "Incorrect API key" in str(info.value)
    assert chat_server.script.requests <= judge.stats.requests <= concurrency  # in flight: sent, maybe cancelled
    if concurrency == 1:
        assert chat_server.script.requests == 1


# -- Retry-After, HTML error pages, replies without usage --------------------------------------------------

@pytest.mark.parametrize("header, expected", [("0.004", 0.004), ("120", 0.05), ("-3", 0.0),
                                              (formatdate(usegmt=True), 0.0), ("in a while", None)],
                         ids=["seconds", "capped", "negative", "http-date", "unreadable"])
def test_retry_after_is_honoured_within_backoff_max(make_judge, chat_server, header, expected):
    chat_server.script.fault_next(("retry-after", header))
    judge = make_judge(backoff=0.001, backoff_max=0.05)
    delays = []
    delay = judge._delay

    def spy(attempt, retry_after):
        delays.append((retry_after, delay(attempt, retry_after)))
        return delays[-1][1]

    judge._delay = spy
    assert judge.check(CLAIMS[:1], REFERENCE) == ["Entailment"]
    assert [d[0] for d in delays] == [header] and list(judge.stats.retry_reasons) == ["HTTP 429"]
    if expected is None:  # the usual backoff
        assert 0.0005 <= delays[0][1] <= 0.001
    else:
        assert delays[0][1] == pytest.approx(expected, abs=1e-3 if "GMT" in header else 1e-9)


def test_a_retry_after_date_far_ahead_is_capped(make_judge):
    judge = make_judge(backoff_max=0.05)
    assert judge._delay(0, "Fri, 31 Dec 2100 23:59:59 GMT") == 0.05


@pytest.mark.parametrize("status", [413, 422])
def test_an_html_error_page_gives_a_readable_reason(make_judge, chat_server, status):
    chat_server.script.fault_next(("html", status))
    judge = make_judge()
    labels = judge.check(CLAIMS[:1], REFERENCE)
    reason = labels.reasons[0]
    phrase = "Request Entity Too Large" if status == 413 else "Unprocessable Entity"
    assert reason == f"the server refused the request: HTTP {status}: {status} {phrase}"
    assert chat_server.script.requests == 1 and len(judge.cache) == 0


def test_a_reply_without_usage_is_read(make_judge, chat_server):
    chat_server.script.fault_next("no-usage")
    judge = make_judge()
    labels = judge.check(CLAIMS, REFERENCE)
    assert labels == LABELS and labels.usage.failures == 0
    assert (judge.stats.prompt_tokens, judge.stats.completion_tokens) == (0, 0)  # none reported
    assert len(judge.cache) == 3


def test_only_validated_answers_reach_the_cache(make_judge, chat_server):
    chat_server.script.fault_next(*["think-open"] * 4, *["numbered-zero"] * 4)
    judge = make_judge(max_retries=3)
    results = judge.run([ExtractJob("Paris is the capital of France.", "q"), CheckJob(CLAIMS, REFERENCE)])
    assert not results[0].judged and results[1] == [None] * 3
    assert len(judge.cache) == 0
