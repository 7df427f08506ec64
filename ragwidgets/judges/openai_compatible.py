"""A judge backed by any server that speaks OpenAI's chat-completions protocol.

vLLM, Ollama, a LiteLLM proxy and hosted APIs all accept ``POST {base_url}/chat/completions``.
Requests are async (httpx) with at most ``max_concurrency`` in flight per judge, across threads and
event loops. Each request has a total deadline (``timeout``). What a retry may fix is retried with
exponential backoff up to ``max_retries`` times (``Retry-After`` honoured up to ``backoff_max``):
timeouts, connection errors, HTTP 408/429/5xx, a body that is not a chat completion (no
``choices``) or is over ``max_reply_bytes`` decoded, a reply cut short (``finish_reason``
"length"), and an answer that fails validation (no JSON after the reasoning, a reasoning block
left open, a wrong number of claims or labels, labels numbered other than 1..n, no claims for a
non-empty text). Only validated answers are cached. A request the server refuses for its content
(HTTP 400, 413, 422, …) leaves that call unjudged with the server's reason, and the run goes on.
A refusal of the judge itself (HTTP 401, 403, 404, 405) raises ``JudgeRequestError`` at once, and
so does a server that cannot be reached on any attempt; either way no new request is sent.

The API key: ``api_key``, else the variable named by ``api_key_env``, else ``$OPENAI_API_KEY`` —
the last only when ``base_url`` is on ``api.openai.com``, the host that key is meant for (name
the variable to send it elsewhere). Credentials in ``base_url`` (``http://user:pass@host/v1``)
are sent as HTTP basic auth. Every text a server sends back is redacted as it is read, before it
can reach a reason, a trace, the cache or an output: an error body, an echoed header or an
exception's message of every form of what was sent (the key, the user and password, plain and
URL-encoded, and their base64 ``Authorization`` value); an answer and its reasoning only of the
forms that cannot be ordinary words, each at least 8 characters long (the key, the base64 value,
the password), so that a user name such as ``e`` does not cut words out of claims and labels.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import html
import json
import logging
import math
import os
import random
import re
import socket
import time
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Optional
from urllib.parse import SplitResult, urlsplit

import httpx

from .answers import ENTAILMENT_SYNONYMS, IMPORTANCE_SYNONYMS, parse_claims, parse_labels
from .base import BaseJudge, CallOutcome
from .cache import MISSING, CacheSetting
from .claims import ClaimLike, Reference, claim_text, reference_text
from .errors import AnswerParseError, JudgeError, JudgeRequestError
from .limits import ConcurrencyLimit
from .prompts import load_prompt, numbered
from .secrets import (Secret, answer_secrets, keep_out_of_logs, sent_secrets, strip_userinfo, url_credentials,
                      url_host)
from .sync import run_sync

logger = logging.getLogger("ragwidgets.judges")

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
JUDGE_REFUSED_STATUS = frozenset({401, 403, 404, 405})
OPENAI_HOST = "api.openai.com"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
MESSAGE_LIMIT = 300  # characters of a server's error text kept in a reason
MAX_REPLY_BYTES = 4 << 20  # a reply's decoded body, at most (an answer is a few kB)
ACCEPT_ENCODING = "gzip, deflate"  # what _read_body can inflate within the bound
CUT_SHORT = frozenset({"length", "content_filter"})  # finish reasons of a reply that did not end on its own
REASONING_FIELDS = ("reasoning_content", "reasoning")  # where vLLM, DeepSeek and others put a reasoning text
_PAGE_TITLE = re.compile(r"<title\b[^<>]*>([^<]*)<", re.IGNORECASE)  # none of these reads past the next "<"
_PAGE_HIDDEN = re.compile(r"<(head|script|style)\b|<!--", re.IGNORECASE)
_PAGE_TAG = re.compile(r"<[^<>]*>")

PROMPT_NAMES = {"extract": "extract_v1", "check": "check_v1", "label": "label_v1", "group": "group_v1"}
CHARS_PER_TOKEN = 4  # the usual rule of thumb for English text; estimates only
CLAIM_JSON_CHARS = 45  # {"subject": "", "predicate": "", "object": ""}, around a claim's words
LABEL_JSON_CHARS = 16  # "Contradiction", in a list


@dataclass
class _Reply:
    """One chat completion's answer text (None when the body is not a chat completion), tokens and
    why it ended."""

    content: Optional[str]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: Optional[str] = None
    reasoning: Optional[str] = None  # a reasoning text the server sent beside the content


@dataclass
class _Received:
    """A response read within ``max_reply_bytes``: its status, headers and decoded body."""

    status: int
    headers: httpx.Headers
    body: bytes
    encoding: str

    @property
    def text(self) -> str:
        try:
            return self.body.decode(self.encoding, errors="replace")
        except LookupError:  # a charset Python does not know
            return self.body.decode("utf-8", errors="replace")


@dataclass
class _Session:
    """One ``session()`` block: its connection pool, and why it sends no more requests (None: it does)."""

    client: httpx.AsyncClient
    stopped: Optional[str] = None


class _BadBody(Exception):
    """A body that was not read: over ``max_reply_bytes``, or in an encoding that cannot be read."""


def _read_key(api_key: Optional[str], api_key_env: Optional[str], host: str) -> Optional[Secret]:
    """The key given, else the one in ``$api_key_env``, else ``$OPENAI_API_KEY`` for OpenAI's host;
    without surrounding whitespace (a key read from a file keeps its line end); None if there is
    none. A key an HTTP header cannot carry is refused here, before an HTTP library quotes it in an
    exception or a debug log."""
    if api_key is not None:
        source, key = "api_key", api_key
    elif api_key_env is not None:
        source, key = f"${api_key_env}", os.environ.get(api_key_env) or ""
    elif host.split(":")[0] == OPENAI_HOST:
        source, key = f"${DEFAULT_KEY_ENV}", os.environ.get(DEFAULT_KEY_ENV) or ""
    else:
        return None
    key = key.strip()
    if not key:
        return None
    if not (key.isascii() and key.isprintable()):
        raise ValueError(f"the API key in {source} has characters that an HTTP header cannot carry "
                         "(non-ASCII or control characters)")
    return Secret(key)


def _url_parts(base_url: str) -> SplitResult:
    """``base_url`` split, once it is an http(s) URL with a host and a port a request can use; else a
    ValueError naming it (without its user and password). An ``@`` left once ``user:password@`` is
    stripped (a password with an unescaped ``/``, ``?`` or ``#``, or no ``//`` after the scheme) may
    end a password a parser reads as host, path or query: refused without showing the URL."""
    if not isinstance(base_url, str):
        raise ValueError(f"base_url must be an http:// or https:// URL such as http://localhost:8000/v1, "
                         f"got {type(base_url).__name__}")
    if "@" in strip_userinfo(base_url):
        raise ValueError("base_url has an '@' that does not end a user:password part right after http:// or https:// "
                         "(the URL is not shown: it may hold a password): percent-encode the password's /, ? and # "
                         "(%2F, %3F, %23) and any @ in it (%40)")
    try:
        parts = urlsplit(base_url)
        parts.port  # noqa: B018 - read for its check: a port out of 0-65535, or not a number, raises
        httpx.URL(base_url)
    except (ValueError, httpx.InvalidURL) as err:
        raise ValueError(f"base_url {strip_userinfo(base_url)!r} is not a URL a request can be sent to: "
                         f"{err}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("base_url must be an http:// or https:// URL such as http://localhost:8000/v1, "
                         f"got {strip_userinfo(base_url)!r}")
    return parts


def _tokens(chars: int) -> int:
    return math.ceil(chars / CHARS_PER_TOKEN)


def _retry_after_seconds(value: Optional[str]) -> Optional[float]:
    """A ``Retry-After`` header (seconds, or an HTTP date) as seconds from now; None if absent or unreadable."""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:  # "-0000": UTC all the same
            when = when.replace(tzinfo=timezone.utc)
        seconds = when.timestamp() - time.time()
    return seconds if math.isfinite(seconds) else None


def _connect_failure(exc: BaseException) -> str:
    """Why a connection failed: the system's error in the chain ("Connection refused", not a summary
    of attempts), else the error's own text."""
    inner: Optional[BaseException] = exc
    for _ in range(8):
        if inner is None:
            break
        if isinstance(inner, OSError) and inner.errno and inner.errno > 0:
            return os.strerror(inner.errno)
        inner = inner.__cause__ or inner.__context__
    return str(exc) or type(exc).__name__


def _page_text(page: str) -> str:
    """An HTML error page as text: its title, else its visible text. Read by linear scans: a
    hostile page of unclosed tags costs no more than its length."""
    title = _PAGE_TITLE.search(page)
    if title and title.group(1).strip():
        return html.unescape(title.group(1))
    return html.unescape(_PAGE_TAG.sub(" ", _visible(page)))


def _visible(page: str) -> str:
    """``page`` without its head, scripts, styles and comments (one left open hides the rest)."""
    kept, at = [], 0
    while (hidden := _PAGE_HIDDEN.search(page, at)) is not None:
        kept.append(page[at : hidden.start()])
        end = re.compile(rf"</{hidden.group(1)}\s*>" if hidden.group(1) else "-->", re.IGNORECASE)
        closed = end.search(page, hidden.end())
        if closed is None:
            return " ".join(kept)
        at = closed.end()
    return " ".join([*kept, page[at:]])


@dataclass(frozen=True)
class JudgeRecipe:
    """How to build a judge again in another process (a Dask worker): its class and constructor
    arguments, never a key. ``key_env``: the variable the key is read from there (None: no key)."""

    cls: type
    arguments: dict[str, Any]
    key_env: Optional[str]

    def build(self) -> "OpenAICompatibleJudge":
        if self.key_env is not None and not (os.environ.get(self.key_env) or "").strip():
            raise JudgeError(f"${self.key_env} is not set on {socket.gethostname()} (process {os.getpid()}), where the "
                             "judge reads its key: set it in the environment the workers start in")
        return self.cls(**self.arguments)


class OpenAICompatibleJudge(BaseJudge):
    """Judge with a chat-completions model (see the module docstring for retries and keys).

    ``timeout``: seconds one request may take in all (connecting, waiting, reading). ``max_failures``:
    stop a run once more calls than this failed (None: never). ``max_reply_bytes``: the most a reply's
    body may hold, decoded (more is a failed attempt, read no further). ``check_batch_size`` claims are
    checked per prompt (joint checking). ``cache``: ``"default"`` (the user's cache dir), a path, a
    ``JudgeCache``, or None for none. ``price_per_input_token`` / ``price_per_output_token``: what
    the server charges, to price a dry run's token estimate. ``keep_traces``: keep each validated
    call's messages and reply in the cache beside its answers (``judges.trace_of``; about 1.4 kB a
    call), or, False, the answers only. ``seed``: sent as the request's ``seed`` (plus the repeat
    index, see ``judges.repeats``) where the endpoint takes one; None: no seed is sent.
    """

    sends_requests = True

    def __init__(
        self,
        model: str,
        base_url: str,
        api_key: Optional[str] = None,
        api_key_env: Optional[str] = None,
        *,
        max_concurrency: int = 8,
        timeout: float = 60.0,
        max_retries: int = 4,
        backoff: float = 0.5,
        backoff_max: float = 30.0,
        max_failures: Optional[int] = None,
        check_batch_size: int = 8,
        temperature: float = 0.0,
        seed: Optional[int] = None,
        max_tokens: Optional[int] = None,
        max_reply_bytes: int = MAX_REPLY_BYTES,
        price_per_input_token: Optional[float] = None,
        price_per_output_token: Optional[float] = None,
        cache: CacheSetting = "default",
        progress: bool = True,
        keep_traces: bool = True,
    ):
        arguments = {k: v for k, v in locals().items() if k not in ("self", "api_key", "__class__")}
        parts = _url_parts(base_url)
        if parts.query or parts.fragment:
            raise ValueError("base_url must not carry a query string or fragment (pass the API key as api_key "
                             "or through the environment)")
        for name, value, low in (("max_concurrency", max_concurrency, 1), ("max_retries", max_retries, 0),
                                 ("check_batch_size", check_batch_size, 1), ("max_reply_bytes", max_reply_bytes, 1)):
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"{name} must be a whole number of at least {low}, got {value!r}")
        for name, value, what in (("timeout", timeout, "seconds above 0"), ("backoff", backoff, "seconds, 0 or more"),
                                  ("backoff_max", backoff_max, "seconds, 0 or more"),
                                  ("price_per_input_token", price_per_input_token, "a price, 0 or more"),
                                  ("price_per_output_token", price_per_output_token, "a price, 0 or more")):
            if value is None and name.startswith("price"):
                continue
            if not isinstance(value, (int, float)) or not (value > 0 if name == "timeout" else value >= 0):
                raise ValueError(f"{name} must be a number ({what}), got {value!r}")
        credentials = url_credentials(base_url)
        key = _read_key(api_key, api_key_env, url_host(base_url))
        if credentials is not None and key is not None:
            raise ValueError("base_url carries a user and password and an API key is set too: both would go in the "
                             "Authorization header; use one of them")
        super().__init__(cache=cache, progress=progress, max_failures=max_failures, keep_traces=keep_traces)
        self.model = model
        self.base_url = strip_userinfo(base_url.rstrip("/"))
        self._arguments = dict(arguments, base_url=self.base_url)  # without a user and password
        self._key_given = api_key is not None
        self._api_key = key
        self._basic = None if credentials is None else (Secret(credentials[0]), Secret(credentials[1]))
        self._secrets = tuple(keep_out_of_logs(Secret(s)) for s in sent_secrets(key, credentials))
        self._answer_secrets = tuple(answer_secrets(key, credentials))
        self.api_key_env = api_key_env
        self.max_concurrency = max_concurrency
        self.timeout = float(timeout)
        self.max_retries = max_retries
        self.backoff = float(backoff)
        self.backoff_max = float(backoff_max)
        self.check_batch_size = check_batch_size
        self.temperature = temperature
        self.seed = seed
        self.max_tokens = max_tokens
        self.max_reply_bytes = max_reply_bytes
        self.price_per_input_token = price_per_input_token
        self.price_per_output_token = price_per_output_token
        self._limit = ConcurrencyLimit(max_concurrency)
        self._session: contextvars.ContextVar[Optional[_Session]] = contextvars.ContextVar(
            "ragwidgets_judge_session", default=None
        )

    def __repr__(self) -> str:
        auth = "basic" if self._basic else "set" if self._api_key else "none"
        return (
            f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r}, api_key=<{auth}>, "
            f"max_concurrency={self.max_concurrency}, check_batch_size={self.check_batch_size})"
        )

    def __getstate__(self):
        raise TypeError(f"{type(self).__name__} holds an API key and cannot be pickled")

    def recipe(self) -> JudgeRecipe:
        """This judge's recipe (see ``JudgeRecipe``): the key stays behind, read from the same variable
        where the recipe is built; the cache travels as its absolute location."""
        if self._key_given:
            raise ValueError("this judge was given api_key= directly, and a key is never sent to another process: "
                             "give api_key_env='NAME' instead, NAME a variable set where the workers run")
        if self._basic is not None:
            raise ValueError("base_url carries a user and password, which are never sent to another process: "
                             "use an API key from the environment (api_key_env) instead")
        arguments = dict(self._arguments, cache=self.cache)  # a cache pickles as its location
        key_env = self.api_key_env or (DEFAULT_KEY_ENV if self._api_key is not None else None)
        return JudgeRecipe(type(self), arguments, key_env)

    def prompt_version(self, operation: str) -> str:
        return load_prompt(PROMPT_NAMES[operation]).version

    # -- HTTP ---------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[None]:
        """Share one connection pool among the calls made inside this block (re-entrant)."""
        if self._session.get() is not None:
            yield
            return
        headers = {"Content-Type": "application/json", "Accept-Encoding": ACCEPT_ENCODING}
        if self._api_key is not None:
            headers["Authorization"] = f"Bearer {self._api_key.reveal()}"
        auth = None if self._basic is None else httpx.BasicAuth(self._basic[0].reveal(), self._basic[1].reveal())
        limits = httpx.Limits(max_connections=self.max_concurrency, max_keepalive_connections=self.max_concurrency)
        async with httpx.AsyncClient(headers=headers, auth=auth, timeout=self.timeout, limits=limits) as client:
            token = self._session.set(_Session(client))
            try:
                yield
            finally:
                self._session.reset(token)

    def _redact(self, text: str) -> str:
        """``text`` without any form of the credentials the judge sends (``secrets.sent_secrets``),
        then safe to cut, log, raise, cache or write."""
        for secret in self._secrets:
            text = secret.redact(text)
        return text

    def _redact_answer(self, text: str) -> str:
        """``text`` (a model's answer or reasoning, or a prompt) without the forms of the credentials
        that cannot be ordinary words (``secrets.answer_secrets``): the words it holds stay as written."""
        for secret in self._answer_secrets:
            text = secret.redact(text)
        return text

    def _server_says(self, received: _Received) -> str:
        """The server's error text (its JSON ``message``, or an HTML page's title or text), redacted,
        then cut."""
        text = received.text
        try:
            data = json.loads(text)
            error = data.get("error", data)
            text = str(error.get("message") or error) if isinstance(error, dict) else str(error)
        except (ValueError, AttributeError, TypeError):
            if "html" in received.headers.get("Content-Type", "").lower() or text.lstrip().startswith("<"):
                text = _page_text(text)
        echoed = " ".join(f"{k}: {v}" for k, v in received.headers.items() if k.lower().startswith("x-"))
        text = self._redact(" ".join(f"{text} {echoed}".split()))
        return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"

    def _delay(self, attempt: int, retry_after: Optional[str]) -> float:
        """Seconds before the retry after ``attempt``: the server's ``Retry-After`` when it gives a
        readable one, else exponential backoff with jitter; never more than ``backoff_max``."""
        wait = _retry_after_seconds(retry_after)
        if wait is None:
            return min(self.backoff_max, self.backoff * 2**attempt) * (0.5 + random.random() / 2)
        return min(self.backoff_max, max(0.0, wait))

    def _read_reply(self, received: _Received) -> _Reply:
        """The answer text and a reasoning text, redacted as answers are (the only server text an
        answer, a trace or the cache holds), the tokens the server reports (kept even when ``choices`` is empty; none when
        it reports none) and the finish reason."""
        try:
            data = json.loads(received.text)
        except ValueError:
            return _Reply(None)
        usage = data.get("usage") if isinstance(data, dict) else None
        tokens = [0, 0]
        if isinstance(usage, dict):
            for i, name in enumerate(("prompt_tokens", "completion_tokens")):
                with contextlib.suppress(TypeError, ValueError):
                    tokens[i] = int(usage.get(name) or 0)
        try:
            choice = data["choices"][0]
            content = choice["message"]["content"]
        except (KeyError, IndexError, TypeError):
            return _Reply(None, *tokens)
        finish = choice.get("finish_reason")
        reasoning = next((r for r in (choice["message"].get(name) for name in REASONING_FIELDS)
                          if isinstance(r, str) and r), None)
        return _Reply(self._redact_answer(content) if isinstance(content, str) else "", *tokens,
                      finish if isinstance(finish, str) else None,
                      None if reasoning is None else self._redact_answer(reasoning))

    async def _read_body(self, response: httpx.Response) -> bytes:
        """The body, inflated as its ``Content-Encoding`` says, read no further than ``max_reply_bytes``
        decoded bytes (a compression bomb or an endless body stops there)."""
        codings = [c.strip().lower() for c in response.headers.get("Content-Encoding", "").split(",")]
        codings = [c for c in codings if c not in ("", "identity")]
        if codings not in ([], ["gzip"], ["x-gzip"], ["deflate"]):
            raise _BadBody(f"the reply is encoded as {', '.join(codings)!r}, which the judge did not ask for")
        inflate = zlib.decompressobj(32 + zlib.MAX_WBITS) if codings else None  # a gzip or zlib header
        parts: list[bytes] = []
        size = 0
        try:
            async for chunk in response.aiter_raw():
                while chunk:
                    if inflate is None:
                        part, chunk = chunk, b""
                    else:
                        part = inflate.decompress(chunk, self.max_reply_bytes - size + 1)
                        chunk = inflate.unconsumed_tail
                    size += len(part)
                    if size > self.max_reply_bytes:
                        raise _BadBody(f"the reply is over max_reply_bytes={self.max_reply_bytes} bytes (decoded)")
                    parts.append(part)
            if inflate is not None:
                parts.append(inflate.flush())
        except zlib.error as exc:
            raise _BadBody(f"the reply's {codings[0]} body is corrupt ({exc})") from None
        return b"".join(parts)

    async def _fetch(self, client: httpx.AsyncClient, body: dict[str, Any]) -> _Received:
        async with client.stream("POST", f"{self.base_url}/chat/completions", json=body) as response:
            data = await self._read_body(response)
            return _Received(response.status_code, response.headers, data, response.charset_encoding or "utf-8")

    async def _post(self, body: dict[str, Any], retry_reason: Optional[str]) -> _Received:
        """One request, within ``timeout`` seconds in all (waiting for a free slot does not count).

        Nothing is sent once the session has stopped. A refusal of the judge stops it before its slot
        is freed, so no request waiting for a slot is sent with the same key."""
        session = self._session.get()
        async with self._limit:
            if session.stopped is not None:
                raise JudgeRequestError(session.stopped)
            self.stats.add_request(retry_reason=retry_reason)
            received = await asyncio.wait_for(self._fetch(session.client, body), self.timeout)
            if received.status in JUDGE_REFUSED_STATUS:
                session.stopped = (f"{self.base_url}/chat/completions answered HTTP {received.status} (check the "
                                   f"URL, the model name and the key): {self._server_says(received)}")
                raise JudgeRequestError(session.stopped)
            return received

    async def _ask(self, messages: list[dict[str, str]], parse: Callable[[str], Any]) -> CallOutcome:
        """Ask until an answer passes ``parse`` (which validates it), retrying what a retry may fix.

        Never raises for a fault of one request; ``JudgeRequestError`` when the server refuses the judge,
        or cannot be reached on the last attempt (a server that is down: every call would fail so).
        """
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": self.temperature}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if self.seed is not None:  # each repeat its own seed, so repeats are distinct requests
            body["seed"] = self.seed + self.repeat
        outcome = CallOutcome(None, attempts=0)
        error, retry_after, unreachable = "", None, ""
        async with self.session():
            for attempt in range(self.max_retries + 1):
                if attempt:
                    await asyncio.sleep(self._delay(attempt - 1, retry_after))
                retry_after, unreachable = None, ""
                outcome.attempts += 1
                try:
                    received = await self._post(body, retry_reason=error or None)
                except (asyncio.TimeoutError, httpx.TimeoutException) as exc:
                    error = f"no complete answer within {self.timeout:g} s"
                    if isinstance(exc, httpx.ConnectTimeout):
                        unreachable = "no connection within the timeout"
                    continue
                except httpx.TransportError as exc:
                    error = f"connection error ({type(exc).__name__})"
                    if isinstance(exc, httpx.ConnectError):
                        unreachable = self._redact(_connect_failure(exc))
                    continue
                except _BadBody as exc:
                    error = self._redact(str(exc))
                    continue
                status = received.status
                if status != 200 and status not in RETRYABLE_STATUS:
                    outcome.reason = f"the server refused the request: HTTP {status}: {self._server_says(received)}"
                    return outcome
                if status != 200:
                    error, retry_after = f"HTTP {status}", received.headers.get("Retry-After")
                    continue
                reply = self._read_reply(received)
                outcome.prompt_tokens += reply.prompt_tokens
                outcome.completion_tokens += reply.completion_tokens
                self.stats.add_tokens(reply.prompt_tokens, reply.completion_tokens)
                if reply.content is None:
                    error = "the response is not a chat completion (no choices)"
                    continue
                if reply.finish_reason in CUT_SHORT:
                    error = f'the reply was cut short (finish_reason "{reply.finish_reason}")'
                    if reply.finish_reason == "length" and self.max_tokens is not None:
                        error += f": max_tokens={self.max_tokens} may be too low"
                    continue
                try:
                    outcome.value = parse(reply.content)
                    outcome.trace = self._trace(messages, reply)
                    return outcome
                except AnswerParseError as exc:
                    error = f"unreadable answer: {self._redact(str(exc))}"
            if unreachable:
                session = self._session.get()
                session.stopped = (f"could not reach {url_host(self.base_url)} ({unreachable}) after "
                                   f"{outcome.attempts} attempts: is the server at {self.base_url} running? No new "
                                   "request was sent; the answers received are in the cache, so running again "
                                   "resumes from them")
                raise JudgeRequestError(session.stopped)
        outcome.reason = f"{error} (after {outcome.attempts} attempts)"
        return outcome

    def _trace(self, messages: list[dict[str, str]], reply: _Reply) -> dict[str, Any]:
        """What one validated call sent and received, as plain JSON, with any key redacted: the
        messages, the reply as the server wrote it (reasoning included; redacted as it was read),
        why it ended, and when (UTC)."""
        return {
            "messages": [{"role": m["role"], "content": self._redact_answer(m["content"])} for m in messages],
            "reply": reply.content or "",
            "reasoning": reply.reasoning,
            "finish_reason": reply.finish_reason,
            "time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }

    # -- the three operations -----------------------------------------------------------------

    @staticmethod
    def _messages(operation: str, *, text: str = "", question: str = "", instructions: Optional[str] = None,
                  claims: Optional[list[str]] = None, reference: str = "") -> list[dict[str, str]]:
        prompt = load_prompt(PROMPT_NAMES[operation])
        if operation == "extract":
            return prompt.messages(instructions, question=question, text=text)
        if operation == "check":
            return prompt.messages(reference=reference, claims=numbered(claims or []))
        return prompt.messages(instructions, question=question, claims=numbered(claims or []))

    async def _extract_call(self, text: str, question: str, instructions: Optional[str]) -> CallOutcome:
        messages = self._messages("extract", text=text, question=question, instructions=instructions)
        return await self._ask(messages, lambda content: parse_claims(content, text))

    async def _check_call(self, claims: list[ClaimLike], reference: Reference) -> CallOutcome:
        messages = self._messages("check", reference=reference_text(reference), claims=[claim_text(c) for c in claims])
        return await self._ask(messages, lambda content: parse_labels(content, len(claims), ENTAILMENT_SYNONYMS))

    async def _label_call(self, claims: list[ClaimLike], question: str, instructions: Optional[str]) -> CallOutcome:
        messages = self._messages("label", question=question, instructions=instructions,
                                  claims=[claim_text(c) for c in claims])
        return await self._ask(messages, lambda content: parse_labels(content, len(claims), IMPORTANCE_SYNONYMS))

    def ask(self, operation: str, parse: Callable[[str], Any], **values: str) -> Any:
        """The validated answer to one chat of an operation besides the three (``"group"``: grouping
        notes into failure modes, ``analysis.groupings.propose_with_judge``): its prompt
        (``PROMPT_NAMES``) filled with ``values``. The cache's answer to them, else asked as every
        call is (retried; ``parse`` validates a reply, raising AnswerParseError to ask again), counted
        in ``stats`` and cached (``parse`` returns JSON). No reply validated: a JudgeError saying why,
        and nothing cached."""
        key = self._key(operation, values)
        if (hit := self._cached(key)) is not MISSING:
            self.stats.add_hits(1)
            return hit
        messages = load_prompt(PROMPT_NAMES[operation]).messages(**values)
        outcome = run_sync(self._ask(messages, parse))
        self._record(operation, outcome, outcome.value is not None)
        if outcome.value is None:
            raise JudgeError(f"{self.model} gave no valid {operation} answer: {outcome.reason}")
        return self._keep(operation, outcome, {key: (outcome.value, 0)})[key]

    # -- estimates ----------------------------------------------------------------------------

    def estimate_tokens(self, operation: str, *, text: str = "", question: str = "", instructions: Optional[str] = None,
                        claims: Optional[list[str]] = None, reference: str = "") -> tuple[int, int]:
        """Input and output tokens of one call: its real prompt, and the JSON answer it asks for,
        at ``CHARS_PER_TOKEN`` characters a token (an estimate: the server's tokenizer decides)."""
        messages = self._messages(operation, text=text, question=question, instructions=instructions,
                                  claims=claims, reference=reference)
        prompt = sum(len(m["content"]) + len(m["role"]) for m in messages)
        if operation == "extract":
            answer = sum(len(c) + CLAIM_JSON_CHARS for c in claims or [])
        else:
            answer = LABEL_JSON_CHARS * len(claims or [])
        return _tokens(prompt), _tokens(answer + 2)

    def prices(self) -> Optional[tuple[float, float]]:
        if self.price_per_input_token is None and self.price_per_output_token is None:
            return None
        return float(self.price_per_input_token or 0.0), float(self.price_per_output_token or 0.0)
