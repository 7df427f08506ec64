"""Stand-ins with the shape of ragas' own result classes (ragas 0.4.3, ragas/dataset_schema.py), for
tests that feed what a ragas user holds without installing ragas (it pulls in langchain, openai
and datasets). What ragwidgets reads of them is what ragas builds the same way: ``to_pandas()``.

- ``SingleTurnSample``: ragas' fields, each None unless given; ``to_dict()`` leaves out the None
  ones (ragas: ``model_dump(exclude_none=True)``).
- ``EvaluationDataset``: ``samples``; ``to_list()`` is the samples' dicts, ``to_pandas()`` a
  DataFrame of them (a field no sample has is no column).
- ``EvaluationResult``: ``scores`` (one dict of metric -> value per sample) and the ``dataset``
  scored; ``to_pandas()`` is the dataset's frame with the scores' columns beside it, and
  ``result[metric]`` a metric's values.

Not modelled: pydantic's validation of the fields, multi-turn samples (``MultiTurnSample``), the
cost and trace callbacks, Hugging Face ``datasets`` conversions.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import pandas as pd


@dataclass
class SingleTurnSample:
    """One single-turn sample, as ragas' ``SingleTurnSample`` holds it."""

    user_input: str | None = None
    retrieved_contexts: list[str] | None = None
    reference_contexts: list[str] | None = None
    retrieved_context_ids: list[str | int] | None = None
    reference_context_ids: list[str | int] | None = None
    response: str | None = None
    multi_responses: list[str] | None = None
    reference: str | None = None
    rubrics: dict[str, str] | None = None
    persona_name: str | None = None
    query_style: str | None = None
    query_length: str | None = None

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass
class EvaluationDataset:
    """Single-turn samples, as ragas' ``EvaluationDataset`` holds them."""

    samples: list[SingleTurnSample]
    backend: str | None = None
    name: str | None = None

    def __len__(self) -> int:
        return len(self.samples)

    def to_list(self) -> list[dict]:
        return [sample.to_dict() for sample in self.samples]

    def to_pandas(self) -> pd.DataFrame:
        return pd.DataFrame(self.to_list())

    @classmethod
    def from_list(cls, data: list[dict]) -> EvaluationDataset:
        return cls(samples=[SingleTurnSample(**row) for row in data])


@dataclass
class EvaluationResult:
    """``ragas.evaluate``'s answer: per-sample scores beside the dataset they score."""

    scores: list[dict]
    dataset: EvaluationDataset
    binary_columns: list[str] = field(default_factory=list)

    def __getitem__(self, metric: str) -> list:
        return [row[metric] for row in self.scores]

    def to_pandas(self) -> pd.DataFrame:
        assert len(self.scores) == len(self.dataset)
        return pd.concat([self.dataset.to_pandas(), pd.DataFrame(self.scores)], axis=1)
