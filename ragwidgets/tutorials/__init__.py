"""The tutorial notebooks, shipped in the package (``ragwidgets tutorial NAME`` copies one into a
folder of the user's and opens it): each a self-contained notebook whose data come from the
package too (:mod:`ragwidgets.data`, :mod:`ragwidgets.datasets`)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..atomic import atomic_write
from ..errors import RagWidgetsError


@dataclass(frozen=True)
class Tutorial:
    """A tutorial: its ``name`` on the command line, its notebook's ``file`` and what it teaches."""

    name: str
    file: str
    about: str


TUTORIALS = {t.name: t for t in (
    Tutorial("harbor-museum", "01_harbor_museum.ipynb",
             "the citation family on a lesson's sources: toggle retrieval, answers and citation rules"),
    Tutorial("ragchecker-sample", "02_ragchecker_sample.ipynb", "RAGChecker's eleven metrics on one real sample"),
    Tutorial("scoring", "03_scoring_with_a_judge.ipynb", "score raw question / answer / passages with a judge"),
    Tutorial("run-analysis", "04_error_analysis.ipynb", "a whole run in the DatasetExplorer: slices, charts, a report"),
    Tutorial("trust-the-judge", "05_trust_the_judge.ipynb", "a judge measured against HaluEval's known truth"),
    Tutorial("review-a-run", "06_review_a_run.ipynb", "review a run: the queue, the trust panel, corrected scores"),
    Tutorial("failure-modes", "07_error_analysis.ipynb",
             "notes on failing answers, failure modes with rates and intervals, checks"),
)}
DEFAULT = "harbor-museum"


def notebook(name: str) -> bytes:
    """The shipped notebook of tutorial ``name`` (a RagWidgetsError naming the tutorials otherwise)."""
    if name not in TUTORIALS:
        raise RagWidgetsError(f"no tutorial {name!r}; the tutorials: {', '.join(TUTORIALS)}")
    return resources.files(__name__).joinpath(TUTORIALS[name].file).read_bytes()


def copy_to(name: str, folder) -> tuple[Path, str]:
    """Tutorial ``name``'s notebook in ``folder`` (made if missing): copied there when absent; a
    file of that name already there is never overwritten (it may hold the user's edits and
    outputs). Returns (its path, what happened: "copied", "kept" (the same as shipped) or
    "kept yours" (it differs))."""
    data = notebook(name)
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise RagWidgetsError(f"cannot make the folder {folder}: {err.strerror or err}") from None
    if not folder.is_dir():
        raise RagWidgetsError(f"{folder} is not a folder")
    path = folder / TUTORIALS[name].file
    if path.exists():
        return path, "kept" if path.read_bytes() == data else "kept yours"
    with atomic_write(path, "wb") as out:  # whole or not at all
        out.write(data)
    return path, "copied"


def listing() -> str:
    """The tutorials, a line each: name, notebook, what it teaches."""
    width = max(map(len, TUTORIALS))
    return "\n".join(f"{t.name.ljust(width)}  {t.file}  {t.about}" + (" (default)" if t.name == DEFAULT else "")
                     for t in TUTORIALS.values())
