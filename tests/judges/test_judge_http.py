"""OpenAICompatibleJudge against the fake chat-completions server in conftest.py."""

from __future__ import annotations

import asyncio
import math

import pytest

from ragwidgets.judges import CheckJob, ExtractJob, JudgeCache, JudgeRequestError, LabelJob

TEXT = "Paris is the capital of France. The Seine flows through Paris. Lyon never hosted the Olympics."
REFERENCE = "Paris is the capital of France and the Seine flows through Paris."


def test_extract_then_check_end_to_end(make_judge, chat_server):
    judge = make_judge()
    claims = judge.extract_claims(TEXT, "What is the capital of France?")
    assert claims == [
        {"subject": "Paris", "predicate": "is", "object": "the capital of France"},
        {"subject": "The", "predicate": "Seine", "object": "flows through Paris"},
        {"subject": "Lyon", "predicate": "never", "object": "hosted the Olympics"},
    ]
    assert claims.judged
    labels = judge.check(claims, REFERENCE)
    assert labels == ["Entailment", "Entailment", "Contradiction"]
    assert chat_server.script.requests == 2
    body = chat_server.script.bodies[0]
    assert body["model"] == "fake-judge-1" and body["temperature"] == 0.0
    assert [m["role"] for m in body["messages"]] == ["system", "user"]


def test_passage_dicts_are_checked_by_their_text(make_judge):
    judge = make_judge()
    labels = judge.check(["Paris is the capital of France"], {"doc_id": "d1", "text": REFERENCE})
    assert labels == ["Entailment"]


def test_token_usage_per_call_and_in_total(make_judge):
    judge = make_judge()
    claims = judge.extract_claims(TEXT, "q")
    labels = judge.check(claims, REFERENCE)
    assert claims.usage.calls == 1 and claims.usage.prompt_tokens > 0 and claims.usage.completion_tokens > 0
    assert judge.stats.calls == 2
    assert judge.stats.prompt_tokens == claims.usage.prompt_tokens + labels.usage.prompt_tokens
    assert judge.stats.completion_tokens == claims.usage.completion_tokens + labels.usage.completion_tokens
    assert [c.operation for c in judge.stats.per_call] == ["extract", "check"]
    assert sum(c.prompt_tokens for c in judge.stats.per_call) == judge.stats.prompt_tokens


def test_joint_checking_batches_claims(make_judge, chat_server):
    judge = make_judge(check_batch_size=4)
    claims = [f"Paris is claim {i}" for i in range(10)]
    labels = judge.check(claims, "Paris is claim 0 1 2 3")
    assert labels[:4] == ["Entailment"] * 4 and labels[4:] == ["Neutral"] * 6
    assert chat_server.script.requests == math.ceil(10 / 4)


def test_fenced_json_answers_are_read(make_judge, chat_server):
    chat_server.script.fence = True
    assert make_judge().check(["Paris is the capital of France"], REFERENCE) == ["Entailment"]


def test_second_run_is_answered_by_the_cache(make_judge, chat_server, tmp_path):
    first = make_judge()
    claims = first.extract_claims(TEXT, "q")
    first.check(claims, REFERENCE)
    first.label_claims(claims, "capital of France")
    assert chat_server.script.requests == 3

    second = make_judge()  # a new judge on the same cache file, as after a restart
    assert second.extract_claims(TEXT, "q") == claims
    assert second.check(claims, REFERENCE) == ["Entailment", "Entailment", "Contradiction"]
    assert second.label_claims(claims, "capital of France") == ["REQUIRED", "OPTIONAL", "OPTIONAL"]
    assert chat_server.script.requests == 3
    assert second.stats.calls == 0
    assert second.stats.cache_hits == 1 + 3 + 1


def test_cache_key_depends_on_model_and_instructions(make_judge, chat_server):
    make_judge().extract_claims(TEXT, "q")
    make_judge(model="another-model").extract_claims(TEXT, "q")
    make_judge().extract_claims(TEXT, "q", instructions="Be brief.")
    assert chat_server.script.requests == 3


def test_concurrency_bound_is_respected(make_judge, chat_server):
    chat_server.script.delay = 0.05
    judge = make_judge(max_concurrency=3, check_batch_size=1)
    jobs = [CheckJob([f"claim number {i}"], f"reference {i}") for i in range(12)]
    results = judge.run(jobs)
    assert len(results) == 12 and all(r == ["Neutral"] for r in results)
    assert chat_server.script.requests == 12
    assert chat_server.script.max_in_flight == 3


@pytest.mark.parametrize("fault", [429, 500, "drop", "slow"])
def test_transient_faults_are_retried_then_succeed(make_judge, chat_server, fault):
    chat_server.script.fault_next(fault, fault)
    judge = make_judge(timeout=0.3)
    assert judge.check(["Paris is the capital of France"], REFERENCE) == ["Entailment"]
    assert chat_server.script.requests == 3
    assert judge.stats.per_call[0].attempts == 3
    assert judge.stats.failures == 0


def test_retries_are_capped_and_the_failure_is_not_cached(make_judge, chat_server):
    chat_server.script.fault_next(*[503] * 3)
    judge = make_judge(max_retries=2)
    result = judge.check(["Paris is the capital of France"], REFERENCE)
    assert result == [None]
    assert "HTTP 503" in result.reasons[0] and "3 attempts" in result.reasons[0]
    assert chat_server.script.requests == 3
    assert judge.stats.failures == 1
    assert len(judge.cache) == 0
    # the next run resumes: the unjudged claim is asked again
    assert judge.check(["Paris is the capital of France"], REFERENCE) == ["Entailment"]
    assert chat_server.script.requests == 4


def test_a_malformed_answer_is_asked_again(make_judge, chat_server):
    chat_server.script.fault_next("malformed")
    judge = make_judge()
    assert judge.check(["Paris is the capital of France"], REFERENCE) == ["Entailment"]
    assert chat_server.script.requests == 2


def test_a_body_that_is_not_a_chat_completion_counts_as_malformed(make_judge, chat_server):
    chat_server.script.fault_next("not-json")
    assert make_judge().check(["Paris is the capital of France"], REFERENCE) == ["Entailment"]
    assert chat_server.script.requests == 2


def test_persistently_malformed_answers_are_unjudged_and_not_cached(make_judge, chat_server):
    chat_server.script.always_malformed = True
    judge = make_judge(check_batch_size=2)
    labels = judge.check(["a b c", "d e f", "g h i"], REFERENCE)
    assert labels == [None, None, None]
    assert all("unreadable answer" in labels.reasons[i] for i in range(3))
    claims = judge.extract_claims(TEXT, "q")
    assert not claims.judged and list(claims) == [] and "unreadable" in claims.failure
    assert chat_server.script.requests == 3 * 4  # two batches and one extraction, each asked 1 + max_retries times
    assert judge.stats.failures == 3
    assert len(judge.cache) == 0
    assert judge.dry_run([CheckJob(["a b c"], REFERENCE)]).calls == 1


def test_client_errors_are_raised_not_retried(make_judge, chat_server):
    judge = make_judge(base_url=chat_server.base_url.replace("/v1", "/nowhere"))
    with pytest.raises(JudgeRequestError, match="HTTP 404"):
        judge.check(["a b c"], REFERENCE)
    assert chat_server.script.requests == 1


def test_labelling_required_and_optional(make_judge):
    judge = make_judge()
    claims = [["Paris", "is", "the capital of France"], ["Seine", "flows", "through Paris"], ["Lyon", "has", "silk"]]
    labels = judge.label_claims(claims, "What is the capital of France?")
    assert labels == ["REQUIRED", "OPTIONAL", "OPTIONAL"]
    forced = judge.label_claims(claims, "What is the capital of France?", instructions="EVERY CLAIM IS REQUIRED.")
    assert forced == ["REQUIRED"] * 3


def test_user_instructions_are_appended_to_the_system_prompt(make_judge, chat_server):
    judge = make_judge()
    claims = judge.extract_claims(TEXT, "q", instructions="Return ONLY THE FIRST CLAIM.")
    assert len(claims) == 1
    system = chat_server.script.bodies[-1]["messages"][0]["content"]
    assert system.startswith("You break a text into atomic factual claims")
    assert system.endswith("Additional instructions from the user:\nReturn ONLY THE FIRST CLAIM.")


def test_dry_run_counts_calls_and_cache_answers_before_spending(make_judge, chat_server):
    judge = make_judge(check_batch_size=2)
    jobs = [
        ExtractJob(TEXT, "q"),
        CheckJob(["a b c", "d e f", "g h i"], REFERENCE),
        LabelJob(["a b c"], "question"),
    ]
    plan = judge.dry_run(jobs)
    assert (plan.judgements, plan.cached, plan.calls) == (5, 0, 1 + 2 + 1)
    assert chat_server.script.requests == 0
    judge.check(["a b c"], REFERENCE)
    plan = judge.dry_run(jobs)
    assert (plan.judgements, plan.cached, plan.calls) == (5, 1, 1 + 1 + 1)
    assert "3 model calls" in str(plan)


def test_async_api_shares_the_bound_across_gathered_calls(make_judge, chat_server):
    chat_server.script.delay = 0.05
    judge = make_judge(max_concurrency=2)

    async def main():
        return await asyncio.gather(*(judge.acheck([f"claim {i}"], f"ref {i}") for i in range(6)))

    assert len(asyncio.run(main())) == 6
    assert chat_server.script.max_in_flight == 2


def test_default_cache_lives_in_the_user_cache_dir(chat_server, tmp_path, monkeypatch):
    from ragwidgets.judges import OpenAICompatibleJudge, default_cache_path

    monkeypatch.setenv("RAGWIDGETS_CACHE_DIR", str(tmp_path / "cache"))
    judge = OpenAICompatibleJudge("m", chat_server.base_url, progress=False, backoff=0.001)
    assert isinstance(judge.cache, JudgeCache)
    assert judge.cache.path == default_cache_path() == tmp_path / "cache" / "judge_cache.sqlite"
    judge.check(["a b c"], "a b c")
    assert (tmp_path / "cache" / "judge_cache.sqlite").exists()
    assert OpenAICompatibleJudge("m", chat_server.base_url, cache=None).cache is None


def test_an_interrupted_run_resumes_from_the_cache(make_judge, chat_server):
    chat_server.script.delay = 0.03
    judge = make_judge(max_concurrency=1)
    jobs = [CheckJob([f"claim {i}"], f"claim {i}") for i in range(10)]

    async def interrupted():
        task = asyncio.ensure_future(judge.arun(jobs))
        while judge.stats.calls < 3:
            await asyncio.sleep(0.005)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(interrupted())
    answered = len(judge.cache)
    assert 3 <= answered < 10
    judge.stats.reset()
    assert judge.run(jobs) == [["Entailment"]] * 10
    assert (judge.stats.calls, judge.stats.cache_hits) == (10 - answered, answered)


def test_a_negative_retry_count_is_refused(make_judge, chat_server):
    with pytest.raises(ValueError, match="max_retries"):
        make_judge(max_retries=-1)  # it would make no request at all and leave everything unjudged
    assert chat_server.script.requests == 0
