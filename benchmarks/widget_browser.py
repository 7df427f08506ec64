"""Click to updated DOM in a real browser: JupyterLab 4 + headless Chromium, offline, 1280x800.

    python benchmarks/widget_browser.py [--clicks 60]
    python benchmarks/widget_browser.py --floor [--clicks 40] [--nodelay] [--trace out.json]

One notebook shows a 60-passage x 80-claim sample (40 ground-truth claims; the e2e tests'
``big_sample_record``) in a SampleExplorer and the Harbor Museum Explorer. For each case the page
clicks an element and waits, with a MutationObserver, until the DOM shows the result: the time
covers the message to the kernel, Python's update, the message back, parsing and rendering.
Cases: selecting a claim (the row turns selected), switching a passage off and on (its checkbox
follows), on Harbor selecting a claim and applying a preset, and in a DatasetExplorer over 10,000
generated samples clicking a row (until the row is selected and the drill-down shows its sample). A baseline: a bare anywidget
whose Python observer echoes a click counter back (the round trip's floor on the same machine,
with no view to build or draw). Prints p50 / p95 / max per case.

Then the front end alone: the bundle in a bare page with a stand-in model is handed, one after
another, the views Python sent for a cycle of passage toggles on the same 60 x 80 sample (as the
widget sends them: changes over a base view), and each update is timed from the `change:_view`
event to the DOM laid out again (parse, patch, diff, render, forced layout). A selection is no such update any more: the front end draws it itself
(js/src/selection.js) and Python sends no view for it, so "select a claim" above is the click to
the DOM drawn in the browser, the kernel told after.
The servers and browser are the ones the e2e tests start (tests/e2e/conftest.py).

``--floor``: where a round trip's time goes, for the bare echo and the 60 x 80 passage toggle. Every
leg is stamped on the one wall clock of this machine: the page wraps WebSocket (send, and each
frame's arrival before JupyterLab's handler), the Jupyter Server is patched through its config file
(a frame in from the page, handed to ZMQ; a ZMQ message in from the kernel, written to the page's
socket), the kernel wraps ``Widget._handle_msg`` (time.perf_counter around the handler) and the
kernel's own messages carry ``header.date`` (its busy status: the shell message dispatched).
``--nodelay`` sets TCP_NODELAY on the server's kernel websockets (Tornado leaves Nagle on);
``--trace`` writes a Chromium trace of four round trips of each case.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from e2e_support import CHROMIUM, CHROMIUM_ARGS, OfflinePage, big_sample_record, jupyter_server  # noqa: E402
from test_harbor_in_lab import open_and_run  # noqa: E402

ECHO = '''import anywidget, traitlets

class Echo(anywidget.AnyWidget):
    _esm = """export default { render({ model, el }) {
      el.classList.add("echo-widget");
      const b = document.createElement("button");
      b.dataset.pong = "0";
      b.onclick = () => { model.set("ping", model.get("ping") + 1); model.save_changes(); };
      model.on("change:pong", () => { b.dataset.pong = String(model.get("pong")); });
      el.appendChild(b);
    } }"""
    ping = traitlets.Int(0).tag(sync=True)
    pong = traitlets.Int(0).tag(sync=True)

    @traitlets.observe("ping")
    def _echo(self, change):
        self.pong = change["new"]

Echo()'''


NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}
              for source in ("from ragwidgets.widgets import Explorer, SampleExplorer\n"
                             "big = SampleExplorer('big.json')\nbig", "Explorer.harbor()", ECHO,
                             "from ragwidgets.datasets import synthetic_run\nfrom ragwidgets.widgets import DatasetExplorer\n"
                             "DatasetExplorer(synthetic_run(10_000))")],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    "nbformat": 4, "nbformat_minor": 5,
}

# Click `selector` inside widget `w` and time until `done(element)` holds (checked on each mutation).
CLICK = """async ([w, selector, done]) => {
  const root = document.querySelectorAll('.rw-widget, .echo-widget')[w];
  const el = root.querySelector(selector);
  const check = new Function('el', 'root', `return ${done};`);
  const t0 = performance.now();
  const finished = new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (check(root.querySelector(selector), root)) { obs.disconnect(); resolve(performance.now() - t0); }
    });
    obs.observe(root, { subtree: true, attributes: true, childList: true, characterData: true });
  });
  el.click();
  return await finished;
}"""


def cases(clicks: int):
    """(name, widget, [(selector, done)]) for each case, cycling through its clicks."""
    record = big_sample_record()
    claims = [f"claim:R{j}" for j in (70, 3, 41, 12, 66, 25, 51, 8, 33, 60)]
    doc = record["retrieved_context"][10]["doc_id"]
    select = [(f'[data-key="{k}"]', "el.getAttribute('aria-selected') === 'true'") for k in claims]
    toggle = [(f'[data-toggle="{doc}"]', f"el.checked === {state}") for state in ("false", "true")]
    harbor_claims = [(f'[data-key="claim:R{j}"]', "el.getAttribute('aria-selected') === 'true'") for j in (1, 2, 3)]
    presets = [(f'[data-preset="{p}"]', "el.getAttribute('aria-pressed') === 'true'")
               for p in ("No retrieval", "Mixed citations", "Outdated answer", "Default")]
    rows = [(f'[role=row][data-index="{i}"]', "el.getAttribute('aria-selected') === 'true' && "
             "root.querySelector('[data-testid=drill-main] .rw-root') !== null") for i in (3, 0, 7, 1, 5, 2, 8, 4)]
    return record, [
        ("60 x 80 sample: select a claim", 0, select),
        ("60 x 80 sample: switch a passage off / on", 0, toggle),
        ("Harbor Museum: select a claim", 1, harbor_claims),
        ("Harbor Museum: apply a preset", 1, presets),
        ("DatasetExplorer, 10,000 samples: click a row (selected, drill-down opened)", 3, rows),
        ("Baseline: a bare anywidget echoing a counter", 2, [("button", "Number(el.dataset.pong) % 2 === 1"),
                                                           ("button", "Number(el.dataset.pong) % 2 === 0")]),
    ]


RENDER = """async ([bundle, css, views]) => {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.appendChild(style);
  const mod = await import(URL.createObjectURL(new Blob([bundle], { type: 'text/javascript' })));
  const state = {};
  const listeners = {};
  const model = {
    get: (k) => state[k], set: () => {}, save_changes: () => {}, send: () => {},
    on: (e, cb) => (listeners[e] ||= []).push(cb), off: () => {}, // one event name per call
  };
  const trait = (w) => ({ ...w, cells: new DataView(Uint8Array.from(atob(w.cells), (c) => c.charCodeAt(0)).buffer) });
  const put = (v) => {
    if (v.base) state._view_base = trait(v.base);
    state._view = trait(v.view);
  };
  put(views[0]);
  const el = document.createElement('div');
  document.body.appendChild(el);
  mod.default.render({ model, el });
  const out = [];
  for (let i = 1; i < views.length; i++) {
    put(views[i]);
    const t0 = performance.now();
    listeners['change:_view'].forEach((cb) => cb());
    void el.offsetHeight;
    out.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 0));
  }
  return out;
}"""


def render_views(record: dict, n: int) -> list[dict]:
    """``n`` successive views of the sample under passage toggles, as the widget sends them: the
    ``_view`` trait's wire form (its cells base64) and, where a toggle made a new base, the
    ``_view_base`` trait's."""
    import base64

    import ragwidgets as rw
    from ragwidgets.widgets import SampleExplorer
    from ragwidgets.widgets.base import _view_to_json
    e = SampleExplorer(rw.parse_sample(record))
    ids = [p["doc_id"] for p in record["retrieved_context"]]
    wire = lambda v: {**_view_to_json(v, e), "cells": base64.b64encode(v.cells).decode()}  # noqa: E731
    out, base = [], None
    for i in range(n):
        e.retrieved = ids if len(e.retrieved) < len(ids) else [d for d in ids if d != ids[i % len(ids)]]
        new_base = e._view_base.base != base
        base = e._view_base.base
        out.append({"view": wire(e._view), "base": wire(e._view_base) if new_base else None})
    return out


# The server side of --floor, run by Jupyter Server as its config file: it stamps every frame.
SERVER_PATCH = '''import json, os, time
from jupyter_server.services.kernels.connection import channels
from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1
from jupyter_server.services.kernels.websocket import KernelWebsocketHandler

_log = open(os.environ["RW_FLOOR_SERVER_LOG"], "a", buffering=1)
_conn = channels.ZMQChannelsWebsocketConnection
_incoming, _outgoing = _conn.handle_incoming_message, _conn.handle_outgoing_message

def handle_incoming_message(self, ws_msg):  # JupyterLab 4 speaks the v1 protocol; others are not stamped
    t_in = time.time()
    _incoming(self, ws_msg)
    t_out = time.time()
    if self.subprotocol == "v1.kernel.websocket.jupyter.org":
        h = json.loads(deserialize_msg_from_ws_v1(ws_msg)[1][0])
        _log.write(json.dumps({"dir": "in", "id": h["msg_id"], "type": h["msg_type"], "t_in": t_in, "t_out": t_out}) + "\\n")

def handle_outgoing_message(self, stream, msg_list):
    t_in = time.time()
    _outgoing(self, stream, msg_list)
    parts = self.session.feed_identities(msg_list)[1][1:]
    h, parent = json.loads(parts[0]), json.loads(parts[1])
    _log.write(json.dumps({"dir": "out", "id": h["msg_id"], "type": h["msg_type"], "parent": parent.get("msg_id"),
                           "t_in": t_in, "t_out": time.time()}) + "\\n")

_conn.handle_incoming_message, _conn.handle_outgoing_message = handle_incoming_message, handle_outgoing_message
if os.environ.get("RW_FLOOR_NODELAY"):
    _open = KernelWebsocketHandler.open
    async def open(self, kernel_id):
        self.set_nodelay(True)
        return await _open(self, kernel_id)
    KernelWebsocketHandler.open = open
'''

# The kernel side of --floor: the first cell times every widget's comm handler.
KERNEL_PATCH = '''import json, time, ipywidgets
_floor_log = open("floor_kernel.jsonl", "a", buffering=1)
_handle = ipywidgets.Widget._handle_msg
def _timed(self, msg):
    t_in, p0 = time.time(), time.perf_counter()
    _handle(self, msg)
    _floor_log.write(json.dumps({"id": msg["header"]["msg_id"], "t_in": t_in, "ms": 1000 * (time.perf_counter() - p0)}) + "\\n")
ipywidgets.Widget._handle_msg = _timed'''

# The page side of --floor, before JupyterLab loads: every kernel frame sent and received, stamped.
PAGE_PATCH = """(() => {
  const log = window.__floor = { sent: [], recv: [] };
  const now = () => performance.timeOrigin + performance.now();
  const dec = new TextDecoder();
  const parse = (data) => { // the v1 kernel websocket protocol: offsets, channel, header, parent, metadata, content
    if (typeof data === 'string') { const m = JSON.parse(data); return { header: m.header, parent: m.parent_header, content: m.content }; }
    const v = new DataView(data), n = Number(v.getBigUint64(0, true));
    const off = (i) => Number(v.getBigUint64(8 * (i + 1), true));
    const part = (i) => JSON.parse(dec.decode(new Uint8Array(data, off(i), off(i + 1) - off(i))) || '{}');
    return { header: part(1), parent: part(2), content: off(5) - off(4) < 100000 ? part(4) : { data: { state: { '(large)': 1 } } } };
  };
  const entry = (t, m) => ({ t, id: m.header.msg_id, type: m.header.msg_type, date: m.header.date,
    parent: m.parent && m.parent.msg_id, method: m.content && m.content.data && m.content.data.method,
    state: m.content && m.content.data && m.content.data.state ? Object.keys(m.content.data.state) : null,
    execution_state: m.content && m.content.execution_state });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => { // runs before JupyterLab's onmessage
        const t = now();
        try { log.recv.push(entry(t, parse(e.data))); } catch (err) { /* not a kernel frame */ }
      });
    }
    send(data) {
      const t = now();
      try { log.sent.push(entry(t, parse(data instanceof ArrayBuffer ? data : data.buffer || data))); } catch (err) {}
      return super.send(data);
    }
  };
})()"""

FLOOR_ECHO = ECHO.replace('model.on("change:pong", () => {', 'model.on("change:pong", () => { (window.__floor.change ||= []).push(performance.timeOrigin + performance.now());')

FLOOR_NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}
              for source in (KERNEL_PATCH, "from ragwidgets.widgets import SampleExplorer\nbig = SampleExplorer('big.json')\nbig",
                             FLOOR_ECHO)],
    "metadata": NOTEBOOK["metadata"], "nbformat": 4, "nbformat_minor": 5,
}

# As CLICK, but returns the click's and the DOM's wall-clock stamps.
CLICK_AT = CLICK.replace("const t0 = performance.now();", "const t0 = performance.timeOrigin + performance.now();").replace(
    "resolve(performance.now() - t0)", "resolve([t0, performance.timeOrigin + performance.now()])")


def _iso_ms(date: str) -> float:
    """A Jupyter header date (ISO 8601, UTC) as ms since the epoch."""
    from datetime import datetime
    return datetime.fromisoformat(date.replace("Z", "+00:00")).timestamp() * 1000


def legs(clicks: list, sent: list, recv: list, server: list, kernel: list, reply_method: str) -> list[dict]:
    """Per round trip, the ms of each leg: from the click to the comm_msg sent, on to the server, to
    the kernel's busy status (dispatched), the handler, the reply message, the server, the page, the DOM."""
    srv_in = {e["id"]: e for e in server if e["dir"] == "in"}
    srv_out = {e["id"]: e for e in server if e["dir"] == "out"}
    ker = {e["id"]: e for e in kernel}
    out = []
    for t0, t_dom in clicks:
        s = next(e for e in sent if e["type"] == "comm_msg" and e["t"] >= t0)
        kids = [e for e in recv if e["parent"] == s["id"]]
        busy = next(e for e in kids if e["execution_state"] == "busy")
        idle = next(e for e in kids if e["execution_state"] == "idle")
        reply = next(e for e in kids if e["type"] == "comm_msg" and e["method"] in (reply_method, None)
                     and set(e["state"] or ()) - {"selected", "retrieved", "ping"})
        ordered = sorted(kids, key=lambda e: e["t"])
        k = ker[s["id"]]
        out.append({
            "click → comm_msg on the websocket (page)": s["t"] - t0,
            "page → server, frame read (loopback TCP)": 1000 * srv_in[s["id"]]["t_in"] - s["t"],
            "server: frame → ZMQ shell socket": 1000 * (srv_in[s["id"]]["t_out"] - srv_in[s["id"]]["t_in"]),
            "server → kernel: shell message dispatched (busy status's date)": _iso_ms(busy["date"]) - 1000 * srv_in[s["id"]]["t_out"],
            "kernel: busy → our handler entered": 1000 * k["t_in"] - _iso_ms(busy["date"]),
            "kernel: our handler (Widget._handle_msg, perf_counter)": k["ms"],
            "kernel: reply created → server has it (iopub thread, ZMQ)": 1000 * srv_out[reply["id"]]["t_in"] - _iso_ms(reply["date"]),
            "server: ZMQ → websocket write": 1000 * (srv_out[reply["id"]]["t_out"] - srv_out[reply["id"]]["t_in"]),
            "server wrote → page has the frame (TCP, Chromium IPC, main thread queue)": reply["t"] - 1000 * srv_out[reply["id"]]["t_out"],
            "page: frame → DOM updated (JupyterLab, ipywidgets, the view)": t_dom - reply["t"],
            "total: click → DOM": t_dom - t0,
            "kernel: handler entered → idle status's date": _iso_ms(idle["date"]) - 1000 * k["t_in"],
            "frames back per round trip": len(kids),
            "order": " ".join(e["execution_state"] or e["method"] or e["type"] for e in ordered),
        })
    return out


def trace_summary(path: str) -> list[str]:
    """Per round trip in a Chromium trace (a send and its four frames back): the wall time from the
    page's WebSocketSend to each WebSocketReceive, and how long the renderer's main thread and the browser process's
    threads (network, IPC) were busy in it (sums of their top-level tasks)."""
    events = json.loads(Path(path).read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    thread = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("ph") == "M" and e["name"] == "thread_name"}
    tasks = [(thread.get((e["pid"], e["tid"]), "?"), e["ts"], e["ts"] + e.get("dur", 0)) for e in events
             if e.get("ph") == "X" and e["name"] == "ThreadControllerImpl::RunTask"]
    ws = sorted((e["ts"], e["name"]) for e in events if e["name"] in ("WebSocketSend", "WebSocketReceive"))
    lines = []
    for i, (ts, name) in enumerate(ws):
        if name != "WebSocketSend":
            continue
        frames = [t for t, n in ws[i + 1:i + 5] if n == "WebSocketReceive"]
        if len(frames) < 4:
            continue
        end = frames[-1]
        busy = {}
        for th, a, b in tasks:
            if b > ts and a < end:
                busy[th] = busy.get(th, 0) + (min(b, end) - max(a, ts)) / 1000
        top = ", ".join(f"{th} {ms:.1f}" for th, ms in sorted(busy.items(), key=lambda x: -x[1])[:4])
        gaps = " / ".join(f"{(t - ts) / 1000:.1f}" for t in frames)
        lines.append(f"send → frames at {gaps} ms; busy (ms): {top}")
    return lines


def floor(args) -> None:
    """The --floor run: the echo and the passage toggle, each leg of each round trip stamped."""
    from playwright.sync_api import sync_playwright
    record, _ = cases(args.clicks)
    doc = record["retrieved_context"][10]["doc_id"]
    plan = [("bare anywidget echo", 1, [("button", "Number(el.dataset.pong) % 2 === 1"),
                                        ("button", "Number(el.dataset.pong) % 2 === 0")], "update"),
            ("60 x 80 sample: passage off / on", 0, [(f'[data-toggle="{doc}"]', f"el.checked === {s}")
                                                   for s in ("false", "true")], "update")]
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / "config").mkdir()
        (home / "config" / "jupyter_server_config.py").write_text(SERVER_PATCH)
        os.environ["RW_FLOOR_SERVER_LOG"] = str(home / "server.jsonl")
        if args.nodelay:
            os.environ["RW_FLOOR_NODELAY"] = "1"
        with jupyter_server("jupyterlab", [
                "--LabApp.expose_app_in_browser=True", "--LabApp.extension_manager=readonly",
                "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
                home) as server, sync_playwright() as pw:
            root = server[2]
            (root / "big.json").write_text(json.dumps([record]))
            (root / "floor.ipynb").write_text(json.dumps(FLOOR_NOTEBOOK))
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.add_init_script(PAGE_PATCH)
            page = OfflinePage(context.new_page())
            open_and_run(page, server, "floor.ipynb", widgets=1)
            page.page.wait_for_selector(".echo-widget button")
            results = {}
            for name, widget, clicks, method in plan:
                page.page.locator(".rw-widget, .echo-widget").nth(widget).locator(clicks[0][0]).scroll_into_view_if_needed()
                for selector, done in clicks * 2:  # warm
                    page.page.evaluate(CLICK_AT, [widget, selector, done])
                stamps = []
                for i in range(args.clicks):
                    stamps.append(page.page.evaluate(CLICK_AT, [widget, *clicks[i % 2]]))  # back to back, as above
                results[name] = (stamps, method)
            if args.trace:
                browser.start_tracing(page=page.page, path=args.trace, screenshots=False,
                                      categories=["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink", "toplevel", "netlog", "disabled-by-default-network"])
                for _, widget, clicks, _ in plan:
                    for i in range(4):
                        page.page.evaluate(CLICK_AT, [widget, *clicks[i % 2]])
                        page.page.wait_for_timeout(30)
                browser.stop_tracing()
            page.page.wait_for_timeout(300)
            log = page.page.evaluate("window.__floor")
            browser.close()
            assert not page.blocked and not page.errors, (page.blocked, page.errors)
            srv = [json.loads(line) for line in (home / "server.jsonl").read_text().splitlines()]
            ker = [json.loads(line) for line in (root / "floor_kernel.jsonl").read_text().splitlines()]
    if args.raw:
        Path(args.raw).write_text(json.dumps({"page": log, "server": srv, "kernel": ker, "clicks": results}))
    print(f"load average before: {load_before}, after: {os.getloadavg()}; TCP_NODELAY on the server's websocket: {args.nodelay}\n")
    tables = {name: legs(stamps, log["sent"], log["recv"], srv, ker, method) for name, (stamps, method) in results.items()}
    names = list(tables)
    print("| leg | " + " | ".join(f"{n}: p50 | p95" for n in names) + " |")
    print("|---|" + "---|---|" * len(names))
    for leg in tables[names[0]][0]:
        if leg == "order":
            continue
        cells = []
        for n in names:
            v = np.array([r[leg] for r in tables[n]])
            cells.append(f"{np.percentile(v, 50):.1f} | {np.percentile(v, 95):.1f}")
        print(f"| {leg} | " + " | ".join(cells) + " |")
    for n in names:
        orders = {}
        for r in tables[n]:
            orders[r["order"]] = orders.get(r["order"], 0) + 1
        print(f"\n{n}: frames back, in arrival order: {orders}")
    if args.trace:
        print(f"\nChromium trace ({args.trace}), four round trips of each case:")
        for i, line in enumerate(trace_summary(args.trace)):
            print(f"  {plan[min(i // 4, len(plan) - 1)][0]}: {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--floor", action="store_true", help="stamp each leg of a round trip (see above)")
    parser.add_argument("--nodelay", action="store_true", help="with --floor: TCP_NODELAY on the kernel websockets")
    parser.add_argument("--trace", help="with --floor: write a Chromium trace of round trips of each case here")
    parser.add_argument("--raw", help="with --floor: write every stamp (page, server, kernel) here as JSON")
    parser.add_argument("--only", help="run only the cases whose name contains this text (e.g. 'select a claim')")
    args = parser.parse_args()
    if CHROMIUM is None:
        sys.exit("Chromium is not installed (apt-get install -y chromium)")
    if args.floor:
        return floor(args)
    from playwright.sync_api import sync_playwright
    record, plan = cases(args.clicks)
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp, jupyter_server("jupyterlab", [
            "--LabApp.expose_app_in_browser=True", "--LabApp.extension_manager=readonly",
            "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
            Path(tmp)) as server, sync_playwright() as pw:
        root = server[2]
        (root / "big.json").write_text(json.dumps([record]))
        (root / "bench.ipynb").write_text(json.dumps(NOTEBOOK))
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = OfflinePage(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
        open_and_run(page, server, "bench.ipynb", widgets=2)
        page.page.wait_for_selector(".echo-widget button")
        page.page.wait_for_function("""() => { const r = document.querySelector('.rw-dataset [role=row][data-index="8"]');
                                               return r && !r.textContent.includes('…'); }""", timeout=120_000)
        rows = []
        for name, widget, clicks in plan:
            if args.only and args.only not in name:
                continue
            page.page.locator(".rw-widget, .echo-widget").nth(widget).locator(clicks[0][0]).scroll_into_view_if_needed()
            for selector, done in clicks[:2]:  # warm
                page.page.evaluate(CLICK, [widget, selector, done])
            ms = np.array([page.page.evaluate(CLICK, [widget, *clicks[i % len(clicks)]]) for i in range(args.clicks)])
            rows.append((name, ms))
        bare = OfflinePage(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
        name = "Front end alone, 60 x 80 sample: one new view (passage toggle)"
        if not args.only or args.only in name:
            static = ROOT / "ragwidgets" / "static"
            ms = bare.page.evaluate(RENDER, [(static / "widget.js").read_text(), (static / "widget.css").read_text(),
                                             render_views(record, args.clicks + 1)])
            rows.append((name, np.array(ms)))
        browser.close()
        assert not page.blocked and not page.errors and not bare.errors, (page.blocked, page.errors, bare.errors)
    print(f"load average after: {os.getloadavg()}\n")
    print("| case | clicks | p50 | p95 | max |")
    print("|---|---|---|---|---|")
    for name, ms in rows:
        print(f"| {name} | {len(ms)} | {np.percentile(ms, 50):.1f} ms | {np.percentile(ms, 95):.1f} ms | {ms.max():.1f} ms |")


if __name__ == "__main__":
    main()
