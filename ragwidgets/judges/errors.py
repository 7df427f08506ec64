"""Errors raised by the judge layer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InputError


class JudgeError(RuntimeError):
    """A judge cannot do what was asked (misconfiguration, unsupported operation)."""


class JudgeRequestError(JudgeError):
    """The model server refused a request in a way that retrying cannot fix (e.g. HTTP 401, 404)."""


class UnknownJudgeError(KeyError):
    """No judge is registered under the requested key."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0])


class FillInputError(InputError):
    """A record given to ``fill_labels`` is malformed; the message names the sample and the field.

    ``index``: the record's position among those given.
    """

    def __init__(self, message: str, *, index: int, record: Mapping[str, Any], field: str):
        self.index = index
        qid = record.get("query_id")
        sample = f"sample {index}" + (f" (query_id {qid!r})" if qid is not None else "")
        super().__init__(message, sample=sample, field=field)


class AnswerParseError(ValueError):
    """A model answer could not be read as the JSON that was asked for."""
