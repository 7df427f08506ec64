"""LocalChecker's transformers back end on a model the tests build (tests/local_models.py: a
random two-layer BERT saved with save_pretrained, and its torch.onnx export in the same folder):
the two back ends are two paths to the same model and must agree — probabilities to 1e-5, every
label of a filled run — at batch sizes 1 and 16, with chunking and truncation at work."""

from __future__ import annotations

import pickle
import shutil

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("onnxruntime")

import ragwidgets as rw  # noqa: E402
from local_models import transformers_model  # noqa: E402
from ragwidgets.judges import JudgeCache, LocalChecker, fill_labels  # noqa: E402
from ragwidgets.judges.local import chunks  # noqa: E402

CLAIMS = ["the museum opened in 1890", "it has two piers", "ferries leave hourly", "the pier is old",
          "a wrong year", "the right answer"]
PASSAGES = ["yes the harbor museum opened in 1890.", "no it has two piers. the pier is old.",
            " ".join(["the harbor museum opened in 1890 it has two piers."] * 12), "about the year a claim"]


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """PyTorch on one thread: two xdist workers on two cores, each with PyTorch's two spinning
    threads, run a tiny model 70x slower (140 ms a pair against 2 ms, measured on a loaded machine)."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return transformers_model(tmp_path_factory.mktemp("bert") / "bert", onnx=True)


def test_the_two_back_ends_agree_on_one_model(folder):
    torch_checker = LocalChecker(folder, backend="transformers", max_length=48, chunk_words=30, batch_size=1)
    onnx_checker = LocalChecker(folder, backend="onnx", max_length=48, chunk_words=30, batch_size=16)
    assert "transformers" in repr(torch_checker) and "ONNX Runtime" in repr(onnx_checker)
    assert torch_checker.outputs == onnx_checker.outputs and torch_checker.mapping == onnx_checker.mapping
    pairs = [(part, claim) for passage in PASSAGES for part in chunks(passage, 30) for claim in CLAIMS]
    p_torch, p_onnx = torch_checker.probabilities(pairs), onnx_checker.probabilities(pairs)
    np.testing.assert_allclose(p_torch, p_onnx, atol=1e-5)
    assert p_torch.std(axis=0).min() > 0.01  # the pairs' outputs differ: the agreement says something
    for passage in PASSAGES:
        assert torch_checker.check(CLAIMS, passage) == onnx_checker.check(CLAIMS, passage)
        np.testing.assert_allclose(torch_checker.support(CLAIMS, passage), onnx_checker.support(CLAIMS, passage),
                                   atol=1e-5)
    records = rw.datasets.synthetic_run(4, seed=2)
    needs = {"answer2response", "retrieved2response"}
    for r in records:
        r.pop("answer2response"), r.pop("retrieved2response")
    torch_checker.batch_size = 16  # a whole run: batches of 16 on this side, 1 on the other
    onnx_checker.batch_size = 1
    by_torch = fill_labels(records, torch_checker, needs=needs, progress=False)
    by_onnx = fill_labels(records, onnx_checker, needs=needs, progress=False)
    assert [r["retrieved2response"] for r in by_torch] == [r["retrieved2response"] for r in by_onnx]
    assert [r["answer2response"] for r in by_torch] == [r["answer2response"] for r in by_onnx]


def test_auto_picks_the_back_end_from_the_folder_and_the_identity_follows_the_weights(folder, tmp_path):
    weights_only = tmp_path / "weights_only"
    shutil.copytree(folder, weights_only, ignore=shutil.ignore_patterns("model.onnx"))
    assert LocalChecker(weights_only).classifier.backend == "transformers"
    assert LocalChecker(folder).classifier.backend == "onnx"  # an export beside the weights is preferred
    other = transformers_model(tmp_path / "other", seed=1)
    assert LocalChecker(other).model != LocalChecker(weights_only).model  # other weights, other cache keys
    moved = tmp_path / "moved" / "weights_only"
    shutil.copytree(weights_only, moved)
    assert LocalChecker(moved).model == LocalChecker(weights_only).model  # the same weights, wherever they are
    with pytest.raises(ValueError, match="not a transformers model folder or a hub id"):
        LocalChecker(tmp_path / "nothing" / "here", backend="transformers")
    with pytest.raises(ValueError, match="backend must be one of auto, onnx, transformers"):
        LocalChecker(folder, backend="torch")


def test_cached_pickled_and_on_the_cpu_here(folder, tmp_path):
    import torch

    cache = JudgeCache(tmp_path / "c.sqlite")
    checker = LocalChecker(folder, backend="transformers", max_length=48, cache=cache)
    first = checker.check(CLAIMS, PASSAGES[0])
    assert checker.classifier._device == ("cuda" if torch.cuda.is_available() else "cpu")
    again = LocalChecker(folder, backend="transformers", max_length=48, cache=JudgeCache(tmp_path / "c.sqlite"))
    assert again.check(CLAIMS, PASSAGES[0]) == first and again.stats.cache_hits == len(CLAIMS)
    copy = pickle.loads(pickle.dumps(checker))
    assert copy.classifier._model is None and copy.check(CLAIMS, PASSAGES[1]) == checker.check(CLAIMS, PASSAGES[1])
    explicit = LocalChecker(folder, backend="transformers", max_length=48, device="cpu")
    np.testing.assert_allclose(explicit.support(CLAIMS, PASSAGES[2]), checker.support(CLAIMS, PASSAGES[2]))
