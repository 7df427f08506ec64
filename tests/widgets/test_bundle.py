"""The committed bundle is what js/ builds, and js/src/labels.js is what ragwidgets.model says."""

import hashlib
import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "js"
STATIC = ROOT / "ragwidgets" / "static"


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_manifest_matches_sources_and_bundle():
    """Without node: the sources and the bundle are the ones the last `npm run build` saw."""
    manifest = json.loads((JS / "build-manifest.json").read_text())
    sources = {"package.json", "package-lock.json", "build.mjs"} | {
        p.relative_to(JS).as_posix() for p in (JS / "src").rglob("*")
        if p.suffix in (".js", ".css") and not p.name.endswith(".test.js")}
    assert set(manifest["sources"]) == sources, "a source was added or removed: run `npm run build` in js/"
    for name, digest in manifest["sources"].items():
        assert sha(JS / name) == digest, f"js/{name} changed since the bundle was built: run `npm run build` in js/"
    for name, digest in manifest["outputs"].items():
        assert sha(ROOT / name) == digest, f"{name} was edited by hand: rebuild it from js/"


@pytest.mark.skipif(not (JS / "node_modules" / ".bin" / "esbuild").exists() or not shutil.which("node"),
                    reason="js/node_modules not installed (`npm ci` in js/; .ci/run does it)")
def test_rebuilding_gives_the_same_bytes(tmp_path):
    subprocess.run(["node", "build.mjs", "--outdir", str(tmp_path)], cwd=JS, check=True, timeout=120)
    for name in json.loads((JS / "build-manifest.json").read_text())["outputs"]:
        name = Path(name).name
        assert (tmp_path / name).read_bytes() == (STATIC / name).read_bytes(), f"static/{name} is stale"


def test_bundle_is_self_contained():
    bundle = (STATIC / "widget.js").read_text(encoding="utf-8")
    assert "export" in bundle and "import " not in bundle.split("export", 1)[0][:200]
    # Preact names the SVG and MathML namespaces (identifiers, never fetched); no other URL.
    unfetched = re.sub(r"http://www\.w3\.org/(2000/svg|1998/Math/MathML|1999/xhtml|1999/xlink)", "", bundle)
    for needle in ("http://", "https://", "esm.sh", "cdn.", "fetch(", "import(", "insertAdjacentHTML", "outerHTML"):
        assert needle not in unfetched
    # Preact's bundle handles dangerouslySetInnerHTML; no source of ours may use it (or innerHTML).
    for src in (JS / "src").rglob("*.js"):
        text = src.read_text(encoding="utf-8")
        assert "innerHTML" not in text and "dangerouslySetInnerHTML" not in text, src.name


def test_js_label_codes_are_the_models():
    """js/src/labels.js (what the matrix draws each code as) is written from model.LABEL_CODES."""
    spec = importlib.util.spec_from_file_location("make_labels", JS / "make_labels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (JS / "src" / "labels.js").read_text(encoding="utf-8") == module.labels_js(), \
        "js/src/labels.js disagrees with ragwidgets.model: run `python js/make_labels.py`"
    for src in (JS / "src").rglob("*.js"):  # no other source spells a code table of its own
        if src.name != "labels.js":
            assert not re.search(r"\[\s*-1\s*\]\s*:", src.read_text(encoding="utf-8")), src.name
