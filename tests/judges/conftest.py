"""A real chat-completions server on 127.0.0.1 with deterministic answers, for the judge tests.

Answers are derived from the prompt: extraction cuts each sentence of the text into
(first word, second word, rest); checking says "Entailment" when every word of the claim occurs in
the reference, "Contradiction" when the claim says "never", else "Neutral"; labelling says
"REQUIRED" when the claim shares a word of four letters or more with the question. The server can
be told to be slow, to answer 429/500 or drop the connection for the next requests, or to answer
with malformed JSON; it counts requests and the most requests ever in flight at once.

Faults of real endpoints, per request (``fault_next``): "bad-request" (HTTP 400, context length),
"echo" (a proxy's 400 that echoes the request headers, the key across character 300 of its text,
and again in a response header; "echo-header": only in the header; "echo-answer": a valid answer
that carries the Authorization header in its reasoning and, for an extraction, in a claim), "think" (a ``<think>`` block holding a wrong draft answer before
the real one), "wrong-count" (one label too few; no claims for an extraction), "empty-choices"
(``choices: []`` with usage), "trickle" (the body one byte every 0.2 s), "no-usage" (a reply without
``usage``), ``("retry-after", value)`` (429 with that ``Retry-After``), ``("html", status)`` (an
nginx-style HTML error page), "length" (the answer cut in half, ``finish_reason: "length"``),
"think-cut" (cut inside a ``<think>`` block holding a well-formed wrong draft, ``finish_reason:
"length"``), "think-open" (the same with ``finish_reason: "stop"``; ``("think-open", opening)``:
the block opened with another spelling, such as ``<seed:think>``), "numbered-reversed" (labels
as ``{"claim": n, "label": ...}`` objects, last claim first; "numbered-duplicate", "-zero",
"-beyond": numbers that are not 1..n), "gzip" / "deflate" (the reply compressed), "gzip-bomb" (a
gzip body that inflates to ``bomb_bytes``), "endless" (a chunked body that never ends).
``reject_marker``: every request whose prompt holds it is answered 400, as a server answers a row
that is too long. ``refuse_with``: every request is answered with that status (401: a wrong key).
``down_after``: after answering that many requests the server stops listening (new connections
are refused). ``changes_its_mind``: a claim checked against a reference it was checked against
before (in this request or an earlier one) gets another label. ``replies``: answer texts given as
they are, one per request, in place of the derived answers (a prompt of another operation).
"""

from __future__ import annotations

import json
import random
import re
import socket
import threading
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

SECRET = "sk-test-SECRET-4f9a1c77e2"
HTML_PAGE = ("<html><head><title>{status} {phrase}</title><style>body {{ width: 35em; margin: 0 auto; }}</style>"
             "<script>window.dataLayer = [];</script></head><body><center><h1>{status} {phrase}</h1></center>"
             "<hr><center>nginx/1.25.3</center>" + "<!-- padding -->" * 40 + "</body></html>")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def fake_answer(system: str, user: str) -> str:
    """The deterministic answer to one prompt (see the module docstring)."""
    if user.startswith("Question the text answers:"):
        text = user.split("\nText:\n", 1)[1]
        claims = []
        for sentence in re.split(r"(?<=[.!?])\s+", text.strip()):
            words = sentence.strip().rstrip(".!?").split()
            if len(words) >= 3:
                claims.append({"subject": words[0], "predicate": words[1], "object": " ".join(words[2:])})
        if "ONLY THE FIRST CLAIM" in system:
            claims = claims[:1]
        return json.dumps(claims)
    head, claims_block = user.rsplit("\n\nClaims:\n", 1)
    claims = [re.sub(r"^\d+\.\s*", "", line) for line in claims_block.splitlines() if line.strip()]
    if head.startswith("Reference:\n"):
        reference = set(_words(head))
        labels = [
            "Contradiction" if "never" in _words(c) else "Entailment" if set(_words(c)) <= reference else "Neutral"
            for c in claims
        ]
        return json.dumps(labels)
    question = {w for w in _words(head) if len(w) >= 4 and w != "question"}
    if "EVERY CLAIM IS REQUIRED" in system:
        return json.dumps(["REQUIRED"] * len(claims))
    return json.dumps(["REQUIRED" if question & set(_words(c)) else "OPTIONAL" for c in claims])


def numbered_labels(answer: str, fault: str) -> str:
    """A label list as numbered objects: in reverse order, or with numbers that are not 1..n."""
    labels = json.loads(answer)
    numbers = {"numbered-reversed": range(1, len(labels) + 1), "numbered-duplicate": [1] * len(labels),
               "numbered-zero": range(len(labels)), "numbered-beyond": range(2, len(labels) + 2)}[fault]
    items = [{"claim": k, "label": label} for k, label in zip(numbers, labels)]
    return json.dumps(items[::-1])


def cut_reasoning(answer: str, opening: str = "<think>") -> str:
    """A reply cut off inside its reasoning (opened with ``opening``), after a well-formed draft
    answer that is wrong."""
    draft = json.loads(answer)
    if draft and isinstance(draft[0], str):
        draft = ["Neutral" if label != "Neutral" else "Contradiction" for label in draft]
    else:
        draft = [{"subject": "Draft", "predicate": "is", "object": "wrong"}]
    return f"{opening}A first draft: {json.dumps(draft)}. Let me check that against the"


def changed_mind(answer: str, user: str, script: "ServerScript") -> str:
    """The labels of a check prompt, each one swapped (Entailment <-> Neutral, Contradiction ->
    Neutral) when its claim was checked against the same reference before (by any request)."""
    head, claims_block = user.rsplit("\n\nClaims:\n", 1)
    claims = [re.sub(r"^\d+\.\s*", "", line) for line in claims_block.splitlines() if line.strip()]
    labels = json.loads(answer)
    with script.lock:
        for i, claim in enumerate(claims):
            seen = script.asked[head, claim] = script.asked.get((head, claim), 0) + 1
            if seen > 1:
                labels[i] = "Neutral" if labels[i] != "Neutral" else "Entailment"
    return json.dumps(labels)


def echo_answer(answer: str, said: str) -> str:
    """A valid answer that carries ``said`` (the request's Authorization header): in its reasoning,
    and as the object of the first claim of an extraction."""
    value = json.loads(answer)
    if value and isinstance(value[0], dict):
        value[0]["object"] = f"sent with {said}"
    return f"<think>The request came with {said}.</think>{json.dumps(value)}"


@lru_cache(maxsize=None)
def gzip_bomb(size: int) -> bytes:
    """``size`` zero bytes, gzipped (about a thousandth of the size)."""
    packer = zlib.compressobj(9, wbits=31)
    chunk = bytes(1 << 20)
    body = b"".join(packer.compress(chunk) for _ in range(size >> 20)) + packer.compress(bytes(size % (1 << 20)))
    return body + packer.flush()


@dataclass
class ServerScript:
    """What the server does next, and what it has seen."""

    delay: float = 0.0
    faults: deque = field(default_factory=deque)  # per request, in order (see the module docstring)
    always_malformed: bool = False
    fence: bool = False
    reject_marker: str = ""
    refuse_with: int = 0
    down_after: int = 0
    bomb_bytes: int = 32 << 20
    flip: float = 0.0  # each Entailment / Neutral / Contradiction label swapped with this probability
    flip_rng: random.Random = field(default_factory=lambda: random.Random(0))
    changes_its_mind: bool = False  # a check asked again (same claim, same reference) is answered otherwise
    replies: deque = field(default_factory=deque)  # answer texts, one per request, in place of fake_answer's
    asked: dict = field(default_factory=dict)  # (reference, claim) -> times checked
    requests: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    bodies: list = field(default_factory=list)
    tokens: list = field(default_factory=lambda: [0, 0])  # prompt and completion tokens reported
    authorization: list = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fault_next(self, *faults) -> None:
        self.faults.extend(faults)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    script: ServerScript

    def log_message(self, format, *args):  # keep pytest output quiet
        pass

    def _send(self, status: int, payload: bytes, content_type: str = "application/json", **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(payload)

    def _endless(self) -> None:
        """A chunked chat completion whose content never ends (until the client hangs up)."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        chunk = b'{"choices": [{"message": {"content": "'
        while True:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            chunk = b" " * 65536

    def _trickle(self, payload: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        for i in range(len(payload)):
            self.wfile.write(payload[i : i + 1])
            self.wfile.flush()
            time.sleep(0.2)

    def _echo(self, in_body: bool = True) -> None:
        headers = "; ".join(f"{k}: {v}" for k, v in sorted(self.headers.items(), key=lambda kv: kv[0] != "Authorization"))
        message = "upstream rejected the request. " + ("x" * 210 + f" request headers were: {headers}" if in_body else "")
        payload = json.dumps({"error": {"message": message}}).encode()
        self.send_response(400)
        self.send_header("Content-Type", "application/json")
        self.send_header("X-Echo-Authorization", str(self.headers.get("Authorization")))
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_POST(self):
        script = self.script
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with script.lock:
            script.requests += 1
            script.in_flight += 1
            script.max_in_flight = max(script.max_in_flight, script.in_flight)
            self._in_flight = True
            script.authorization.append(self.headers.get("Authorization"))
            fault = script.faults.popleft() if script.faults else None
        try:
            if script.delay:
                time.sleep(script.delay)
            if self.path != "/v1/chat/completions":
                self._send(404, b'{"error": "not found"}')
                return
            if script.refuse_with:
                error = {"message": "Incorrect API key provided.", "type": "invalid_request_error"}
                self._send(script.refuse_with, json.dumps({"error": error}).encode())
                return
            if fault == "drop":
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            if fault == "slow":
                time.sleep(1.0)
            if fault in (429, 500, 503):
                self._send(fault, json.dumps({"error": {"message": "try later"}}).encode())
                return
            if isinstance(fault, tuple) and fault[0] == "retry-after":
                self._send(429, json.dumps({"error": {"message": "rate limited"}}).encode(), Retry_After=fault[1])
                return
            if isinstance(fault, tuple) and fault[0] == "html":
                phrase = {413: "Request Entity Too Large", 422: "Unprocessable Entity"}.get(fault[1], "Error")
                self._send(fault[1], HTML_PAGE.format(status=fault[1], phrase=phrase).encode(), "text/html")
                return
            if fault == "gzip-bomb":
                self._send(200, gzip_bomb(script.bomb_bytes), Content_Encoding="gzip")
                return
            if fault == "endless":
                self._endless()
                return
            if fault == "not-json":
                self._send(200, b"<html>gateway</html>", "text/html")
                return
            if fault in ("echo", "echo-header"):
                self._echo(in_body=fault == "echo")
                return
            request = json.loads(body)
            with script.lock:
                script.bodies.append(request)
            messages = {m["role"]: m["content"] for m in request["messages"]}
            if fault == "bad-request" or (script.reject_marker and script.reject_marker in messages["user"]):
                error = {"message": "This model's maximum context length is 8192 tokens.", "type": "invalid_request_error"}
                self._send(400, json.dumps({"error": error}).encode())
                return
            with script.lock:
                scripted = script.replies.popleft() if script.replies else None
            answer = fake_answer(messages["system"], messages["user"]) if scripted is None else scripted
            if script.flip and messages["user"].startswith("Reference:\n"):
                with script.lock:
                    answer = json.dumps([("Neutral" if label == "Entailment" else "Entailment")
                                         if script.flip_rng.random() < script.flip else label
                                         for label in json.loads(answer)])
            if script.changes_its_mind and messages["user"].startswith("Reference:\n"):
                answer = changed_mind(answer, messages["user"], script)
            if fault == "malformed" or script.always_malformed:
                answer = "Sure! Here are the labels: [Entailment, Neutral"
            elif fault == "think":
                draft = json.loads(answer)
                draft = ["Neutral"] * len(draft) if draft and isinstance(draft[0], str) else draft[:0]
                answer = f"<think>A first draft: {json.dumps(draft)}. Let me check again.</think>\n{answer}"
            elif fault == "wrong-count":
                answer = json.dumps(json.loads(answer)[:-1])
            elif fault == "length":
                answer = answer[: len(answer) // 2]
            elif fault in ("think-cut", "think-open"):
                answer = cut_reasoning(answer)
            elif isinstance(fault, tuple) and fault[0] == "think-open":
                answer = cut_reasoning(answer, fault[1])
            elif fault == "echo-answer":
                answer = echo_answer(answer, str(self.headers.get("Authorization")))
            elif isinstance(fault, str) and fault.startswith("numbered-"):
                answer = numbered_labels(answer, fault)
            elif script.fence:
                answer = f"Here you go:\n```json\n{answer}\n```"
            usage = {
                "prompt_tokens": len((messages["system"] + " " + messages["user"]).split()),
                "completion_tokens": len(answer.split()),
            }
            usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
            with script.lock:
                script.tokens[0] += usage["prompt_tokens"]
                script.tokens[1] += usage["completion_tokens"]
            reply = {
                "id": f"chatcmpl-{script.requests}",
                "object": "chat.completion",
                "model": request["model"],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": answer},
                             "finish_reason": "length" if fault in ("length", "think-cut") else "stop"}],
                "usage": usage,
            }
            if fault == "empty-choices":
                reply["choices"] = []
            if fault == "no-usage":
                del reply["usage"]
            if fault == "trickle":
                self._trickle(json.dumps(reply).encode())
                return
            if script.down_after and script.requests >= script.down_after:
                self._send(200, json.dumps(reply).encode(), Connection="close")
                self.close_connection = True
                self.server.shutdown()
                self.server.server_close()
                return
            if fault in ("gzip", "deflate"):
                packer = zlib.compressobj(wbits=31 if fault == "gzip" else 15)
                payload = packer.compress(json.dumps(reply).encode()) + packer.flush()
                self._send(200, payload, Content_Encoding=fault)
                return
            self._send(200, json.dumps(reply).encode())
        finally:
            self._answered()

    def send_response(self, code, message=None):
        self._answered()  # the reply starts: the client may ask again before this thread ends
        super().send_response(code, message)

    def _answered(self) -> None:
        """The request counts as in flight until its reply starts (not until this thread ends: a
        client that read the reply and sent its next request would be counted twice)."""
        if getattr(self, "_in_flight", False):
            self._in_flight = False
            with self.script.lock:
                self.script.in_flight -= 1


class _QuietServer(ThreadingHTTPServer):
    """A thread per request; a listen backlog of 128 (socketserver's default of 5 let a loaded machine,
    slow to accept, drop the SYNs of the 7th and later of 16 clients connecting at once: each then
    waited a second or more before retrying and ran into the judge's timeout)."""

    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request, client_address):  # a client that hung up mid-request is expected
        pass


@dataclass
class FakeChatServer:
    base_url: str
    script: ServerScript


def chat_server_on(script: ServerScript) -> _QuietServer:
    """A fake chat server bound to a free loopback port, following ``script``; not serving yet."""
    return _QuietServer(("127.0.0.1", 0), type("Handler", (_Handler,), {"script": script}))


@pytest.fixture
def chat_server():
    """A running fake chat-completions server; ``base_url`` ends in ``/v1``."""
    script = ServerScript()
    server = chat_server_on(script)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield FakeChatServer(f"http://127.0.0.1:{server.server_address[1]}/v1", script)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def api_secret():
    """The API key the test judges use; it must never show up anywhere but the request header."""
    return SECRET


@pytest.fixture
def make_judge(chat_server, tmp_path):
    """Build an ``OpenAICompatibleJudge`` on the fake server with a cache in ``tmp_path`` and tiny backoffs."""
    from ragwidgets.judges import JudgeCache, OpenAICompatibleJudge

    def make(**kwargs):
        options = dict(
            model="fake-judge-1",
            base_url=chat_server.base_url,
            api_key=SECRET,
            cache=JudgeCache(tmp_path / "judge_cache.sqlite"),
            timeout=2.0,
            max_retries=3,
            backoff=0.001,
            backoff_max=0.01,
            progress=False,
        )
        options.update(kwargs)
        return OpenAICompatibleJudge(**options)

    return make
