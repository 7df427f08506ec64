"""LocalChecker on models the tests build (tests/local_models.py): the real loading (ONNX Runtime, a
Hugging Face tokenizer), chunking, batching, caching and label mapping, with answers known by
construction where the model is fixed, and a random model where only agreement between paths is
checked (batch sizes, the cache, a pickled copy)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")
pytest.importorskip("tokenizers")

import ragwidgets as rw  # noqa: E402
from local_models import FILLER, calibration_run, keyword_model, random_model  # noqa: E402
from ragwidgets.judges import JudgeCache, claim_text, fill_labels  # noqa: E402
from ragwidgets.judges.local import LocalChecker, chunks  # noqa: E402

E, N, C = "Entailment", "Neutral", "Contradiction"


def test_a_three_way_model_s_labels_are_read_and_its_answers_known(tmp_path):
    checker = LocalChecker(keyword_model(tmp_path / "kw"))
    assert checker.outputs == (E, N, C) and not checker.binary and checker.threshold is None
    assert "entailment → Entailment, neutral → Neutral, contradiction → Contradiction" in repr(checker)
    claims = ["the museum opened in 1890", "it has two piers", "ferries leave hourly", ""]
    assert checker.check(claims[:3], "yes the museum opened in 1890") == [E, E, E]  # "yes" in the passage
    assert checker.check(claims[:3], "no it did not") == [C, C, C]
    assert checker.check(claims[:2], FILLER) == [N, N]
    result = checker.check(claims, FILLER)
    assert result == [N, N, N, None] and "blank" in result.reasons[3]
    blank = checker.check(claims[:1], "   ")
    assert blank == [None] and "blank" in blank.reasons[0]


def test_chunks_are_max_pooled_and_keep_a_late_keyword_from_truncation(tmp_path):
    """A passage of 100 words with "yes" last: in chunks of 10 words the last chunk entails the
    claim; as one chunk cut to 32 tokens the keyword is cut off (Neutral); a binary checker whose
    support is diluted over one long chunk falls under its threshold, max-pooled chunks do not."""
    passage = " ".join([FILLER + "."] * 9 + ["a claim about the harbor museum yes."])
    assert len(chunks(passage, 10)) == 10 and chunks(passage, 10)[-1].endswith("yes.")
    assert chunks("one two three four five. six seven", 3) == ["one two three", "four five.", "six seven"]
    assert chunks("  ", 5) == []
    folder = keyword_model(tmp_path / "kw")
    assert LocalChecker(folder, chunk_words=10).check(["it has two piers"], passage) == [E]
    assert LocalChecker(folder, chunk_words=1000, max_length=32).check(["it has two piers"], passage) == [N]
    binary = keyword_model(tmp_path / "bin", binary=True)
    pooled = LocalChecker(binary, chunk_words=10, threshold=0.9)
    diluted = LocalChecker(binary, chunk_words=1000, threshold=0.9)
    assert pooled.check(["it has two piers"], passage) == [E] and diluted.check(["it has two piers"], passage) == [N]
    trace, why = pooled.trace_check("it has two piers", passage)
    assert why is None and trace["label"] == E and "chunk 10 decided" in trace["note"]
    assert len(trace["probabilities"]) == 10 and trace["probabilities"][-1][1] > 0.9


def test_binary_checkers_never_contradict_and_their_mapping_is_said(tmp_path):
    checker = LocalChecker(keyword_model(tmp_path / "bin", binary=True))
    assert checker.binary and checker.threshold == 0.5 and checker.outputs == (N, E)
    assert "not_supported → Neutral, supported → Entailment (read from the label names)" in checker.mapping
    assert checker.check(["it has two piers"], "yes two piers") == [E]
    assert checker.check(["it has two piers"], "no it has not") == [N]  # no Contradiction in a binary model
    generic = LocalChecker(keyword_model(tmp_path / "gen", binary=True, labels=("LABEL_0", "LABEL_1")))
    assert generic.outputs == (N, E) and "two generic labels read as (not supported, supported)" in generic.mapping
    with pytest.raises(ValueError, match="not known names: give labels="):
        LocalChecker(keyword_model(tmp_path / "odd", labels=("LABEL_0", "LABEL_1", "LABEL_2")))
    given = LocalChecker(tmp_path / "odd", labels=[E, N, C])
    assert given.check(["x"], "yes") == [E] and "(given)" in given.mapping
    by_name = LocalChecker(tmp_path / "odd", labels={"LABEL_0": C, "LABEL_1": N, "LABEL_2": E})
    assert by_name.check(["x"], "yes") == [C]
    with pytest.raises(ValueError, match="needs one of"):
        LocalChecker(tmp_path / "odd", labels=[E, N, "maybe"])


def test_batches_give_the_labels_of_one_batch_and_the_cache_answers_again(tmp_path):
    folder = random_model(tmp_path / "rnd", seed=3)
    claims = ["the museum opened in 1890", "it has two piers", "ferries leave hourly", "the pier is old",
              "a wrong year", "the right answer"]
    passage = " ".join(f"{FILLER} {w}." for w in ("yes", "no", "about", "year", "answer"))
    one = LocalChecker(folder, chunk_words=11, batch_size=1)
    many = LocalChecker(folder, chunk_words=11, batch_size=64)
    pairs = [(part, c) for c in claims for part in chunks(passage, 11)]
    np.testing.assert_allclose(one.probabilities(pairs), many.probabilities(pairs), rtol=1e-5, atol=1e-6)
    assert one.check(claims, passage) == many.check(claims, passage)
    cached = LocalChecker(folder, chunk_words=11, cache=JudgeCache(tmp_path / "cache.sqlite"))
    first = cached.check(claims, passage)
    again = LocalChecker(folder, chunk_words=11, cache=JudgeCache(tmp_path / "cache.sqlite"))
    assert again.check(claims, passage) == first and again.stats.cache_hits == len(claims)
    other = LocalChecker(folder, chunk_words=5, cache=JudgeCache(tmp_path / "cache.sqlite"))
    other.check(claims, passage)
    assert other.stats.cache_hits == 0  # another chunk size is another question
    copy = pickle.loads(pickle.dumps(cached))
    assert copy.classifier._session is None and copy.check(claims, passage) == first


def test_a_run_is_judged_end_to_end_and_scored(tmp_path):
    """fill_labels with the checker on records with given claims, then the engine: the labels
    are the ones its keyword rule gives, and the metrics follow."""
    checker = LocalChecker(keyword_model(tmp_path / "kw"))
    records = [{"query_id": "q1", "query": "when?", "response": "It opened in 1890.", "gt_answer": "yes in 1890",
                "retrieved_context": [{"doc_id": "d1", "text": "yes the museum opened in 1890"},
                                      {"doc_id": "d2", "text": FILLER}],
                "response_claims": [["it", "opened in", "1890"]], "gt_answer_claims": [["it", "opened in", "1890"]]}]
    filled = fill_labels(records, checker, needs={"answer2response", "retrieved2response", "retrieved2answer",
                                                  "response2answer"}, progress=False)
    assert filled[0]["answer2response"] == [E] and filled[0]["retrieved2response"] == [[E, N]]
    scores = rw.evaluate(filled)
    assert scores.metrics("q1")["precision"] == 1.0 and scores.metrics("q1")["context_precision"] == 0.5
    labelled = checker.label_claims(["it opened in 1890"], "when?")
    assert labelled == [None] and "does not label claims REQUIRED / OPTIONAL" in labelled.reasons[0]
    assert [claim_text(c) for c in checker.extract_claims("It opened in 1890. It has two piers!")] == [
        "It opened in 1890", "It has two piers"]  # one claim per sentence


def test_repeats_of_a_deterministic_checker_share_its_answers(tmp_path):
    """A checker gives one answer to one question: a repeat reads the first asking's cache entry
    instead of running the model again (an LLM judge's repeats are asked anew)."""
    from ragwidgets.judges.repeats import repeat_of

    checker = LocalChecker(keyword_model(tmp_path / "kw"), cache=JudgeCache(tmp_path / "c.sqlite"))
    first = checker.check(["it has two piers"], "yes two piers")
    again = repeat_of(checker, 2)
    assert again.check(["it has two piers"], "yes two piers") == first and again.stats.cache_hits == 1


def test_bad_folders_and_settings_are_named(tmp_path):
    with pytest.raises(ValueError, match="is not a folder: export a checker to ONNX once"):
        LocalChecker(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="lacks model.onnx, tokenizer.json, config.json"):
        LocalChecker(tmp_path / "empty")
    folder = keyword_model(tmp_path / "kw")
    for kwargs, match in (({"chunk_words": 0}, "chunk_words"), ({"batch_size": 1.5}, "batch_size"),
                          ({"max_length": 4}, "max_length"), ({"threshold": 1.0}, "threshold")):
        with pytest.raises(ValueError, match=match):
            LocalChecker(folder, **kwargs)
    (folder / "config.json").write_text('{"labels": 3}')
    with pytest.raises(ValueError, match="no readable id2label"):
        LocalChecker(folder)


def test_calibrated_to_the_reviews_the_checker_agrees_and_its_cache_keys_change(tmp_path):
    """A binary checker whose support falls with the passage's length (the keyword model at
    strength 8: a "yes" in a pair of L tokens gives σ(8 / L − 1)), labelled at its default ½: long
    passages holding "yes" come out Neutral. Reviews saying what is true (a "yes" passage entails
    the claim) fit a lower threshold; the calibrated checker agrees with every review and labels
    the run again under other cache keys."""
    from ragwidgets.analysis.calibration import calibrate_checker, reviewed_checks
    checker, records, filled, reviews = calibration_run(tmp_path / "bin", cache=JudgeCache(tmp_path / "c.sqlite"))
    said = [r["retrieved2response"][0][0] for r in filled]
    assert N in said and E in said  # long "yes" passages fall under ½
    checks = reviewed_checks(filled, reviews)
    assert len(checks) == 24 and set(checks["reference"]) >= {records[0]["retrieved_context"][0]["text"]}
    fit = calibrate_checker(checker, filled, reviews, method="threshold")
    assert fit.n == 24 and fit.before.value < 1 and fit.after.value == 1.0 and fit.threshold < 0.5
    assert fit.checks["checker"].tolist() == [said[i] if doc == "yes" else N for i in range(0, 24, 2)
                                              for doc in ("yes", "plain")]
    calibrated = checker.calibrated(fit)
    assert calibrated.threshold == fit.threshold and checker.threshold == 0.5
    again = fill_labels(records, calibrated, needs={"retrieved2response"}, progress=False)
    assert [r["retrieved2response"][0] for r in again] == [[E, N]] * 24
    assert calibrated.stats.cache_hits == 0 and calibrated.stats.calls > 0  # other questions: the threshold is in the key
    for method in ("platt", "isotonic"):
        other = calibrate_checker(checker, filled, reviews, method=method)
        assert other.after.value >= 0.9 and other.reliability_after is not None, other  # a held-out edge may miss
        assert (other.entailed(other.checks["support"]) == (other.checks["reviewer"] == E)).all()
    with pytest.raises(ValueError, match="no threshold"):
        checker.calibrated(calibrate_checker(checker, filled[:2], reviews))
    for bad in (None, float("nan"), 1.5, 0, "0.4"):
        with pytest.raises(ValueError, match="no threshold|strictly between 0 and 1"):
            checker.calibrated(bad)
    assert checker.calibrated(0.3).threshold == 0.3
