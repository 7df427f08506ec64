"""A judge backed by any server that speaks OpenAI's chat-completions protocol.

vLLM, Ollama, a LiteLLM proxy and hosted APIs all accept ``POST {base_url}/chat/completions``.
Requests are async (httpx) with at most ``max_concurrency`` in flight; timeouts, HTTP 408/429/5xx
and connection errors are retried with exponential backoff up to ``max_retries`` times; an answer
that cannot be read as the JSON asked for is asked again once and then left unjudged (None).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import random
import weakref
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Callable, Optional
from urllib.parse import urlsplit

import httpx

from .answers import ENTAILMENT_SYNONYMS, IMPORTANCE_SYNONYMS, parse_claims, parse_labels
from .base import BaseJudge, CallOutcome
from .cache import CacheSetting
from .claims import ClaimLike, Reference, claim_text, reference_text
from .errors import AnswerParseError, JudgeRequestError
from .prompts import load_prompt, numbered
from .secrets import Secret, strip_userinfo

logger = logging.getLogger("ragwidgets.judges")

RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})

PROMPT_NAMES = {"extract": "extract_v1", "check": "check_v1", "label": "label_v1"}


@dataclass
class _Reply:
    """One chat completion: the answer text (None if the request finally failed) and its cost."""

    content: Optional[str]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    attempts: int = 1
    error: Optional[str] = None


def _read_key(api_key: Optional[str], api_key_env: str) -> Optional[Secret]:
    """The key given, else the one in ``$api_key_env``, without surrounding whitespace (a key read
    from a file keeps its line end); None if there is none. A key that cannot be sent in an HTTP
    header is refused here, before an HTTP library quotes it in an exception or a debug log."""
    source = "api_key" if api_key is not None else f"${api_key_env}"
    key = (api_key if api_key is not None else os.environ.get(api_key_env) or "").strip()
    if not key:
        return None
    if not (key.isascii() and key.isprintable()):
        raise ValueError(f"the API key in {source} has characters that an HTTP header cannot carry "
                         "(non-ASCII or control characters)")
    return Secret(key)


class OpenAICompatibleJudge(BaseJudge):
    """Judge with a chat-completions model.

    ``api_key``: given here, or read from the environment variable ``api_key_env`` (no key: no
    ``Authorization`` header, as local servers expect). The key is kept out of reprs, logs, error
    messages and the cache. ``check_batch_size`` claims are checked per prompt (joint checking).
    ``cache``: ``"default"`` (the user's cache dir), a path, a ``JudgeCache``, or None for none.
    """

    def __init__(
        self,
        model: str,
        base_url: str,
        api_key: Optional[str] = None,
        api_key_env: str = "OPENAI_API_KEY",
        *,
        max_concurrency: int = 8,
        timeout: float = 60.0,
        max_retries: int = 4,
        backoff: float = 0.5,
        backoff_max: float = 30.0,
        check_batch_size: int = 8,
        temperature: float = 0.0,
        max_tokens: Optional[int] = None,
        cache: CacheSetting = "default",
        progress: bool = True,
    ):
        super().__init__(cache=cache, progress=progress)
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError("base_url must be an http:// or https:// URL such as http://localhost:8000/v1, "
                             f"got {strip_userinfo(base_url)!r}")
        if parts.query or parts.fragment:
            raise ValueError("base_url must not carry a query string or fragment (pass the API key as api_key "
                             "or through the environment)")
        self.model = model
        self.base_url = strip_userinfo(base_url.rstrip("/"))
        self._api_key = _read_key(api_key, api_key_env)
        self.api_key_env = api_key_env
        self.max_concurrency = int(max_concurrency)
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self.backoff_max = float(backoff_max)
        self.check_batch_size = int(check_batch_size)
        self.temperature = temperature
        self.max_tokens = max_tokens
        self._semaphores: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]" = (
            weakref.WeakKeyDictionary()
        )
        self._client: contextvars.ContextVar[Optional[httpx.AsyncClient]] = contextvars.ContextVar(
            "ragwidgets_judge_client", default=None
        )

    def __repr__(self) -> str:
        key = "set" if self._api_key else "none"
        return (
            f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r}, api_key=<{key}>, "
            f"max_concurrency={self.max_concurrency}, check_batch_size={self.check_batch_size})"
        )

    def __getstate__(self):
        raise TypeError(f"{type(self).__name__} holds an API key and cannot be pickled")

    def prompt_version(self, operation: str) -> str:
        return load_prompt(PROMPT_NAMES[operation]).version

    # -- HTTP ---------------------------------------------------------------------------------

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        sem = self._semaphores.get(loop)
        if sem is None:
            sem = self._semaphores[loop] = asyncio.Semaphore(self.max_concurrency)
        return sem

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[None]:
        """Share one connection pool among the calls made inside this block (re-entrant)."""
        if self._client.get() is not None:
            yield
            return
        headers = {"Content-Type": "application/json"}
        if self._api_key is not None:
            headers["Authorization"] = f"Bearer {self._api_key.reveal()}"
        limits = httpx.Limits(max_connections=self.max_concurrency, max_keepalive_connections=self.max_concurrency)
        async with httpx.AsyncClient(headers=headers, timeout=self.timeout, limits=limits) as client:
            token = self._client.set(client)
            try:
                yield
            finally:
                self._client.reset(token)

    def _redact(self, text: str) -> str:
        return self._api_key.redact(text) if self._api_key is not None else text

    def _delay(self, attempt: int, retry_after: Optional[str]) -> float:
        if retry_after:
            with contextlib.suppress(ValueError):
                return min(self.backoff_max, max(0.0, float(retry_after)))
        return min(self.backoff_max, self.backoff * 2**attempt) * (0.5 + random.random() / 2)

    async def _complete(self, messages: list[dict[str, str]]) -> _Reply:
        """POST one chat completion, retrying transient faults; never raises for them."""
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": self.temperature}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        url = f"{self.base_url}/chat/completions"
        error = "no attempt made"
        async with self.session():
            client = self._client.get()
            for attempt in range(self.max_retries + 1):
                retry_after = None
                try:
                    async with self._semaphore():
                        response = await client.post(url, json=body)
                except httpx.TimeoutException:
                    error = f"timed out after {self.timeout:g} s"
                except httpx.TransportError as exc:
                    error = f"connection error ({type(exc).__name__})"
                else:
                    if response.status_code == 200:
                        return self._read_reply(response, attempt + 1)
                    if response.status_code not in RETRYABLE_STATUS:
                        raise JudgeRequestError(
                            self._redact(
                                f"{url} answered HTTP {response.status_code}: {response.text[:300]}"
                            )
                        )
                    error = f"HTTP {response.status_code}"
                    retry_after = response.headers.get("Retry-After")
                if attempt < self.max_retries:
                    delay = self._delay(attempt, retry_after)
                    logger.warning(
                        "chat completion %s: %s; retry %d of %d in %.2f s",
                        self.model, self._redact(error), attempt + 1, self.max_retries, delay,
                    )
                    await asyncio.sleep(delay)
        logger.warning("chat completion %s failed after %d attempts: %s", self.model, self.max_retries + 1, error)
        return _Reply(None, attempts=self.max_retries + 1, error=f"{error} (after {self.max_retries + 1} attempts)")

    @staticmethod
    def _read_reply(response: httpx.Response, attempts: int) -> _Reply:
        try:
            data = response.json()
            content = data["choices"][0]["message"]["content"]
            usage = data.get("usage") or {}
        except (ValueError, KeyError, IndexError, TypeError):
            return _Reply("", attempts=attempts, error="the server's response is not a chat completion")
        return _Reply(
            content if isinstance(content, str) else "",
            int(usage.get("prompt_tokens") or 0),
            int(usage.get("completion_tokens") or 0),
            attempts,
        )

    async def _ask(self, messages: list[dict[str, str]], parse: Callable[[str], Any]) -> CallOutcome:
        """Ask, read the answer with ``parse``; an unreadable answer is asked once more, then unjudged."""
        outcome = CallOutcome(None, attempts=0)
        for ask in range(2):
            reply = await self._complete(messages)
            outcome.prompt_tokens += reply.prompt_tokens
            outcome.completion_tokens += reply.completion_tokens
            outcome.attempts += reply.attempts
            if reply.content is None:
                outcome.reason = reply.error
                return outcome
            try:
                if reply.error:
                    raise AnswerParseError(reply.error)
                outcome.value = parse(reply.content)
                outcome.reason = None
                return outcome
            except AnswerParseError as exc:
                outcome.reason = f"unreadable answer: {self._redact(str(exc))}"
                logger.warning("chat completion %s: %s%s", self.model, outcome.reason, "; asking again" if ask == 0 else "")
        return outcome

    # -- the three operations -----------------------------------------------------------------

    async def _extract_call(self, text: str, question: str, instructions: Optional[str]) -> CallOutcome:
        messages = load_prompt(PROMPT_NAMES["extract"]).messages(instructions, question=question, text=text)
        return await self._ask(messages, parse_claims)

    async def _check_call(self, claims: list[ClaimLike], reference: Reference) -> CallOutcome:
        messages = load_prompt(PROMPT_NAMES["check"]).messages(
            reference=reference_text(reference), claims=numbered([claim_text(c) for c in claims])
        )
        return await self._ask(messages, lambda content: parse_labels(content, len(claims), ENTAILMENT_SYNONYMS))

    async def _label_call(self, claims: list[ClaimLike], question: str, instructions: Optional[str]) -> CallOutcome:
        messages = load_prompt(PROMPT_NAMES["label"]).messages(
            instructions, question=question, claims=numbered([claim_text(c) for c in claims])
        )
        return await self._ask(messages, lambda content: parse_labels(content, len(claims), IMPORTANCE_SYNONYMS))
