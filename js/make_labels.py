"""Write js/src/labels.js, the front end's label codes, from ragwidgets.model (the one table):
python js/make_labels.py. tests/widgets/test_bundle.py fails when the file and model.py disagree."""

from pathlib import Path

from ragwidgets import model

OUT = Path(__file__).resolve().parent / "src" / "labels.js"


def labels_js() -> str:
    """The module's text: each spelling's code, and the code of an unjudged cell."""
    codes = ", ".join(f"{spelling}: {code}" for spelling, code in model.LABEL_CODES.items())
    return ("// Written by js/make_labels.py from ragwidgets.model.LABEL_CODES and UNJUDGED: do not edit.\n"
            f"export const LABEL_CODES = {{ {codes} }};\n"
            f"export const UNJUDGED = {model.UNJUDGED};\n")


if __name__ == "__main__":
    OUT.write_text(labels_js(), encoding="utf-8")
