// The DatasetExplorer's Charts tab: its charts, drawn as SVG from data Python aggregated (bins, cells, group
// means), so they stay small at any run size. The distribution is a brush: drag across bins
// (or click one) to keep those samples, click the grey Undefined bar to keep the Undefined ones;
// the scatter takes a click on a cell or a dragged box, a group bar a click: each adds a removable
// condition (a second click on the same one removes it).
import { useState } from "preact/hooks";
import { html } from "../incremental.js";
import { labelsOf, meanText as fmt, TraitSelect, toggled } from "./common.js";
const W = 290;
const H = 150;
const PAD = { left: 34, right: 8, top: 8, bottom: 30 };


/** The bins [i, j] (inclusive) a brush {lo, hi} covers, or null. */
export function brushedBins(edges, brush) {
  if (!brush || brush.undefined || brush.lo === undefined) return null;
  const lo = edges.findIndex((e) => e >= brush.lo - 1e-9);
  let hi = edges.findIndex((e) => e >= brush.hi - 1e-9) - 1;
  if (hi < lo) hi = lo;
  return [lo, Math.min(hi, edges.length - 2)];
}

export function Distribution({ chart, label, brush, onBrush }) {
  const [drag, setDrag] = useState(null);
  const bins = chart.counts.length;
  const extra = [{ key: "undefined", label: "Undef", count: chart.undefined }];
  if (chart.not_computable) extra.push({ key: "nc", label: "n/c", count: chart.not_computable });
  const slots = bins + 1 + extra.length; // a gap before the Undefined bar
  const bw = (W - PAD.left - PAD.right) / slots;
  const max = Math.max(1, ...chart.counts, ...extra.map((e) => e.count));
  const y = (c) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - c / max);
  const mine = brush && brush.metric === chart.metric ? brush : null;
  const span = drag ? [Math.min(drag[0], drag[1]), Math.max(drag[0], drag[1])] : brushedBins(chart.edges, mine);
  const finish = (i) => {
    const [a, b] = [Math.min(drag[0], i), Math.max(drag[0], i)];
    setDrag(null);
    onBrush({ metric: chart.metric, lo: chart.edges[a], hi: chart.edges[b + 1] });
  };
  return html`<svg class="rw-ds-chart" width=${W} height=${H} role="img" data-testid="distribution"
      aria-label=${`${label}: distribution`} onMouseLeave=${() => setDrag(null)}>
    <text x=${PAD.left} y=${H - 4} class="rw-ds-axis">0</text>
    <text x=${PAD.left + bins * bw - 6} y=${H - 4} class="rw-ds-axis">1</text>
    <text x=${4} y=${PAD.top + 8} class="rw-ds-axis">${max}</text>
    ${chart.counts.map((c, i) => {
      const on = span && i >= span[0] && i <= span[1];
      return html`<rect class=${`rw-ds-bar${on ? " rw-ds-on" : ""}`} data-bin=${i}
        x=${PAD.left + i * bw + 1} y=${y(c)} width=${bw - 2} height=${Math.max(0, H - PAD.bottom - y(c))} />
        <rect class="rw-ds-hit" data-hit=${i} x=${PAD.left + i * bw} y=${PAD.top} width=${bw} height=${H - PAD.top - PAD.bottom}
          onMouseDown=${(e) => { e.preventDefault(); setDrag([i, i]); }}
          onMouseEnter=${() => drag && setDrag([drag[0], i])}
          onMouseUp=${() => drag && finish(i)}><title>${chart.edges[i]}–${chart.edges[i + 1]}: ${c} samples</title></rect>`;
    })}
    ${extra.map((e, k) => {
      const x = PAD.left + (bins + 1 + k) * bw;
      const on = e.key === "undefined" && mine && mine.undefined;
      return html`<g><rect class=${`rw-ds-undef-bar${on ? " rw-ds-on" : ""}`} data-bar=${e.key}
          x=${x + 1} y=${y(e.count)} width=${bw - 2} height=${Math.max(0, H - PAD.bottom - y(e.count))}
          onClick=${() => e.key === "undefined" && onBrush({ metric: chart.metric, undefined: true })}>
          <title>${e.label}: ${e.count} samples</title></rect>
        <text x=${x} y=${H - 16} class="rw-ds-axis">${e.label}</text>
        <text x=${x} y=${H - 4} class="rw-ds-axis">${e.count}</text></g>`;
    })}
  </svg>`;
}

/** The bounds of scatter bin `i` of `bins` over 0..1, as an expression on `column`: lo ≤ v < hi
 * (the last bin takes 1 too, as the chart's cells do). */
function binRange(column, i, j, bins) {
  const lo = +(i / bins).toFixed(6);
  const hi = +((j + 1) / bins).toFixed(6);
  return `${column} >= ${lo} and ${column} ${j + 1 >= bins ? "<=" : "<"} ${hi}`;
}

/** The filter a scatter click (one cell) or drag (a box of cells, [i0, j0] to [i1, j1]) asks for. */
export function scatterCondition(x, y, bins, [i0, j0], [i1, j1]) {
  return `${binRange(x, Math.min(i0, i1), Math.max(i0, i1), bins)} and ${binRange(y, Math.min(j0, j1), Math.max(j0, j1), bins)}`;
}

export function Scatter({ chart, x, y, xLabel, yLabel, picked = [], onPick = () => {} }) {
  const size = 150;
  const cell = size / chart.bins;
  const max = Math.max(1, ...chart.cells.map((c) => c[2]));
  const [drag, setDrag] = useState(null);
  const at = (e) => {
    const r = e.currentTarget.getBoundingClientRect();
    const clamp = (v) => Math.min(chart.bins - 1, Math.max(0, Math.floor(v)));
    return [clamp(((e.clientX - r.left) / (r.width || size)) * chart.bins),
      clamp(chart.bins - ((e.clientY - r.top) / (r.height || size)) * chart.bins)];
  };
  const box = drag && [Math.min(drag[0][0], drag[1][0]), Math.min(drag[0][1], drag[1][1]),
    Math.max(drag[0][0], drag[1][0]), Math.max(drag[0][1], drag[1][1])];
  return html`<svg class="rw-ds-chart" width=${size + 44} height=${size + 30} role="img" data-testid="scatter"
      aria-label=${`${yLabel} against ${xLabel}`}>
    <rect x="36" y="4" width=${size} height=${size} class="rw-ds-frame" />
    ${chart.cells.map(([i, j, c]) => {
      const on = picked.includes(scatterCondition(x, y, chart.bins, [i, j], [i, j]));
      return html`<rect class=${`rw-ds-cell${on ? " rw-ds-on" : ""}`} x=${36 + i * cell} y=${4 + size - (j + 1) * cell}
        width=${cell} height=${cell} style=${`opacity:${0.15 + 0.85 * Math.log1p(c) / Math.log1p(max)}`}>
        <title>${xLabel} ${(i / chart.bins).toFixed(2)}–${((i + 1) / chart.bins).toFixed(2)}, ${yLabel} ${(j / chart.bins).toFixed(2)}–${((j + 1) / chart.bins).toFixed(2)}: ${c}</title></rect>`;
    })}
    ${box ? html`<rect class="rw-ds-box" x=${36 + box[0] * cell} y=${4 + size - (box[3] + 1) * cell}
      width=${(box[2] - box[0] + 1) * cell} height=${(box[3] - box[1] + 1) * cell} />` : ""}
    <rect class="rw-ds-hit" data-testid="scatter-hit" x="36" y="4" width=${size} height=${size}
      onMouseDown=${(e) => { e.preventDefault(); const p = at(e); setDrag([p, p]); }}
      onMouseMove=${(e) => drag && setDrag([drag[0], at(e)])}
      onMouseLeave=${() => setDrag(null)}
      onMouseUp=${(e) => { if (!drag) return; const end = at(e); setDrag(null); onPick(scatterCondition(x, y, chart.bins, drag[0], end)); }}>
      <title>Click a cell or drag a box: keep those samples</title></rect>
    <text x="30" y="12" class="rw-ds-axis" text-anchor="end">1</text>
    <text x="30" y=${size + 4} class="rw-ds-axis" text-anchor="end">0</text>
    <text x=${36 + size} y=${size + 18} class="rw-ds-axis" text-anchor="end">1</text>
    <text x="36" y=${size + 28} class="rw-ds-axis">${xLabel} → · ↑ ${yLabel} · ${chart.left_out} left out (Undefined)</text>
  </svg>`;
}

/** A group's name in at most 18 characters: its end when longer (a file's name, not its folder). */
export const shortLabel = (name) => (name.length > 18 ? `…${name.slice(-17)}` : name);

export function GroupMeans({ chart, label, onPick, picked = () => false }) {
  const rowH = 20;
  const width = 290;
  const barX = 110;
  const rows = chart.rows;
  return html`<svg class="rw-ds-chart" width=${width} height=${rows.length * rowH + 6} role="img" data-testid="groups"
      aria-label=${`${label} by ${chart.by}`}>
    ${rows.map((r, i) => html`<g class=${`rw-ds-group${picked(String(r.group)) ? " rw-ds-on" : ""}`} data-group=${String(r.group)}
      onClick=${() => onPick(String(r.group))}>
      <text x=${barX - 6} y=${i * rowH + 15} text-anchor="end" class="rw-ds-axis">${shortLabel(String(r.group))}</text>
      ${r.mean === null
        ? html`<text x=${barX} y=${i * rowH + 15} class="rw-ds-undef-text">Undefined (n=${r.size})</text>`
        : html`<rect class="rw-ds-bar" x=${barX} y=${i * rowH + 3} width=${Math.max(1, (width - barX - 90) * r.mean)} height=${rowH - 6} />
          <text x=${barX + (width - barX - 90) * r.mean + 4} y=${i * rowH + 15} class="rw-ds-axis">${fmt(r.mean)} (n=${r.defined})</text>`}
      <title>${r.group}: ${fmt(r.mean)} over ${r.defined} defined of ${r.size}</title></g>`)}
  </svg>`;
}

/** The condition a group bar's click adds: `column == value` (a number when the group is one). */
export function groupCondition(column, group) {
  return `${column} == ${JSON.stringify(Number.isNaN(Number(group)) ? group : Number(group))}`;
}

/** The tab: the distribution (a brush), the scatter and the group means, each a filter. */
function Charts({ part, set }) {
  const { charts, labelOf, keys, labels, groupColumns, c } = part;
  const select = (trait, options, names = options) => html`<${TraitSelect} trait=${trait} value=${c[trait]} options=${options} labels=${names} set=${set} />`;
  const toggle = (x) => set({ conditions: toggled(c.conditions, x) });
  return html`<div class="rw-ds-charts">
      ${charts.distribution ? html`<div class="rw-ds-panel"><h4>Distribution ${select("chart_metric", keys, labels)}
          <span class="rw-hint">drag across bins to filter</span></h4>
        <${Distribution} chart=${charts.distribution} label=${labelOf[c.chart_metric]} brush=${c.brush}
          onBrush=${(brush) => set({ brush })} /></div>` : ""}
      ${charts.scatter ? html`<div class="rw-ds-panel"><h4>Scatter ${select("scatter_x", keys, labels)} × ${select("scatter_y", keys, labels)}
          <span class="rw-hint">click a cell or drag a box to filter</span></h4>
        <${Scatter} chart=${charts.scatter} x=${c.scatter_x} y=${c.scatter_y} xLabel=${labelOf[c.scatter_x]}
          yLabel=${labelOf[c.scatter_y]} picked=${c.conditions} onPick=${toggle} /></div>` : ""}
      ${charts.groups ? html`<div class="rw-ds-panel"><h4>Mean by ${select("group_by", groupColumns)}
          <span class="rw-hint">click a bar to filter, again to undo</span></h4>
        <${GroupMeans} chart=${charts.groups} label=${labelOf[c.chart_metric]}
          picked=${(g) => (c.group_by === "run" ? c.run === g : c.conditions.includes(groupCondition(c.group_by, g)))}
          onPick=${(g) => (c.group_by === "run" ? set({ run: c.run === g ? "" : g }) : toggle(groupCondition(c.group_by, g)))} /></div>` : ""}
    </div>`;
}

export const panel = {
  key: "charts", title: "Charts", place: "tab", shows: () => true,
  part: (view) => {
    const c = view.controls;
    const chartable = view.chartable || view.metrics; // the metrics, then other tools' columns
    return {
      charts: view.charts, labelOf: labelsOf(view.metrics), keys: chartable.map((m) => m.key),
      labels: chartable.map((m) => m.label), groupColumns: view.group_columns,
      c: { chart_metric: c.chart_metric, scatter_x: c.scatter_x, scatter_y: c.scatter_y, group_by: c.group_by,
        run: c.run, brush: c.brush || {}, conditions: c.conditions || [] },
    };
  },
  traits: ["chart_metric", "scatter_x", "scatter_y", "group_by", "brush", "conditions", "run"],
  Panel: Charts,
};
