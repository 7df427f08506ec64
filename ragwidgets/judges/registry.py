"""Judges by key, so a scorer configured with ``judge_model_key="..."`` finds its judge."""

from __future__ import annotations

from .errors import UnknownJudgeError
from .protocol import Judge

_JUDGES: dict[str, Judge] = {}


def register_judge(key: str, judge: Judge) -> Judge:
    """Register ``judge`` under ``key`` (replacing any judge registered there) and return it."""
    if not isinstance(key, str) or not key:
        raise ValueError("a judge key must be a non-empty string")
    if not isinstance(judge, Judge):
        raise TypeError(f"{type(judge).__name__} does not implement the Judge protocol")
    _JUDGES[key] = judge
    return judge


def get_judge(key: str) -> Judge:
    """The judge registered under ``key``; an unknown key raises an error listing the known ones."""
    try:
        return _JUDGES[key]
    except KeyError:
        known = ", ".join(repr(k) for k in sorted(_JUDGES)) or "none"
        raise UnknownJudgeError(
            f"no judge registered under {key!r}; known keys: {known}. "
            "Register one with ragwidgets.judges.register_judge(key, judge)."
        ) from None


def unregister_judge(key: str) -> None:
    """Remove the judge registered under ``key`` (no error if there is none)."""
    _JUDGES.pop(key, None)


def registered_judges() -> list[str]:
    """The registered keys, sorted."""
    return sorted(_JUDGES)
