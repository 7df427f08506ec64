"""Running a tutorial notebook as a reader would: top to bottom in a real kernel (nbclient), its
temporary files kept apart, and what it printed as one text."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "ragwidgets" / "tutorials"


def execute(name: str, tmp: Path, timeout: int = 180, *, unset: tuple[str, ...] = ()) -> tuple[list, str]:
    """Run ``notebooks/<name>`` with TMPDIR at ``tmp`` (the kernel's tempfile folder) and the
    variables ``unset`` removed; its code cells' outputs and their text (stream and text/plain)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TMPDIR", str(tmp))
        for name_ in unset:
            mp.delenv(name_, raising=False)
        nb = nbformat.read(NOTEBOOKS / name, as_version=4)
        nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    return printed(nb)


def printed(nb) -> tuple[list, str]:
    """An executed notebook's code cells' outputs and their text (stream and text/plain)."""
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    return outputs, "\n".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in outputs)
