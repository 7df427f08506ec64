"""Errors that name the sample and the field at fault."""

from __future__ import annotations


class RagWidgetsError(ValueError):
    """Base class of every input error this package raises."""


class InputError(RagWidgetsError):
    """Bad input: says which sample and which field, and what is wrong.

    ``sample`` is a label such as ``"sample 3 (query_id '12')"`` or None for file-level errors.
    """

    def __init__(self, message: str, *, sample: str | None = None, field: str | None = None):
        self.sample = sample
        self.field = field
        self.detail = message
        where = ", ".join(p for p in (sample, f"field '{field}'" if field else None) if p)
        super().__init__(f"{where}: {message}" if where else message)


class InputWarning(UserWarning):
    """Input that was accepted but probably is not what was meant (unknown keys, missing query_ids)."""
