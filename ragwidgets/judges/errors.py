"""Errors raised by the judge layer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from ..errors import InputError


class JudgeError(RuntimeError):
    """A judge cannot do what was asked (misconfiguration, unsupported operation)."""


class JudgeRequestError(JudgeError):
    """The server refused the judge itself (HTTP 401, 403, 404, 405: key, URL or model wrong), or could
    not be reached on any retry of a call (down, or a wrong host): every request would fail the same
    way, so the run stops there and sends no new request. Answers received before are in the cache."""


class JudgeRunStopped(JudgeError):
    """A run stopped because more calls failed than its ``max_failures`` allows.

    ``results``: one per job, None for the jobs not finished (every finished answer is also in the
    cache, so running again resumes); ``failures``: ``(job index, reason)`` of the failed calls.
    Raised by ``fill_labels``, ``records`` holds the records with what finished (the rest unjudged);
    by ``RagChecker.score``, ``result`` holds the ``ScoringResult`` of those records.
    """

    def __init__(self, message: str, *, results: list, failures: list[tuple[int, str]]):
        super().__init__(message)
        self.results = results
        self.failures = failures
        self.records: Optional[list] = None
        self.result: Any = None


class JudgeInterrupted(KeyboardInterrupt):
    """An interrupt (Ctrl-C, a notebook's stop button) stopped a run: requests in flight were cancelled
    and no new one was sent. Answers received before it are in the cache (``results``: the finished
    jobs' results, None for the others, when the run was ``Judge.run``)."""

    def __init__(self, message: str, results: Optional[list] = None):
        super().__init__(message)
        self.results = results


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
