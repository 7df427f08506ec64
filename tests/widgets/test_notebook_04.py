"""Notebook 04 (error analysis on the RefChecker human labels, and a generated 100k run) runs top to bottom."""

from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs the whole tutorial notebook in a kernel

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[2] / "ragwidgets" / "tutorials" / "04_error_analysis.ipynb"


def test_notebook_04_runs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    views = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(views) >= 2, "the notebook displays the RefChecker explorer and the 100k one"
    text = "".join(o.get("text", "") for o in outputs)
    assert "of 100,000 samples, filtered in" in text
    charts = [o["data"]["image/svg+xml"] for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert len(charts) >= 2, "the top-k and group charts are drawn in the kernel (offline), not by a CDN script"
    assert not [o for o in outputs if "cdn.jsdelivr" in str(o.get("data", {}).get("text/html", ""))]
