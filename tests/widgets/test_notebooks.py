"""The tutorial notebooks run top to bottom without errors (nbclient, a real kernel)."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parents[2] / "ragwidgets" / "tutorials"


@pytest.mark.parametrize("name", ["01_harbor_museum.ipynb", "02_ragchecker_sample.ipynb"])
def test_notebook_runs(name):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbclient.NotebookClient(nb, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    widgets = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
               if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert widgets, "the notebook displays its widgets"
