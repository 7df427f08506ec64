"""The fake chat server itself under many clients at once: every client connects and gets its answer
(on a loaded machine the server is slow to accept, so its listen backlog must hold them all)."""

from __future__ import annotations

import http.client
import importlib.util
import json
import socket
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

_NAME = "ragwidgets_tests_judges_conftest"  # the fake server's module, as tests/scorer/conftest.py loads it
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, Path(__file__).parent / "conftest.py")
    sys.modules[_NAME] = _module = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_module)
_judges = sys.modules[_NAME]

CLIENTS = 32


def ask(connection: socket.socket, k: int) -> tuple[int, str]:
    """One chat request on an open connection; the reply's status and answer."""
    body = json.dumps({"model": "fake-judge-1", "messages": [
        {"role": "system", "content": "Check each claim against the reference."},
        {"role": "user", "content": f"Reference:\nThe ferry left in {1900 + k}.\n\nClaims:\n1. The ferry left."}]})
    client = http.client.HTTPConnection("127.0.0.1")
    client.sock = connection
    client.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
    reply = client.getresponse()
    data = json.loads(reply.read())
    client.close()
    return reply.status, data["choices"][0]["message"]["content"]


def test_32_clients_connecting_before_the_server_accepts_all_get_answers():
    """All 32 connect while the server accepts nothing (as a loaded machine leaves its accept loop
    unscheduled): each connection must complete at once, not wait for a SYN retry; then each is answered."""
    script = _judges.ServerScript()
    server = _judges.chat_server_on(script)
    try:
        with ThreadPoolExecutor(CLIENTS) as pool:
            connections = list(pool.map(lambda _: socket.create_connection(server.server_address, timeout=0.5),
                                        range(CLIENTS)))
    except OSError:
        server.server_close()
        raise
    for c in connections:
        c.settimeout(30)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        with ThreadPoolExecutor(CLIENTS) as pool:
            replies = list(pool.map(ask, connections, range(CLIENTS)))
    finally:
        server.shutdown()
        server.server_close()
    assert [status for status, _ in replies] == [200] * CLIENTS
    assert script.requests == CLIENTS
