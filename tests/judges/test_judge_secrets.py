"""The API key never appears in a repr, a log line, an error message, the cache file or saved output."""

from __future__ import annotations

import json
import logging
import pickle

import pytest

from ragwidgets.judges import CheckJob, JudgeRequestError, OpenAICompatibleJudge, fill_labels


def test_the_key_is_sent_but_never_shown_or_stored(make_judge, chat_server, tmp_path, caplog, api_secret):
    caplog.set_level(logging.DEBUG)  # includes httpx / httpcore debug logging
    chat_server.script.fault_next(429, "drop", "malformed")
    judge = make_judge()
    records = [
        {
            "query_id": "1",
            "query": "What is the capital of France?",
            "gt_answer": "Paris is the capital of France.",
            "response": "Paris is the capital of France. Lyon never hosted the Olympics.",
            "retrieved_context": [{"doc_id": "d1", "text": "Paris is the capital of France."}],
        }
    ]
    filled = fill_labels(records, judge, progress=False)
    assert chat_server.script.authorization[-1] == f"Bearer {api_secret}"

    texts = {
        "repr(judge)": repr(judge),
        "str(judge)": str(judge),
        "vars(judge)": repr(vars(judge)),
        "stats": repr(judge.stats) + str(judge.stats),
        "results": repr(judge.run([CheckJob(["a b c"], "x")])),
        "dry run": repr(judge.dry_run([CheckJob(["a b c"], "x")])),
        "logs": caplog.text,
        "output": json.dumps(filled),
    }
    for where, text in texts.items():
        assert api_secret not in text, where
    summary = [r for r in caplog.records if r.levelname == "WARNING" and "retried" in r.getMessage()]
    assert len(summary) == 1 and "3 requests retried" in summary[0].getMessage()  # one line, without the key

    cache_bytes = b"".join(p.read_bytes() for p in tmp_path.glob("judge_cache.sqlite*"))
    assert len(judge.cache) > 0 and b"Entailment" in cache_bytes  # the bytes searched hold the answers
    assert api_secret.encode() not in cache_bytes


def test_the_key_is_not_in_error_messages(make_judge, chat_server, api_secret):
    judge = make_judge(base_url=chat_server.base_url.replace("/v1", "/wrong"))
    with pytest.raises(JudgeRequestError) as info:
        judge.check(["a b c"], "a b c")
    assert api_secret not in str(info.value) and api_secret not in repr(info.value)
    assert api_secret not in "".join(str(a) for a in info.traceback)


def test_the_key_is_read_from_the_environment(chat_server, monkeypatch, tmp_path, api_secret):
    monkeypatch.setenv("MY_JUDGE_KEY", api_secret)
    judge = OpenAICompatibleJudge(
        "m", chat_server.base_url, api_key_env="MY_JUDGE_KEY", cache=tmp_path / "c.sqlite", progress=False
    )
    judge.check(["a b c"], "a b c")
    assert chat_server.script.authorization == [f"Bearer {api_secret}"]
    assert api_secret not in repr(judge) and "api_key=<set>" in repr(judge)


def test_no_key_means_no_authorization_header(chat_server, monkeypatch, tmp_path):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    judge = OpenAICompatibleJudge("m", chat_server.base_url, cache=None, progress=False)
    judge.check(["a b c"], "a b c")
    assert chat_server.script.authorization == [None]
    assert "api_key=<none>" in repr(judge)


def test_a_password_in_the_url_is_kept_out_of_reprs_and_cache_keys(chat_server, api_secret):
    url = chat_server.base_url.replace("http://", f"http://user:{api_secret}@")
    judge = OpenAICompatibleJudge("m", url, cache=None, progress=False)
    assert api_secret not in repr(judge) and api_secret not in json.dumps(judge.identity("check"))
    assert api_secret not in repr(vars(judge))


def test_a_judge_with_a_key_cannot_be_pickled(make_judge):
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(make_judge())


def test_a_key_read_with_its_line_end_is_sent_without_it_and_never_logged(chat_server, caplog, api_secret):
    caplog.set_level(logging.DEBUG)  # httpcore logs a refused header value, key and all
    judge = OpenAICompatibleJudge("m", chat_server.base_url, api_key=api_secret + "\n", cache=None, progress=False)
    assert judge.check(["a b c"], "a b c") == ["Entailment"]
    assert chat_server.script.authorization == [f"Bearer {api_secret}"]
    assert api_secret not in caplog.text


def test_a_key_that_cannot_be_sent_in_a_header_is_refused_without_showing_it(chat_server, monkeypatch, api_secret):
    bad = api_secret + "é"
    with pytest.raises(ValueError, match="API key") as info:
        OpenAICompatibleJudge("m", chat_server.base_url, api_key=bad, cache=None, progress=False)
    monkeypatch.setenv("MY_JUDGE_KEY", bad)
    with pytest.raises(ValueError, match="MY_JUDGE_KEY") as from_env:
        OpenAICompatibleJudge("m", chat_server.base_url, api_key_env="MY_JUDGE_KEY", cache=None, progress=False)
    for error in (info.value, from_env.value):
        assert api_secret not in str(error) and api_secret not in repr(error)
    assert chat_server.script.requests == 0


@pytest.mark.parametrize("url, message", [
    ("localhost:8000/v1", "http:// or https://"),
    ("ftp://example.org/v1", "http:// or https://"),
    ("http:///v1", "http:// or https://"),
    ("http://localhost:8000/v1?api_key={secret}", "query string"),
])
def test_a_base_url_that_cannot_work_is_refused_at_once_without_showing_a_key(url, message, api_secret):
    with pytest.raises(ValueError, match=message) as err:
        OpenAICompatibleJudge("m", url.format(secret=api_secret), cache=None, progress=False)
    assert api_secret not in str(err.value)


PASSWORD_WITH_DELIMITERS = ["http://user:Sup3r/SecretPw@host:8000/v1", "http://user:Sup3r?SecretPw@host:8000/v1",
                            "http://user:Sup3r#SecretPw@host:8000/v1", "http://user:1234/5678abcd@host:8000/v1",
                            "http:/u:Sup3rSecretPw@host/v1", "http:u:Sup3rSecretPw@host/v1",
                            "http://u:Sup3rSecretPw@host/v1/@evil"]


@pytest.mark.parametrize("url", PASSWORD_WITH_DELIMITERS)
def test_a_base_url_with_an_at_sign_outside_its_user_part_is_refused_without_showing_it(url):
    secret = url.split("@")[0].split(":")[-1][-8:]  # the password's end, after any / ? or #
    with pytest.raises(ValueError, match="percent-encode") as err:
        OpenAICompatibleJudge("m", url, cache=None, progress=False)
    assert secret not in str(err.value) and secret not in repr(err.value)
