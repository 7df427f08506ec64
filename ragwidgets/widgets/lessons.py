"""The Harbor Museum lesson's experiments, as presets: each a complete state with what it shows."""

from __future__ import annotations

from typing import NamedTuple


class Preset(NamedTuple):
    name: str
    note: str
    retrieval: str
    answer: str
    citation: str


HARBOR_PRESETS = [
    Preset("No retrieval", "Nothing retrieved: context relevance is 0/0 = Undefined, and no claim is "
           "supported.", "No retrieval", "Fully supported", "Matched"),
    Preset("Empty answer", "No claims: faithfulness and citation precision are Undefined, "
           "completeness is 0.", "Current sources", "Empty answer", "Matched"),
    Preset("Faithful fragment", "Every claim supported and validly cited, yet two of three required "
           "facts are missing.", "Current sources", "Faithful fragment", "Matched"),
    Preset("Off-topic garden answer", "Faithful to the retrieved garden note, off-topic for the "
           "question.", "All sources", "Garden answer", "Matched"),
    Preset("Outdated answer", "Supported and well cited by the outdated D4, but the current Tuesday "
           "and 10:00 are not covered.", "Outdated schedule and admission", "Outdated answer", "Matched"),
    Preset("Free admission", "D2 states 4 credits; it does not entail free admission.",
           "Current sources", "Free admission", "Matched"),
    Preset("Misplaced citations", "Every claim cites the unretrieved garden note D3: supported, "
           "yet no citation is valid.", "Current sources", "Fully supported", "Misplaced"),
    Preset("Mixed citations", "The first two claims cite their source; the third cites D3.",
           "Current sources", "Fully supported", "Mixed"),
    Preset("No citations", "No citations: citation precision is Undefined, citation support 0.",
           "Current sources", "Fully supported", "None"),
]
