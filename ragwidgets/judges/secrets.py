"""Keeping the API key out of reprs, logs, messages and files."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


class Secret:
    """Holds a secret string; its repr and str never show it. Read it with ``reveal()``."""

    __slots__ = ("_value",)

    def __init__(self, value: str):
        self._value = value

    def reveal(self) -> str:
        return self._value

    def redact(self, text: str) -> str:
        """``text`` with every occurrence of the secret replaced by ``***``."""
        return text.replace(self._value, "***") if self._value else text

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __reduce__(self):
        raise TypeError("a Secret cannot be pickled")


def strip_userinfo(url: str) -> str:
    """The URL without ``user:password@`` (credentials never go into reprs, logs or cache keys)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


def url_host(url: str) -> str:
    """``host[:port]`` of a URL, without credentials."""
    return urlsplit(strip_userinfo(url)).netloc
