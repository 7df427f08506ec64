"""The wheel's smoke test, run by .ci/wheel in a fresh venv holding only the wheel and JupyterLab,
from an empty folder (no checkout beside it): the installed package is the wheel's, every public
name imports, the example scores, a tutorial is copied, served and opened, and runs headless."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import ragwidgets as rw

CLI = [sys.executable, "-m", "ragwidgets.cli"]


def check(ok, what):
    if not ok:
        sys.exit(f"wheel smoke test: {what}")
    print(f"ok: {what}", flush=True)


here = Path.cwd()
check("site-packages" in rw.__file__ and not (Path(rw.__file__).parents[1] / "pyproject.toml").exists(),
      f"ragwidgets {rw.__version__} is the installed wheel ({rw.__file__})")
for module in (rw, rw.analysis, rw.datasets):
    for name in getattr(module, "__all__", ()):
        getattr(module, name)
check(len(rw.__all__) > 10, f"{len(rw.__all__)} public names of ragwidgets import")
static = Path(rw.__file__).parent / "static"
check(all((static / f).stat().st_size > 1000 for f in ("widget.js", "dataset.js", "dataset.css")),
      "the widgets' front-end bundle is in the wheel")
check((Path(rw.__file__).parent / "py.typed").exists(), "py.typed is in the wheel")
import ragwidgets.judges  # noqa: E402,F401  (the judges' package imports without extras)
import ragwidgets.widgets  # noqa: E402,F401

done = subprocess.run([*CLI, "score", "--example", "ragchecker", "--format", "json"], capture_output=True,
                      text=True, check=True)
scored = json.loads(done.stdout)
check("metrics" in scored and scored["metrics"], "ragwidgets score --example ragchecker gives the metrics")
listed = subprocess.run([*CLI, "tutorial", "--list"], capture_output=True, text=True, check=True).stdout
check(len(listed.splitlines()) == 7, "ragwidgets tutorial --list names the seven tutorials")
subprocess.run([*CLI, "examples", str(here / "tour")], check=True, capture_output=True)
check((here / "tour" / "results.json").exists(), "ragwidgets examples copies the tour's files")

with socket.socket() as probe:
    probe.bind(("localhost", 0))
    port = probe.getsockname()[1]
folder = here / "tutorials"
env = {**os.environ, "JUPYTER_CONFIG_DIR": tempfile.mkdtemp(), "JUPYTER_RUNTIME_DIR": tempfile.mkdtemp()}
server = subprocess.Popen([*CLI, "tutorial", "ragchecker-sample", "--dir", str(folder), "--no-browser",
                           "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
address, deadline = None, time.monotonic() + 180
while address is None and time.monotonic() < deadline and server.poll() is None:
    found = re.search(r"http://\S+", server.stdout.readline())
    address = found and found.group(0)
check(address is not None, f"ragwidgets tutorial serves the copy ({address})")
with urllib.request.urlopen(address, timeout=180) as reply:
    check(reply.status == 200 and "JupyterLab" in reply.read().decode(), "the printed address opens JupyterLab")
server.send_signal(signal.SIGINT)
try:  # the command waits 30 s for JupyterLab to stop before it kills it; a loaded machine adds to that
    out, err = server.communicate(timeout=180)
except subprocess.TimeoutExpired as late:  # JupyterLab, in its own session, may still hold the pipes: never wait on them
    server.kill()
    said = "".join(x.decode() if isinstance(x, bytes) else x for x in (late.stdout or "", late.stderr or ""))
    check(False, f"Ctrl+C stops JupyterLab within 180 s (it did not; the command's last output: {said[-2000:]})")
check(server.returncode == 0 and "Traceback" not in err, "Ctrl+C stops JupyterLab cleanly")

import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402

notebook = folder / "02_ragchecker_sample.ipynb"
nb = nbformat.read(notebook, as_version=4)
NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(folder)}}).execute()
errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", ()) if o.get("output_type") == "error"]
check(not errors, f"the copied tutorial {notebook.name} runs top to bottom headless")
print("wheel smoke test passed")
