// Bundle the widgets into the Python package: ragwidgets/static/{widget,state_space}.{js,css} and
// snapshot.js (the renderer `ragwidgets export` inlines).
// Everything is bundled (no CDN, no network at run time) and the output is deterministic, so
// tests/widgets/test_bundle.py can rebuild it and compare bytes. `node build.mjs --outdir DIR`
// builds elsewhere (that check); a normal build also refreshes build-manifest.json, the hashes
// that let the check run without node.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const flag = process.argv.indexOf("--outdir");
const outdir = flag > 0 ? process.argv[flag + 1] : join(here, "..", "ragwidgets", "static");
const common = { absWorkingDir: here, bundle: true, logLevel: "warning", legalComments: "none", charset: "utf8" };
// Each widget's module wrapped by withLive (src/live.js): every view says when no kernel answers it.
const live = (name) => ({ stdin: { contents: `import w from "./src/${name}"; import { withLive } from "./src/live.js"; export default withLive(w);`, resolveDir: here, sourcefile: `live_${name}` } });

await esbuild.build({ ...common, ...live("widget.js"), format: "esm", target: "es2020", outfile: join(outdir, "widget.js") });
await esbuild.build({ ...common, entryPoints: [join(here, "src", "widget.css")], outfile: join(outdir, "widget.css") });
await esbuild.build({ ...common, ...live("state_space.js"), format: "esm", target: "es2020", outfile: join(outdir, "state_space.js") });
await esbuild.build({ ...common, entryPoints: [join(here, "src", "state_space.css")], outfile: join(outdir, "state_space.css") });
await esbuild.build({ ...common, entryPoints: [join(here, "src", "snapshot.js")], format: "esm", target: "es2020", outfile: join(outdir, "snapshot.js") });
await esbuild.build({ ...common, ...live("dataset.js"), format: "esm", target: "es2020", outfile: join(outdir, "dataset.js") });
await esbuild.build({ ...common, entryPoints: [join(here, "src", "dataset.css")], outfile: join(outdir, "dataset.css") });

if (flag < 0) {
  const sha = (path) => createHash("sha256").update(readFileSync(path)).digest("hex");
  const files = readdirSync(join(here, "src"), { recursive: true }).map((f) => f.split("\\").join("/"));
  const sources = ["package.json", "package-lock.json", "build.mjs",
    ...files.filter((f) => /\.(js|css)$/.test(f) && !f.endsWith(".test.js")).sort().map((f) => `src/${f}`)];
  const manifest = {
    note: "Written by `npm run build`; checked by tests/widgets/test_bundle.py.",
    sources: Object.fromEntries(sources.map((f) => [f, sha(join(here, f))])),
    outputs: Object.fromEntries(["widget.js", "widget.css", "state_space.js", "state_space.css", "snapshot.js", "dataset.js", "dataset.css"].map((f) => [relative(join(here, ".."), join(outdir, f)), sha(join(outdir, f))])),
  };
  writeFileSync(join(here, "build-manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
}
