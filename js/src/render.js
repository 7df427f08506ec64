// Draw the whole view state (built in Python) as one DOM tree. Nothing here computes a metric:
// the view state carries every value, fraction, reason and highlight.
import { h, list, yesNo } from "./dom.js";
import { matrixCells } from "./sample_view.js";

const ROLE_TEXT = {
  selected: "● selected",
  supports: "supports it",
  cited: "cited by it",
  entailed: "entailed by it",
  cites: "cites it",
};

/**
 * view: the `view` trait; act.get/act.set read and write traits; ui: this view's own display
 * state that survives redraws (which folded sections are open). Returns the root element.
 */
export function renderView(view, act, ui = { open: {} }) {
  if (!view || !view.controls) return h("div", { class: "rw-root" }, "Loading…");
  return h(
    "div",
    { class: "rw-root", dataset: { kind: view.kind } },
    header(view),
    controls(view, act),
    h("p", { class: "rw-summary", "data-testid": "summary" }, view.summary),
    scoreCards(view, act, ui),
    answer(view),
    sourceTable(view, act),
    claimGrid(view, act),
    view.matrix ? matrix(view, act) : null,
    view.gt_claims.length && !view.facts.length ? gtTable(view, act) : null,
    view.facts.length ? factsTable(view) : null,
  );
}

function header(view) {
  return h(
    "header",
    { class: "rw-header" },
    h("h3", { class: "rw-title" }, view.title),
    view.question ? h("p", { class: "rw-question" }, h("b", {}, "Question: "), view.question) : null,
    h("p", { class: "rw-state", "data-testid": "state" }, h("b", {}, "State: "), view.state),
  );
}

function section(title, testid, ...body) {
  return h("section", { class: "rw-section", "data-testid": testid }, h("h4", {}, title), ...body);
}

// -- controls ---------------------------------------------------------------------------------
function controls(view, act) {
  const c = view.controls;
  const rows = c.selects.map((s) => choice(s, act));
  if (c.top_k) rows.push(topK(view, act));
  const presets = h(
    "div",
    { class: "rw-presets", role: "group", "aria-label": "Presets" },
    h("span", { class: "rw-control-label" }, "Presets"),
    c.presets.map((p) =>
      h(
        "button",
        {
          type: "button",
          class: ["rw-preset", p.active && "rw-active"],
          title: p.note,
          "aria-pressed": p.active ? "true" : "false",
          dataset: { preset: p.name },
          onclick: () => act.set(p.set),
        },
        p.name,
      ),
    ),
  );
  const tools = h(
    "div",
    { class: "rw-tools" },
    h(
      "button",
      { type: "button", class: "rw-reset", "data-testid": "reset", onclick: () => act.set(c.reset) },
      "↺ Reset",
    ),
    h(
      "label",
      { class: "rw-predict-toggle" },
      h("input", {
        type: "checkbox",
        checked: view.predict,
        "data-testid": "predict",
        onchange: (e) => act.set({ predict: e.target.checked }),
      }),
      " Predict before reveal",
    ),
    c.edited ? h("span", { class: "rw-edited" }, `Passages edited: ${c.edited}`) : null,
  );
  return h("section", { class: "rw-controls", "data-testid": "controls" }, rows, presets, tools);
}

/** "Top k passages": one number control; k passages in rank order go in play. */
function topK(view, act) {
  const t = view.controls.top_k;
  const ids = view.sources.filter((s) => s.toggleable).map((s) => s.doc_id);
  const commit = (e) => {
    const k = Math.max(0, Math.min(t.max, Math.round(Number(e.target.value))));
    if (Number.isFinite(k) && k !== t.value) act.set({ retrieved: ids.slice(0, k) });
  };
  return h(
    "div",
    { class: "rw-control", dataset: { trait: "top_k" } },
    h("label", { class: "rw-control-label", for: "rw-top-k" }, "Top k passages"),
    h("input", {
      type: "range", min: "0", max: String(t.max), value: String(t.value ?? t.max),
      "aria-label": "Top k passages (slider)", "data-testid": "top-k-range", onchange: commit,
    }),
    h("input", {
      type: "number", id: "rw-top-k", class: "rw-top-k", min: "0", max: String(t.max),
      value: t.value === null ? "" : String(t.value), placeholder: "custom",
      "data-testid": "top-k", onchange: commit, onkeydown: (e) => e.stopPropagation(),
    }),
    h("span", { class: "rw-top-k-note" }, t.value === null ? `custom set of ${view.sources.filter((s) => s.retrieved).length}` : `of ${t.max}`),
  );
}

/** A control: a row of buttons when there are few options, else a <select>. */
function choice(s, act) {
  const labels = s.option_labels || s.options;
  const valueOf = (i) => (s.numeric ? i : s.options[i]);
  const current = s.numeric ? s.value : s.options.indexOf(s.value);
  const label = h("span", { class: "rw-control-label", id: `rw-label-${s.trait}` }, s.label);
  if (s.options.length > 8) {
    const select = h(
      "select",
      {
        "aria-labelledby": `rw-label-${s.trait}`,
        dataset: { trait: s.trait },
        onchange: (e) => act.set({ [s.trait]: valueOf(Number(e.target.value)) }),
      },
      labels.map((text, i) => h("option", { value: String(i) }, text)),
    );
    select.value = String(current);
    return h("div", { class: "rw-control" }, label, select);
  }
  return h(
    "div",
    { class: "rw-control", role: "radiogroup", "aria-labelledby": `rw-label-${s.trait}`, dataset: { trait: s.trait } },
    label,
    labels.map((text, i) =>
      h(
        "button",
        {
          type: "button",
          role: "radio",
          class: ["rw-option", i === current && "rw-active"],
          "aria-checked": i === current ? "true" : "false",
          dataset: { option: s.options[i] },
          onclick: () => act.set({ [s.trait]: valueOf(i) }),
        },
        text,
      ),
    ),
  );
}

// -- score cards ------------------------------------------------------------------------------
function scoreCards(view, act, ui) {
  const missing = view.not_computable.length
    ? h(
        "p",
        { class: "rw-note" },
        "Not computable for this data: ",
        view.not_computable.map((m, i) => [i ? "; " : "", h("b", {}, m.label), ` (${m.reason})`]),
      )
    : null;
  const group = (g) =>
    h(
      "div",
      { class: "rw-card-group", dataset: { group: g.group } },
      h("h4", {}, g.title),
      h("div", { class: "rw-card-grid" }, g.cards.map((c) => scoreCard(c, view, act))),
    );
  const primary = view.card_groups.filter((g) => !g.secondary);
  const secondary = view.card_groups.filter((g) => g.secondary);
  let folded = null;
  if (secondary.length) {
    const n = secondary.reduce((k, g) => k + g.cards.length, 0);
    folded = h(
      "details",
      { class: "rw-more", open: ui.open.ragchecker },
      h("summary", {}, `RAGChecker metrics on the same state (${n})`),
      secondary.map(group),
    );
    folded.addEventListener("toggle", () => (ui.open.ragchecker = folded.open));
  }
  return h("section", { class: "rw-cards", "data-testid": "cards" }, primary.map(group), folded, missing);
}

function scoreCard(c, view, act) {
  const undefinedValue = c.value === null;
  const hidden = c.hidden;
  const body = hidden
    ? [
        h("div", { class: "rw-card-value rw-hidden-value", "data-testid": "value" }, "?"),
        h("div", { class: "rw-card-fraction" }, "Enter your prediction to reveal"),
      ]
    : [
        h("div", { class: "rw-card-value", "data-testid": "value" }, c.shown),
        h("div", { class: "rw-card-fraction", "data-testid": "fraction" }, c.fraction),
        undefinedValue && c.reason ? h("div", { class: "rw-card-reason" }, `Undefined: ${c.reason}`) : null,
      ];
  return h(
    "article",
    {
      class: ["rw-card", undefinedValue && !hidden && "rw-undefined", hidden && "rw-concealed"],
      dataset: { metric: c.name },
      "aria-label": c.label,
      title: hidden ? null : itemsNote(c),
    },
    h(
      "div",
      { class: "rw-card-label" },
      c.label,
      c.lower_is_better ? h("span", { class: "rw-hint", title: "lower is better" }, " ↓") : null,
    ),
    body,
    h("div", { class: "rw-card-def" }, c.definition),
    view.predict ? prediction(c, view, act) : null,
  );
}

/** Which items the fraction counts, e.g. "counted: R1, R2 — out of: R1, R2, R3". */
function itemsNote(c) {
  if (!c.denominator_items.length) return null;
  return `counted: ${list(c.numerator_items, "none")} — out of: ${c.denominator_items.join(", ")}`;
}

function prediction(c, view, act) {
  const p = c.prediction;
  const input = h("input", {
    type: "text",
    class: "rw-predict-input",
    placeholder: "0.5, 2/3 or Undefined",
    "aria-label": `Your prediction for ${c.label}`,
    value: p ? p.text : "",
    onchange: (e) => commit(e.target),
    // Keys typed here are the learner's, not JupyterLab's shortcuts; Enter commits.
    onkeydown: (e) => {
      e.stopPropagation();
      if (e.key === "Enter") commit(e.target);
    },
  });
  const commit = (input) => {
    const text = input.value.trim();
    const before = view.predictions || {};
    if ((before[c.name] || "") === text) return;
    const next = { ...before };
    if (text) next[c.name] = text;
    else delete next[c.name];
    act.set({ predictions: next });
  };
  let verdict = null;
  if (p && !p.readable) verdict = h("div", { class: "rw-verdict rw-no" }, p.message);
  else if (p)
    verdict = h(
      "div",
      { class: ["rw-verdict", p.match ? "rw-yes" : "rw-no"] },
      p.match ? `✓ You predicted ${p.shown}: right` : `✗ You predicted ${p.shown}; actual ${c.shown}`,
    );
  return h("div", { class: "rw-prediction" }, input, verdict);
}

// -- answer -----------------------------------------------------------------------------------
function answer(view) {
  return h(
    "section",
    { class: "rw-section rw-answer" },
    h("p", {}, h("b", {}, "Answer: "), view.answer ? view.answer : h("i", {}, "(empty answer: no claims)")),
    view.kind === "sample" && view.gt_answer
      ? h("details", {}, h("summary", {}, "Ground-truth answer"), h("p", {}, view.gt_answer))
      : null,
  );
}

// -- linked tables ----------------------------------------------------------------------------
/** The item's id, and under it what the selection makes of it, in words (not only colour). */
function idCell(id, roles) {
  return h(
    "td",
    { class: "rw-id" },
    id,
    roles.length ? h("div", { class: "rw-link" }, roles.map((r) => h("span", { class: `rw-badge rw-badge-${r}` }, ROLE_TEXT[r] || r))) : null,
  );
}

function selectableRow(item, view, act, cells) {
  const selected = view.selected === item.key;
  const pick = () => act.set({ selected: selected ? "" : item.key });
  return h(
    "tr",
    {
      class: ["rw-row", item.roles.map((r) => `rw-role-${r}`)].flat(),
      tabindex: "0",
      "aria-selected": selected ? "true" : "false",
      dataset: { key: item.key },
      onclick: pick,
      onkeydown: (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          pick();
        }
      },
    },
    cells,
  );
}

function sourceTable(view, act) {
  const sample = view.kind === "sample";
  const heads = [
    "Rank",
    "Source",
    sample ? "Passage text" : "Exact text",
    sample ? null : "Fact IDs",
    "In context?",
    sample ? null : "Question-relevant?",
    "Entails claims",
    view.has_citations ? "Cited by" : null,
  ].filter(Boolean);
  const rows = view.sources.map((s) => {
    const toggle = h("input", {
      type: "checkbox",
      checked: s.retrieved,
      disabled: !s.toggleable,
      "aria-label": `${s.doc_id} in the retrieved context`,
      dataset: { toggle: s.doc_id },
      onclick: (e) => e.stopPropagation(),
      onchange: (e) => {
        const ids = view.sources.filter((x) => x.retrieved).map((x) => x.doc_id);
        const next = e.target.checked ? [...ids, s.doc_id] : ids.filter((d) => d !== s.doc_id);
        act.set({ retrieved: next });
      },
    });
    const entails = [
      list(s.entails_response, s.entails_gt.length ? "" : "—"),
      s.entails_gt.length ? `${s.entails_response.length ? " · " : ""}gt ${s.entails_gt.join(", ")}` : "",
    ].join("");
    return selectableRow(s, view, act, [
      h("td", { class: "rw-num" }, s.rank === null ? "—" : String(s.rank)),
      idCell(s.doc_id, s.roles),
      h("td", { class: "rw-text" }, s.text),
      sample ? null : h("td", {}, list(s.facts)),
      h("td", { class: "rw-toggle-cell" }, h("label", {}, toggle, s.retrieved ? " ✓ Yes" : " ✗ No")),
      sample
        ? null
        : h("td", {}, yesNo(s.relevant), s.outdated ? h("span", { class: "rw-outdated" }, " · ⚠ Outdated") : null),
      h("td", {}, entails),
      view.has_citations ? h("td", {}, list(s.cited_by)) : null,
    ]);
  });
  return section(
    sample ? "Retrieved passages (rank order; untick to see the scores without one)" : "Sources",
    "sources",
    table(heads, rows, "rw-sources"),
  );
}

function claimGrid(view, act) {
  const cites = view.has_citations;
  const hasFacts = view.claims.some((c) => c.facts);
  const hasCorrect = view.claims.some((c) => c.correct !== null);
  const heads = [
    "Claim",
    "Text",
    hasFacts ? "Fact ID" : null,
    hasCorrect ? "Correct?" : null,
    "Faithful?",
    "Supported by",
    cites ? "Source" : null,
    cites ? "Retrieved?" : null,
    cites ? "Entails?" : null,
    cites ? "Valid?" : null,
  ].filter(Boolean);
  const before = heads.indexOf("Supported by");
  const groupRow = cites
    ? [
        { text: "", span: before },
        { text: "Retrieved context", span: 1 },
        { text: "Cited source", span: 4, class: "rw-group-head" },
      ]
    : null;
  const rows = view.claims.map((c) => {
    const cits = c.citations || [];
    const per = (f) => (cits.length ? cits.map((x, i) => [i ? h("br") : null, f(x)]) : "—");
    return selectableRow(c, view, act, [
      idCell(c.id, c.roles),
      h("td", { class: "rw-text" }, c.text),
      hasFacts ? h("td", {}, list(c.facts)) : null,
      hasCorrect ? h("td", {}, yesNo(c.correct, ["Correct", "Incorrect"])) : null,
      h("td", {}, yesNo(c.faithful, ["Faithful", "Unfaithful"])),
      h("td", {}, list(c.supported_by, "none")),
      cites ? h("td", {}, cits.length ? cits.map((x) => x.doc_id).join(", ") : "no citation") : null,
      cites ? h("td", {}, per((x) => yesNo(x.retrieved))) : null,
      cites ? h("td", {}, per((x) => yesNo(x.entails))) : null,
      cites ? h("td", {}, per((x) => h("span", { title: x.why }, yesNo(x.valid)))) : null,
    ]);
  });
  const empty = view.claims.length ? null : h("p", { class: "rw-note" }, "The answer makes no claims.");
  return section(
    cites ? "Claims and citations" : "Response claims",
    "claims",
    table(heads, rows, "rw-claims", groupRow),
    empty,
  );
}

const CELL = { 1: ["●", "entails", "rw-entails"], 0: ["·", "does not entail", "rw-neutral"], "-1": ["?", "unjudged", "rw-unjudged"] };

function matrix(view, act) {
  const m = view.matrix;
  const head = h(
    "tr",
    {},
    h("th", {}, "Claim"),
    m.columns.map((c) =>
      h("th", { class: ["rw-matrix-col", !c.active && "rw-off"], title: c.active ? "" : "switched off" }, c.doc_id, c.active ? "" : " (off)"),
    ),
  );
  const cells = matrixCells(m.cells);
  const width = m.columns.length;
  const rows = (side, first) =>
    side.map((r, j) => {
      const row = cells.subarray((first + j) * width, (first + j + 1) * width);
      const selected = view.selected === r.key;
      return h(
        "tr",
        { class: ["rw-row", selected && "rw-role-selected"], onclick: () => act.set({ selected: selected ? "" : r.key }) },
        h("th", { class: "rw-id", title: r.text }, r.id),
        Array.from(row, (v, k) => {
          const [sym, word, cls] = CELL[String(v)];
          return h("td", { class: [cls, !m.columns[k].active && "rw-off"], title: `${m.columns[k].doc_id} ${word} ${r.id}` }, sym);
        }),
      );
    });
  return section(
    "Entailment: claims × passages (● entails · · does not · ? unjudged; switched-off passages greyed)",
    "matrix",
    h(
      "div",
      { class: "rw-matrix-wrap" },
      h("table", { class: "rw-table rw-matrix" }, h("caption", {}, "Response claims"), h("thead", {}, head), h("tbody", {}, rows(m.response, 0))),
      m.gt.length
        ? h("table", { class: "rw-table rw-matrix" }, h("caption", {}, "Ground-truth claims"), h("thead", {}, head.cloneNode(true)), h("tbody", {}, rows(m.gt, m.response.length)))
        : null,
    ),
  );
}

function gtTable(view, act) {
  const rows = view.gt_claims.map((g) =>
    selectableRow(g, view, act, [
      idCell(g.id, g.roles),
      h("td", { class: "rw-text" }, g.text),
      h("td", {}, yesNo(g.covered, ["Covered", "Missed"])),
      h("td", {}, list(g.supported_by, "none")),
    ]),
  );
  return section(
    "Ground-truth claims",
    "gt-claims",
    table(["Claim", "Text", "In the response?", "Supported by (retrieved)"], rows, "rw-gt"),
  );
}

function factsTable(view) {
  const rows = view.facts.map((f) =>
    h(
      "tr",
      {},
      h("td", { class: "rw-text" }, f.text || f.fact_id),
      h("td", { class: "rw-id" }, f.fact_id),
      h("td", {}, yesNo(f.present)),
      h("td", {}, list(f.stated_by)),
    ),
  );
  return section(
    "Required facts",
    "facts",
    table(["Required current fact", "Fact ID", "Present in answer?", "Stated by"], rows, "rw-facts"),
  );
}

function table(heads, rows, cls, groupRow = null) {
  const groups = groupRow
    ? h("tr", { class: "rw-group-row" }, groupRow.map((g) => h("th", { colspan: String(g.span), class: g.class }, g.text)))
    : null;
  return h(
    "div",
    { class: "rw-table-wrap" },
    h(
      "table",
      { class: `rw-table ${cls}` },
      h("thead", {}, groups, h("tr", {}, heads.map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows),
    ),
  );
}
