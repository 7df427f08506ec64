"""notebooks/03_scoring_with_a_judge.ipynb runs top to bottom (nbclient, a real kernel), offline."""

from __future__ import annotations

from pathlib import Path

import pytest
from notebooks import printed

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[2] / "ragwidgets" / "tutorials" / "03_scoring_with_a_judge.ipynb"


def test_notebook_03_runs_offline_and_its_second_run_is_free(monkeypatch, tmp_path):
    monkeypatch.setenv("RAGWIDGETS_CACHE_DIR", str(tmp_path))  # a fresh judge cache for the kernel
    monkeypatch.delenv("RAGWIDGETS_LLM_JUDGE", raising=False)  # the LLM cell must not make a request
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs, text = printed(nb)
    assert not [o for o in outputs if o.output_type == "error"]
    assert "second run: Usage(calls=0" in text and "rescoring the output: Usage(calls=0" in text
    assert "no request was made" in text
    # the LLM judge's dry run prices the run before it, offline: a cost table with a total row
    table = next(o.data["text/plain"] for o in outputs if "cost" in o.get("data", {}).get("text/plain", ""))
    assert "prompt_tokens" in table and "completion_tokens" in table and "\ntotal " in table
    assert "in cost" in text
    assert (tmp_path / "judge_cache.sqlite").exists()
