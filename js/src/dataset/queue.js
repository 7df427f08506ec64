// The DatasetExplorer's review queue (ragwidgets/widgets/dataset/queue.py; started from Python,
// `ex.start_review(n, strategy=...)`): the progress line, "37 of 200 reviewed · faithfulness ±0.06,
// 140 more for ±0.05 · Saved to reviews.jsonl", with ◀ ▶ (keys [ and ]) along the queue. The
// interval costs the kernel a pass over the run, so it is asked for (`queue_interval`) only after
// a pause in the reviewing (common.js PAUSE ms with no new view), never on each label. An empty
// queue says "nothing left to review" (its line) and no item.
import { useEffect } from "preact/hooks";
import { html } from "../incremental.js";
import { showId } from "../text.js";
import { PAUSE } from "./common.js";

function Queue({ part, request }) {
  const q = part.queue;
  useEffect(() => { // each new view without the interval restarts the wait
    if (q.interval !== null) return undefined;
    const t = setTimeout(() => request("queue_interval").catch(() => null), PAUSE);
    return () => clearTimeout(t);
  });
  const step = (by) => request("queue", { step: by }).catch(() => null);
  const dot = " · ";
  return html`<div class="rw-ds-queue" role="status" data-testid="queue">
    <b>Review queue</b>${` (${q.strategy}${q.run ? `, over run ${showId(q.run)}` : ""}): `}
    <b data-testid="queue-progress">${q.line}</b>${dot}<span data-testid="queue-interval">${q.interval === null ? "interval …" : q.interval}</span>${dot}<span
      class="rw-hint" data-testid="queue-file">${q.file}</span>${dot}${q.total ? `sample ${q.position + 1} of ${q.total}${q.query_id === null ? "" : ` (${showId(q.query_id)})`} ` : ""}${q.double ? html`<b data-testid="queue-double">${q.double}</b> ` : ""}
    <button type="button" onClick=${() => step(-1)} disabled=${q.position === 0} title="Previous in the queue ([)">◀</button>
    <button type="button" onClick=${() => step(1)} disabled=${q.position >= q.total - 1} title="Next in the queue (])"
      data-testid="queue-next">▶</button>
    ${q.note ? html`<span class="rw-hint">${` ${q.note}`}</span>` : ""}
  </div>`;
}

export const panel = {
  key: "queue", place: "above", shows: (view) => !!view.queue,
  part: (view) => ({ queue: view.queue }),
  traits: [],
  Panel: Queue,
};
