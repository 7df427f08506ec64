"""The docs build (docs/execute_tutorials.py, run by .ci/docs) executes the tutorials as a first
reader would: tutorial 03's first scoring asks the judge and its second is free, whatever the
machine's own judge cache holds, and the build neither reads nor writes that cache."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from notebooks import printed

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parents[1]


def docs_builder():
    spec = importlib.util.spec_from_file_location("execute_tutorials", ROOT / "docs" / "execute_tutorials.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_tutorial_03_in_the_docs_starts_from_an_empty_judge_cache(tmp_path, monkeypatch):
    users_cache = tmp_path / "users-cache"
    monkeypatch.setenv("RAGWIDGETS_CACHE_DIR", str(users_cache))  # the developer's own cache
    monkeypatch.delenv("RAGWIDGETS_LLM_JUDGE", raising=False)
    out = tmp_path / "03.ipynb"
    docs_builder().execute(str(ROOT / "ragwidgets" / "tutorials" / "03_scoring_with_a_judge.ipynb"), str(out))
    _, text = printed(nbformat.read(out, as_version=4))
    assert "the cache answers 0 of 53 judgements" in text
    assert "second run: Usage(calls=0, cache_hits=53" in text
    assert not users_cache.exists()
