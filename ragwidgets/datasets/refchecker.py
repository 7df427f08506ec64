"""RefChecker's human claim labels as runs in RAGChecker's results format.

Data: amazon-science/RefChecker (commit 1df1b25), ``benchmark/human_annotations_v1/``, CC BY 4.0
(``refchecker_human/LICENSE.txt``). Seven LLMs answered the same 100 questions in each of three
settings; humans labelled every claim triple of every answer Entailment, Neutral or
Contradiction against the reference.

**No questions.** RefChecker publishes only the answers and their labels: the questions and
reference passages are not in its repository (its ``benchmark/data/download_data.sh`` rebuilds
them from Natural Questions' dev set, MS MARCO v2.1 and databricks-dolly-15k, keyed by these
ids), so every sample's ``query`` is empty (:data:`NO_QUESTION` says why, for a view to show in
its place), never a guessed question.

The mapping, per answer (one sample, ``query_id`` = the dataset's ``id``):

- ``response_claims``: the answer's claim triples, in the dataset's order;
- ``zero_context`` (NQ): the reference is the ground truth, so the human labels play
  ``answer2response`` and ``precision`` is the share of entailed claims;
- ``noisy_context`` (MS MARCO) and ``accurate_context`` (Dolly): the reference is the passage
  given to the model, so the labels play ``retrieved2response`` against one passage
  (``<id>/context``, text not included) and ``faithfulness`` is the share of entailed claims;
- Neutral and Contradiction both count as not entailed, as in RAGChecker; :func:`refchecker_claims`
  keeps the three labels apart. An answer without claims (an abstention) has Undefined
  precision / faithfulness, never 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parent / "refchecker_human"
SETTINGS = {"zero_context": "nq", "noisy_context": "msmarco", "accurate_context": "dolly"}
SYSTEMS = ("alpaca_7B", "chatgpt", "claude2", "davinci001", "falcon_40B_instruct", "gpt4", "llama2_70b_chat")
CONTEXT_TEXT = "(the reference passage is not included in the dataset)"
NO_QUESTION = "no question in this dataset (RefChecker publishes the answers and their labels only)"


def _settings(setting: str | None) -> list[str]:
    if setting is None:
        return list(SETTINGS)
    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {', '.join(SETTINGS)} (or None for all), not {setting!r}")
    return [setting]


def _raw(setting: str, system: str) -> list[dict]:
    return json.loads((DATA / setting / f"{SETTINGS[setting]}_{system}_answers.json").read_text(encoding="utf-8"))


def _claims(item: dict) -> list[dict]:
    """The item's labelled triples (under ``<extractor>_response_kg``)."""
    return next((v for k, v in item.items() if k.endswith("_response_kg")), [])


def _record(item: dict, setting: str) -> dict:
    claims = _claims(item)
    labels = [c["human_label"] for c in claims]
    record = {"query_id": str(item["id"]), "query": "", "response": item["response"],
              "response_claims": [list(c["triplet"]) for c in claims]}
    if setting == "zero_context":
        record["answer2response"] = labels
    else:
        record["retrieved_context"] = [{"doc_id": f"{item['id']}/context", "text": CONTEXT_TEXT}]
        record["retrieved2response"] = [[label] for label in labels]
    return record


def refchecker_human(setting: str | None = None) -> dict:
    """The seven systems' runs: ``{system: records}`` for one setting (zero_context,
    noisy_context, accurate_context), or ``{setting: {system: records}}`` for all three (None).

    Each value is a list of RAGChecker-format records: pass it to ``rw.evaluate`` or the dict of
    runs to ``rw.DatasetExplorer``."""
    out = {s: {system: [_record(item, s) for item in _raw(s, system)] for system in SYSTEMS}
           for s in _settings(setting)}
    return out[setting] if setting is not None else out


def refchecker_claims(setting: str | None = None) -> pd.DataFrame:
    """One row per labelled claim: setting, system, query_id, claim (position in the answer),
    subject, predicate, object, human_label (Entailment / Neutral / Contradiction)."""
    rows = [(s, system, str(item["id"]), j, *c["triplet"], c["human_label"])
            for s in _settings(setting) for system in SYSTEMS for item in _raw(s, system)
            for j, c in enumerate(_claims(item))]
    return pd.DataFrame(rows, columns=["setting", "system", "query_id", "claim", "subject", "predicate",
                                       "object", "human_label"])
