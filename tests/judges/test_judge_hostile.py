"""A hostile or careless server, on loopback (issue 33): replies cut inside a reasoning block of any
spelling, a server that echoes the credentials it was sent, one that answers the same question
differently when asked again; and the traces of repeats."""

from __future__ import annotations

import base64
import contextlib
import json
import time
from urllib.parse import quote

import pytest

from ragwidgets.cli import main
from ragwidgets.judges import CheckJob, ExtractJob, fill_labels, find_trace, trace_of
from ragwidgets.judges.answers import final_answer, find_json
from ragwidgets.judges.errors import AnswerParseError
from ragwidgets.judges.openai_compatible import _page_text
from ragwidgets.judges.repeats import fill_repeats, repeat_of
from ragwidgets.loaders import load_samples

CLAIMS = ["Paris is the capital of France.", "Lyon never hosted the Olympics.", "Paris is in Spain."]
REFERENCE = "Paris is the capital of France."
LABELS = ["Entailment", "Contradiction", "Neutral"]

# -- a reply cut inside its reasoning, of any spelling (item 12) --------------------------------------

OPENINGS = ["<seed:think>", '<think type="reasoning">', "◁think▷", "<|channel|>analysis<|message|>"]
CLOSED = ["<seed:think>draft [\"Neutral\"]</seed:think>", '<think type="x">draft ["Neutral"]</think>',
          "◁think▷draft [\"Neutral\"]◁/think▷", "<|channel|>analysis<|message|>draft [\"Neutral\"]<|end|>"]


@pytest.mark.parametrize("opening", OPENINGS)
def test_a_reasoning_block_left_open_in_any_spelling_holds_no_answer(opening):
    with pytest.raises(AnswerParseError, match="not closed"):
        final_answer(f'{opening}A first draft: ["Neutral"]. Let me check that against the')


@pytest.mark.parametrize("block", CLOSED)
def test_a_closed_reasoning_block_in_any_spelling_is_not_the_answer(block):
    assert find_json(f'{block}\n["Entailment"]') == ["Entailment"]
    with pytest.raises(AnswerParseError, match="no JSON"):
        find_json(f"{block} I cannot tell.")


def test_an_answer_after_a_harmony_final_channel_is_read():
    reply = ('<|channel|>analysis<|message|>Draft: ["Neutral"].<|end|><|start|>assistant<|channel|>final'
             '<|message|>["Entailment"]<|return|>')
    assert find_json(reply) == ["Entailment"]


def test_a_closing_seed_tag_whose_opening_was_left_out_ends_the_reasoning():
    assert find_json('draft ["Neutral"] </seed:think> ["Entailment"]') == ["Entailment"]


@pytest.mark.parametrize("reply, answer", [
    ('<think about it> ["Entailment"]', ["Entailment"]),  # not a tag: "about" and "it" are no attributes
    ('[{"claim": "Use <reasoning mode=fast> option"}]', [{"claim": "Use <reasoning mode=fast> option"}]),
    ('["contradiction: <think type=\\"a\\">"]', ['contradiction: <think type="a">']),
    ('["The </think> tag closes it"]', ["The </think> tag closes it"]),
    ('Here:\n```json\n["Use <think> tags"]\n```', ["Use <think> tags"]),
])
def test_a_tag_inside_an_answer_is_not_reasoning(reply, answer):
    assert find_json(reply) == answer


def test_reasoning_blocks_count_where_they_open_the_reply():
    assert find_json('  <think>a</think>\n<reasoning>b ["Neutral"]</reasoning> ["Entailment"]') == ["Entailment"]
    assert find_json('<think>a <think>b</think> ["Entailment"]') == ["Entailment"]  # the first closing ends it
    harmony = ('<|channel|>analysis<|message|>a<|end|><|start|>assistant<|channel|>analysis<|message|>["Neutral"]'
               '<|end|><|start|>assistant<|channel|>final<|message|>["Entailment"]<|return|>')
    assert find_json(harmony) == ["Entailment"]


# The hang guards below time this process's CPU (time.process_time), not the wall clock: a loaded
# machine (xdist workers, a browser) stretched a 0.3 s read to 2.8 s of wall time; a hang is CPU.
HOSTILE = {"tags left open": ("<think ", 10000), "openings": ("<think>", 20000), "kimi openings": ("◁think▷", 10000),
           "harmony openings": ("<|channel|>analysis ", 10000), "closings": ("</think>x", 40000),
           "open quoted attributes": ('<think a="', 20000), "attributes": ("<think a=", 20000),
           "tags across lines": ("<think\n", 20000), "tags in strings": ('["<think>", ', 20000)}


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_long_hostile_reply_is_read_without_hanging(hostile):
    unit, times = HOSTILE[hostile]
    started = time.process_time()
    with contextlib.suppress(AnswerParseError):
        final_answer(unit * times)
    assert time.process_time() - started < 2.0  # a hang guard: linear scans take milliseconds here


@pytest.mark.parametrize("reply", ["[" * 5000, 'The labels: ' + '{"a": ' * 5000], ids=["alone", "in prose"])
def test_json_nested_too_deeply_is_an_unreadable_answer_not_a_crash(reply):
    with pytest.raises(AnswerParseError, match="nested too deeply"):
        find_json(reply)


def test_many_unfinished_json_values_are_read_without_hanging():
    assert find_json('{"labels": ["Entailment", "Neutral"], }') == ["Entailment", "Neutral"]  # inside a broken one
    for hostile in (("[" + "1," * 1000) * 800,  # 800 nested lists, none closed: each start read to the end (14 s)
                    "[x " * 200_000):  # each failed start's error counted the lines before it (~20 s)
        started = time.process_time()
        with pytest.raises(AnswerParseError):
            find_json(hostile)
        assert time.process_time() - started < 2.0  # a hang guard


@pytest.mark.parametrize("unit, times", [("<script", 20000), ("<!--", 20000), ("<title>", 20000), ("<a", 200000)])
def test_a_long_hostile_error_page_is_read_without_hanging(unit, times):
    started = time.process_time()
    _page_text(unit * times)
    assert time.process_time() - started < 2.0  # a hang guard: these took 8 to 44 s


def test_an_error_page_says_its_title_else_its_visible_text():
    assert _page_text("<html><head><title>502 Bad Gateway</title></head><body>x</body></html>") == "502 Bad Gateway"
    page = "<html><head><style>p {}</style></head><!-- c --><body><script>x()</script><p>Down &amp; out</p></body>"
    assert _page_text(page).split() == ["Down", "&", "out"]


@pytest.mark.parametrize("opening", OPENINGS)
def test_a_reply_left_in_its_reasoning_is_retried_and_never_cached(make_judge, chat_server, opening):
    chat_server.script.fault_next(*[("think-open", opening)] * 2)  # finish_reason "stop": only the text tells
    judge = make_judge(max_retries=1)
    labels = judge.check(CLAIMS, REFERENCE)
    assert labels == [None] * 3 and "not closed" in labels.reasons[0]
    assert len(judge.cache) == 0
    assert judge.check(CLAIMS, REFERENCE) == LABELS  # asked again: the server answers in full


# -- credentials a server echoes (item 3) ------------------------------------------------------------

USER, PASSWORD = "judge-user-77", "s3cr3t/p@ss:word+x"


def basic_url(chat_server) -> str:
    return chat_server.base_url.replace("http://", f"http://{USER}:{quote(PASSWORD, safe='')}@")


def sent_forms(auth: str, api_secret: str) -> list[str]:
    """Every form of the credentials the judge sends that must never come back out of it."""
    if auth == "bearer":
        return [api_secret]
    token = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    return [USER, PASSWORD, quote(PASSWORD, safe=""), token]


def judge_with(auth: str, make_judge, chat_server):
    return make_judge() if auth == "bearer" else make_judge(base_url=basic_url(chat_server), api_key=None)


def leaks(text: str, forms: list[str]) -> list[str]:
    return [f for f in forms if f in text]


@pytest.mark.parametrize("auth", ["bearer", "basic"])
def test_credentials_echoed_in_a_refusal_reach_no_reason(auth, make_judge, chat_server, api_secret):
    chat_server.script.fault_next("echo", "echo-header")
    judge = judge_with(auth, make_judge, chat_server)
    first, second = judge.run([CheckJob(CLAIMS, REFERENCE), CheckJob(CLAIMS[:1], "another passage")])
    assert chat_server.script.authorization[0].split()[0].lower() == auth  # sent as it should be
    reasons = " ".join([*first.reasons.values(), *second.reasons.values()])
    assert "HTTP 400" in reasons and "***" in reasons  # the echo came back, redacted
    assert leaks(reasons, sent_forms(auth, api_secret)) == []


@pytest.mark.parametrize("auth", ["bearer", "basic"])
def test_credentials_echoed_in_an_answer_reach_no_claim_trace_or_cache(auth, make_judge, chat_server, tmp_path,
                                                                       api_secret):
    chat_server.script.fault_next("echo-answer")
    judge = judge_with(auth, make_judge, chat_server)
    job = ExtractJob("Paris is the capital of France.", "q")
    claims = judge.extract_claims(job.text, job.question)
    assert claims.judged and claims[0]["object"].startswith("sent with")
    trace, why = judge.trace_extract(job)
    assert trace is not None and "The request came with" in trace["reply"], why
    cached = b"".join(p.read_bytes() for p in tmp_path.glob("judge_cache.sqlite*")).decode("utf-8", "replace")
    forms = sent_forms(auth, api_secret)
    for where, text in {"claims": json.dumps(list(claims)), "trace": json.dumps(trace), "cache": cached}.items():
        assert leaks(text, forms) == [], where


def test_basic_credentials_echoed_reach_no_cli_output(chat_server, tmp_path, capsys, api_secret):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"query_id": "q1", "query": "Where is Paris?", "target": REFERENCE,
                                "response": REFERENCE, "context": [REFERENCE]}))
    chat_server.script.fault_next("echo-answer", "echo")
    out = tmp_path / "scored.json"
    assert main(["judge", str(rows), "--base-url", basic_url(chat_server), "--model", "m", "--cache",
                 str(tmp_path / "c.sqlite"), "--no-progress", "--format", "json", "--output", str(out)]) == 0
    printed = capsys.readouterr()
    assert "***" in printed.out and "HTTP 400" in printed.out  # the refusal's reason, redacted
    for where, text in {"stdout": printed.out, "stderr": printed.err, "output": out.read_text()}.items():
        assert leaks(text, sent_forms("basic", api_secret)) == [], where


@pytest.mark.parametrize("user", ["e", "user"])
def test_a_user_name_in_the_url_leaves_answers_that_mention_it_intact(user, make_judge, chat_server):
    judge = make_judge(base_url=chat_server.base_url.replace("http://", f"http://{user}:s3cretpass@"), api_key=None)
    job = ExtractJob("The user must log in with a password.", "How to log in?")
    claims = judge.extract_claims(job.text, job.question)
    assert list(claims) == [{"subject": "The", "predicate": "user", "object": "must log in with a password"}]
    trace, _ = judge.trace_extract(job)
    assert '"user"' in trace["reply"] and job.text in trace["messages"][-1]["content"]
    chat_server.script.fault_next("think")  # labels in the reasoning text too
    assert judge.check(CLAIMS, REFERENCE) == LABELS
    trace, _ = judge.trace_check(CLAIMS[0], REFERENCE)
    assert trace["reply"].endswith(json.dumps(LABELS)) and "Entailment" in trace["messages"][0]["content"]


def test_only_secrets_that_cannot_be_words_are_redacted_from_answers(make_judge, chat_server):
    def judge(user, password):
        return make_judge(base_url=chat_server.base_url.replace("http://", f"http://{user}:{password}@"), api_key=None)

    assert judge("user", "pw")._redact_answer("user pw") == "user pw"  # under 8 characters: may be words
    token = base64.b64encode(b"user:Entailment2024").decode()
    long = judge("user", "Entailment2024")
    assert long._redact_answer(f"Entailment user Entailment2024 {token} {token[:10]}") == "Entailment user *** *** ***"
    assert long._redact("user Entailment2024") == "*** ***"  # error bodies: every form


# -- one question asked twice (item 2) ---------------------------------------------------------------

def rejudged_from_cache(make_judge, chat_server, records):
    """``records`` filled again by a judge on the same cache that may not send anything."""
    chat_server.script.refuse_with = 401  # a request would raise JudgeRequestError
    return fill_labels(records, make_judge(), progress=False)


def test_a_claim_given_twice_in_one_check_is_asked_once_and_labelled_once(make_judge, chat_server):
    chat_server.script.changes_its_mind = True
    judge = make_judge(check_batch_size=2)
    plan = judge.dry_run([CheckJob([CLAIMS[0], CLAIMS[2], CLAIMS[0]], REFERENCE)]).by_operation["check"]
    assert (plan.calls, plan.judgements, plan.cached) == (1, 3, 0)  # two claims: one batch, as the run asks
    labels = judge.check([CLAIMS[0], CLAIMS[2], CLAIMS[0]], REFERENCE)
    assert list(labels) == ["Entailment", "Neutral", "Entailment"]
    asked = chat_server.script.bodies[0]["messages"][1]["content"].split("Claims:\n")[1]
    assert asked == f"1. {CLAIMS[0]}\n2. {CLAIMS[2]}"  # the claim given twice is asked once
    assert make_judge().check([CLAIMS[0]], REFERENCE) == ["Entailment"] and chat_server.script.requests == 1


def test_the_same_check_in_two_samples_gets_one_answer_used_by_both_and_by_a_rerun(make_judge, chat_server):
    chat_server.script.changes_its_mind = True
    record = {"query": "Where is Paris?", "gt_answer": REFERENCE, "response": REFERENCE,
              "retrieved_context": [{"doc_id": "d1", "text": REFERENCE}]}
    records = [dict(record, query_id="q1"), dict(record, query_id="q2")]
    filled = fill_labels(records, make_judge(max_concurrency=1), progress=False)
    assert chat_server.script.asked and max(chat_server.script.asked.values()) > 1  # asked twice, answered otherwise
    assert filled[0]["answer2response"] == filled[1]["answer2response"] == ["Entailment"]
    assert filled[0]["retrieved2response"] == filled[1]["retrieved2response"]
    again = rejudged_from_cache(make_judge, chat_server, records)
    assert [dict(r) for r in again] == [dict(r) for r in filled]  # the rerun from the cache scores the same
    assert evaluate_records(again) == evaluate_records(filled)


def evaluate_records(records) -> dict:
    from ragwidgets.scoring.evaluation import score_records

    values, _ = score_records(list(records), ("precision", "faithfulness"), "all_claims")
    return values.to_dict()


# -- the trace of each repeat (item 5) ---------------------------------------------------------------

def test_each_repeat_keeps_the_trace_of_its_own_reply(make_judge, chat_server):
    chat_server.script.changes_its_mind = True  # repeat 1 is answered otherwise than repeat 0
    judge = make_judge(seed=7)
    record = {"query_id": "q1", "query": "Where is Paris?", "gt_answer": REFERENCE, "response": REFERENCE,
              "retrieved_context": [{"doc_id": "d1", "text": REFERENCE}]}
    needs = ["retrieved2response"]  # one check per repeat: answer2response would ask the same question again
    filled = fill_repeats([record], judge, needs, repeats=2, progress=False)[0]
    copies = filled["label_repeats"]["retrieved2response"]
    # which repeat's request reaches the server first is the event loop's order: either may be "asked again"
    assert sorted(c[0][0] for c in copies) == ["Entailment", "Neutral"]
    for r in range(2):
        trace = trace_of(repeat_of(judge, r), filled, "retrieved2response", 0, "d1")
        assert trace.label == copies[r][0][0] and json.loads(trace.reply) == [copies[r][0][0]]
        assert find_trace(judge, filled, "retrieved2response", 0, "d1", repeat=r).trace.reply == trace.reply
    requests = chat_server.script.requests
    shown = fill_repeats([record], judge, needs, repeats=2, policy=1, progress=False)[0]  # from the cache
    assert chat_server.script.requests == requests and shown["retrieved2response"] == copies[1]
    trace = trace_of(judge, shown, "retrieved2response", 0, "d1")  # the repeat whose label the record shows
    assert trace.label == copies[1][0][0] and json.loads(trace.reply) == copies[1][0]


def test_a_sample_without_its_repeats_shows_the_trace_of_a_repeat_that_gave_its_label(make_judge, chat_server):
    """A widget holds a Sample (no label_repeats): its trace is of the earliest repeat whose reply
    gave the label shown, not repeat 0's when repeat 0 said otherwise."""
    chat_server.script.changes_its_mind = True
    judge = make_judge(seed=7)
    record = {"query_id": "q1", "query": "Where is Paris?", "gt_answer": REFERENCE, "response": REFERENCE,
              "retrieved_context": [{"doc_id": "d1", "text": REFERENCE}]}
    needs = ["retrieved2response"]  # one check per repeat: answer2response would ask the same question again
    for policy in (1, 0):  # the second from the cache
        shown = fill_repeats([record], judge, needs, repeats=2, policy=policy, progress=False)[0]
        label = shown["label_repeats"]["retrieved2response"][policy][0][0]
        assert shown["retrieved2response"] == [[label]]
        sample = load_samples([{k: v for k, v in shown.items() if k != "label_repeats"}]).samples[0]
        trace = trace_of(judge, sample, "retrieved2response", 0, "d1")
        assert trace.label == label and json.loads(trace.reply) == [label]
