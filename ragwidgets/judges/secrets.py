"""Keeping the API key out of reprs, logs, messages and files."""

from __future__ import annotations

import base64
import logging
import re
import weakref
from typing import Optional
from urllib.parse import quote, unquote, urlsplit


FRAGMENT = 8
"""The shortest piece of a secret that ``Secret.redact`` hides on its own."""


class Secret:
    """Holds a secret string; its repr and str never show it. Read it with ``reveal()``.
    ``pieces=False``: ``redact`` hides it whole only (a piece of a password may be a word)."""

    __slots__ = ("_value", "_pieces", "__weakref__")

    def __init__(self, value: str, pieces: bool = True):
        self._value = value
        self._pieces = pieces

    def reveal(self) -> str:
        return self._value

    def redact(self, text: str) -> str:
        """``text`` with the secret, and every piece of it of ``FRAGMENT`` characters or more (unless
        made with ``pieces=False``), as ``***``.

        Pieces too: a proxy that echoes a key may cut or wrap it.
        """
        secret = self._value
        if not secret:
            return text
        text = text.replace(secret, "***")
        if len(secret) < FRAGMENT or not self._pieces:
            return text
        start = 0
        while start <= len(secret) - FRAGMENT:
            piece = secret[start : start + FRAGMENT]
            at = text.find(piece)
            if at < 0:
                start += 1
                continue
            end = FRAGMENT
            while start + end < len(secret) and at + end < len(text) and text[at + end] == secret[start + end]:
                end += 1
            text = text[:at] + "***" + text[at + end :]
        return text

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __reduce__(self):
        raise TypeError("a Secret cannot be pickled")


_USERINFO = re.compile(r"^((?:[^:/?#]+:)?//)[^/?#]*@")


def strip_userinfo(url: str) -> str:
    """The URL without ``user:password@`` (credentials never go into reprs, logs or cache keys);
    never raises, even for a URL ``urlsplit`` cannot read (a bracket left open)."""
    return _USERINFO.sub(r"\1", url)


def url_credentials(url: str) -> tuple[str, str] | None:
    """The ``(user, password)`` written in a URL's ``user:password@`` part (percent-decoded), else None."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return None
    return unquote(parts.username or ""), unquote(parts.password or "")


def sent_secrets(key: Optional[Secret], credentials: Optional[tuple[str, str]]) -> list[str]:
    """Every form in which the API ``key`` or the URL's ``(user, password)`` may come back from a
    server that echoes a request: the key; the user and password, plain and URL-encoded; the base64
    of ``user:password`` that HTTP basic auth sends. Empty ones left out."""
    forms = [] if key is None else [key.reveal()]
    if credentials is not None:
        user, password = credentials
        forms += [user, password, quote(user, safe=""), quote(password, safe=""),
                  base64.b64encode(f"{user}:{password}".encode("utf-8")).decode("ascii")]
    return [f for f in dict.fromkeys(forms) if f]


def answer_secrets(key: Optional[Secret], credentials: Optional[tuple[str, str]]) -> list[Secret]:
    """The forms of ``sent_secrets`` redacted from a model's answer and reasoning, where a form that
    may be an ordinary word would cut words out of claims and labels (a user name ``e`` turns
    ``Entailment`` into ``***ntailm***nt``): only those that cannot be, each at least ``FRAGMENT``
    characters long. The key and the base64 ``Authorization`` value, pieces included; the password,
    plain and URL-encoded, whole only. The user name alone is no secret. Empty: no such form."""
    forms = [] if key is None else [key]
    if credentials is not None:
        user, password = credentials
        forms.append(Secret(base64.b64encode(f"{user}:{password}".encode("utf-8")).decode("ascii")))
        forms += [Secret(p, pieces=False) for p in dict.fromkeys([password, quote(password, safe="")])]
    return [f for f in forms if len(f.reveal()) >= FRAGMENT]


def url_host(url: str) -> str:
    """``host[:port]`` of a URL, without credentials."""
    return urlsplit(strip_userinfo(url)).netloc


HTTP_LOGGERS = ("httpx", "httpcore.connection", "httpcore.http11", "httpcore.http2", "httpcore.proxy",
                "httpcore.socks")
"""The loggers of the HTTP client: at DEBUG level they write request and response headers, so a
server that echoes a key in a header would put it in a log."""


class _RedactLogs(logging.Filter):
    """Rewrites log records of the HTTP client without any live secret in them."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: "weakref.WeakSet[Secret]" = weakref.WeakSet()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = message
        for secret in list(self.secrets):
            redacted = secret.redact(redacted)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


_REDACT_LOGS = _RedactLogs()
for _name in HTTP_LOGGERS:
    logging.getLogger(_name).addFilter(_REDACT_LOGS)


def keep_out_of_logs(secret: Secret) -> Secret:
    """Redact ``secret`` from the HTTP client's log records while it is alive; returns it."""
    _REDACT_LOGS.secrets.add(secret)
    return secret
