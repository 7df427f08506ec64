"""Answer parsing, the cache file, prompts and the progress bar."""

from __future__ import annotations

import pickle
import threading

import pytest

from ragwidgets.judges import CheckJob, JudgeCache, LexicalJudge
from ragwidgets.judges.answers import ENTAILMENT_SYNONYMS, IMPORTANCE_SYNONYMS, parse_claims, parse_labels
from ragwidgets.judges.cache import MISSING, DirectoryCache, cache_key, resolve_cache
from ragwidgets.judges.errors import AnswerParseError
from ragwidgets.judges.prompts import load_prompt


@pytest.mark.parametrize(
    "content",
    [
        '[{"subject": "Nile", "predicate": "is", "object": "long"}]',
        'Here:\n```json\n[{"subject": "Nile", "predicate": "is", "object": "long"}]\n```',
        'The claims are {"claims": [["Nile", "is", "long"]]} as asked.',
    ],
)
def test_claims_are_read_from_json_in_several_wrappings(content):
    assert parse_claims(content) == [{"subject": "Nile", "predicate": "is", "object": "long"}]


@pytest.mark.parametrize(
    "content",
    ["no json here", '[{"subject": "Nile"}]', '[["Nile", "is"]]', '{"a": 1, "b": 2}', '[["a", ["b"], "c"]]'],
)
def test_malformed_claims_are_refused(content):
    with pytest.raises(AnswerParseError):
        parse_claims(content)


def test_labels_are_read_strictly():
    assert parse_labels('["entailment", "Neutral.", "CONTRADICTION"]', 3, ENTAILMENT_SYNONYMS) == [
        "Entailment",
        "Neutral",
        "Contradiction",
    ]
    assert parse_labels('{"labels": [{"label": "required"}, {"label": "Optional"}]}', 2, IMPORTANCE_SYNONYMS) == [
        "REQUIRED",
        "OPTIONAL",
    ]
    assert parse_labels('"Entailment"', 1, ENTAILMENT_SYNONYMS) == ["Entailment"]
    with pytest.raises(AnswerParseError, match="expected 3 labels, got 2"):
        parse_labels('["Entailment", "Neutral"]', 3, ENTAILMENT_SYNONYMS)
    with pytest.raises(AnswerParseError, match="unknown label"):
        parse_labels('["Entailment", "Maybe"]', 2, ENTAILMENT_SYNONYMS)
    with pytest.raises(AnswerParseError):
        parse_labels("[Entailment, Neutral", 2, ENTAILMENT_SYNONYMS)


CACHES = {"sqlite": lambda folder: JudgeCache(folder / "sub" / "cache.sqlite"),
          "directory": lambda folder: DirectoryCache(folder / "sub" / "cache")}


@pytest.mark.parametrize("kind", CACHES)
def test_cache_stores_answers_and_refuses_failures(tmp_path, kind):
    cache = CACHES[kind](tmp_path)
    key = cache_key({"class": "X", "model": "m", "host": "h", "prompt": "check_v1"}, "check", {"claim": "c"})
    assert cache.get(key) is MISSING and key not in cache
    cache.put(key, "check", ["Entailment", {"claim": "é"}])
    again = pickle.loads(pickle.dumps(cache))  # as a Dask worker receives it: the same store
    assert type(again) is type(cache) and again.get(key) == ["Entailment", {"claim": "é"}]
    assert again.get_many([key, key, "other"]) == {key: ["Entailment", {"claim": "é"}]}
    with pytest.raises(ValueError, match="never cached"):
        cache.put(key, "check", None)
    assert len(cache) == 1
    cache.clear()
    assert len(cache) == 0


def test_a_cache_setting_picks_the_store(tmp_path):
    assert isinstance(resolve_cache(str(tmp_path / "c.sqlite")), JudgeCache)
    assert isinstance(resolve_cache(str(tmp_path / "shared") + "/"), DirectoryCache)  # a path ending in /
    assert isinstance(resolve_cache(tmp_path), DirectoryCache)  # an existing directory
    mine = DirectoryCache(tmp_path / "mine")
    assert resolve_cache(mine) is mine and resolve_cache(None) is None


@pytest.mark.parametrize("kind", CACHES)
def test_cache_is_safe_across_threads(tmp_path, kind):
    cache = CACHES[kind](tmp_path)

    def write(n):
        for i in range(50):
            cache.put(f"{n}-{i}", "check", "Neutral")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(cache) == 200


def test_prompt_versions_are_files_plus_a_hash_of_their_text():
    prompt = load_prompt("check_v1")
    assert prompt.version.startswith("check_v1-") and len(prompt.version) == len("check_v1-") + 12
    messages = prompt.messages(reference="R $x", claims="1. a b c")
    assert messages[1]["content"] == "Reference:\nR $x\n\nClaims:\n1. a b c"


class _RecordingBar:
    created: list = []

    def __init__(self, **kwargs):
        self.kwargs = kwargs
        self.updates = 0
        self.closed = False
        _RecordingBar.created.append(self)

    def update(self, n):
        self.updates += n

    def close(self):
        self.closed = True


@pytest.mark.parametrize("progress", [True, False])
def test_runs_show_a_progress_bar_that_can_be_disabled(monkeypatch, progress):
    monkeypatch.setattr("ragwidgets.judges.base.tqdm", _RecordingBar)
    _RecordingBar.created = []
    judge = LexicalJudge(progress=progress)
    judge.run([CheckJob(["a b c"], "a b c")] * 5)
    judge.run([CheckJob(["a b c"], "a b c")] * 5, progress=not progress)
    first, second = _RecordingBar.created
    assert first.kwargs["total"] == 5 and first.updates == 5 and first.closed
    assert first.kwargs["disable"] is (not progress)
    assert second.kwargs["disable"] is progress


def test_an_answer_with_the_wrong_number_of_labels_is_unjudged_and_not_cached(tmp_path):
    from ragwidgets.judges import BaseJudge, CallOutcome

    class OneLabelJudge(BaseJudge):  # a judge of the user's, answering one label whatever it is asked
        async def _check_call(self, claims, reference):
            return CallOutcome(["Entailment"])

        async def _label_call(self, claims, question, instructions):
            return CallOutcome(["REQUIRED"])

    judge = OneLabelJudge(cache=JudgeCache(tmp_path / "c.sqlite"), progress=False)
    checked = judge.check(["a b c", "d e f"], "a b c d e f")
    labelled = judge.label_claims(["a b c", "d e f"], "q")
    for result in (checked, labelled):
        assert list(result) == [None, None]
        assert result.reasons == dict.fromkeys([0, 1], "the judge gave 1 label(s) for 2 claims")
    assert judge.stats.failures == 2 and len(judge.cache) == 0


def test_cache_keys_hash_the_documented_json_so_existing_caches_stay_valid():
    import hashlib
    import json

    identity = {"class": "X", "model": "m", "host": None, "prompt": "check_v1-ab12"}
    inputs = {"claim": "Zürich hat 400 000 Einwohner", "reference": {"text": "…", "facts": ["b", "a"]}}
    payload = json.dumps({"judge": identity, "operation": "check", "input": inputs}, sort_keys=True,
                         ensure_ascii=False, separators=(",", ":"))
    assert cache_key(identity, "check", inputs) == hashlib.sha256(payload.encode("utf-8")).hexdigest()
