// The DatasetExplorer's "Save · export" tab: acting on a finding. Save / load the slices, write
// the filtered rows or their claims, to files in the kernel (a request each; the kernel says what
// it wrote).
import { useState } from "preact/hooks";
import { html } from "../incremental.js";

function Actions({ part, request }) {
  const { count, cluster } = part;
  const [path, setPath] = useState("");
  const [said, setSaid] = useState("");
  const act = (name, msg, fallback) => {
    setSaid("…");
    request(name, { ...msg, path: path.trim() || fallback }).catch(() => null)
      .then((reply) => setSaid(reply ? reply.said : ""));
  };
  const n = count.toLocaleString("en-US");
  return html`<div class="rw-ds-panel rw-ds-actions" data-testid="actions">
    <label>file (a new name in the explorer's folder) <input type="text" value=${path} data-testid="path"
      placeholder="slices.json · rows.csv · rows.parquet · claims.parquet" onInput=${(e) => setPath(e.target.value)} /></label>
    <div class="rw-ds-act-buttons">
      ${cluster ? "" : html`<button data-testid="save-slices" onClick=${() => act("save_slices", {}, "slices.json")}>Save the slices</button>
      <button data-testid="load-slices" onClick=${() => act("load_slices", {}, "slices.json")}>Load slices</button>`}
      <button data-testid="export-csv" onClick=${() => act("export", { format: "csv" }, "rows.csv")}>Write the ${n} rows as CSV</button>
      <button data-testid="export-parquet" onClick=${() => act("export", { format: "parquet" }, "rows.parquet")}>… as Parquet</button>
      ${cluster ? "" : html`<button data-testid="export-claims" title="one row per claim: every label, the passages behind it, hallucinated / noise-led (.csv, .parquet or .jsonl by the file's suffix)"
        onClick=${() => act("export_claims", {}, "claims.parquet")}>… their claims</button>`}
    </div>
    ${said ? html`<p class="rw-hint" role="status" data-testid="act-said">${said}</p>` : ""}
  </div>`;
}

export const panel = {
  key: "act", title: "Save · export", place: "tab", shows: () => true,
  part: (view) => ({ count: view.count, cluster: !!view.cluster }),
  traits: [],
  Panel: Actions,
};
