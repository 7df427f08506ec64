// The comparison tab's claim changes (js/src/dataset/compare.js, ragwidgets/widgets/dataset/changes.py)
// in jsdom, over the "compared" fixture the Python widget made, with the kernel's `changes` part
// written here in its shape: asked for once when the tab opens, again for another run, more
// queries or once stale after a review; the queries and their changed labels drawn as text; a
// query or a change opens the run's row in the drill-down.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { act } from "preact/test-utils";
import { describe, expect, it } from "vitest";
import widget from "./src/dataset.js";
import { fakeModel, viewTrait } from "./fake_model.js";

/** Run `fn` (a click, a view from the kernel) and every render and effect it leads to. */
const acted = async (fn) => { await act(async () => { fn(); }); };
const fixture = (name) => JSON.parse(readFileSync(join(process.cwd(), "fixtures", `dataset_${name}.json`), "utf8"));

const HOSTILE = "<img src=x onerror=alert(1)>";
const found = (run, top) => ({
  metric: "precision", run, top, baseline: "base",
  queries: [
    { query_id: "q7", row: 57, base_value: 1, new_value: 0.25, difference: -0.75, more: 2, said: "",
      changes: [
        { claim: 0, claim_text: HOSTILE, kind: "retrieved2response", passage: "d3", base_label: "Entailment",
          new_label: "Neutral", change: "entailed → not entailed, by passage d3" },
        { claim: 2, claim_text: "It has two piers.", kind: "answer2response", passage: null, base_label: "Entailment",
          new_label: null, change: "removed (was entailed by the ground-truth answer)" }] },
    { query_id: "q9", row: 59, base_value: 0.5, new_value: 0.75, difference: 0.25, more: 0,
      said: "no claim label changed", changes: [] }],
});

function mount(changes) {
  const f = fixture("compared");
  const view = { ...f._view, controls: { ...f._view.controls, compare_metric: "precision" }, changes };
  const model = fakeModel({ _view: viewTrait(view), _drill: viewTrait(f._drill), _other: viewTrait(f._other),
    _rows: f._rows, text: "", expression: "" });
  const el = document.createElement("div");
  document.body.appendChild(el);
  let cleanup;
  act(() => { cleanup = widget.render({ model, el }); });
  const show = (next) => acted(() => { // a new view from the kernel
    model.state._view = viewTrait({ ...view, changes: next });
    model.emit("change:_view");
  });
  const asked = () => model.messages.filter((m) => m.type === "claim_changes");
  const answer = () => asked().forEach((m) => model.emit("msg:custom", { type: "reply", request: m.request }, []));
  return { model, el, show, asked, answer, cleanup: () => act(() => { cleanup(); el.remove(); }) };
}

describe("claim changes in the comparison tab", () => {
  it("asks once when the tab opens, draws the queries and changes as text, and opens a query's row", async () => {
    const base = { metric: "precision", runs: ["better"], top: 10, max_top: 50, found: null };
    const { model, el, show, asked, answer, cleanup } = mount(base);
    expect(asked()).toEqual([]); // the tab is closed: nothing asked
    await acted(() => el.querySelector('[data-tab="compare"]').click());
    expect(asked().map(({ run, top }) => ({ run, top }))).toEqual([{ run: "better", top: 10 }]);
    expect(el.querySelector("[data-testid=changes-pending]").textContent).toContain("Finding the claims that changed");
    await show({ ...base }); // another view before the answer: not asked again
    expect(asked().length).toBe(1);
    answer();
    await show({ ...base, found: found("better", 10) });
    const queries = [...el.querySelectorAll("[data-testid=changes-query]")];
    expect(queries.map((q) => [...q.children].map((c) => c.textContent.trim()).join(" "))).toEqual([
      "q7 1.000 0.250 -0.750 4 changes", "q9 0.500 0.750 +0.250 no claim label changed"]);
    const said = [...el.querySelectorAll("[data-testid=changes-said]")].map((n) => n.textContent);
    expect(said).toEqual(["entailed → not entailed, by passage d3", "removed (was entailed by the ground-truth answer)"]);
    expect(el.querySelector("[data-testid=claim-changes] img")).toBeNull(); // a claim's text is text
    expect(el.querySelector("[data-testid=changes-claim]").textContent).toContain(`R1 ${HOSTILE}`); // named as the drill-down names claims
    expect(el.textContent).toContain("… and 2 more");
    await acted(() => queries[1].querySelector("button").click());
    await acted(() => el.querySelectorAll("[data-testid=changes-claim]")[1].click());
    expect(model.sent.filter((s) => "selected" in s)).toEqual([{ selected: 59 }, { selected: 57 }]);
    expect(asked().length).toBe(1);
    cleanup();
  });

  it("asks again for another run, for more queries, and once when a review left them stale", async () => {
    const base = { metric: "precision", runs: ["better", "worse"], top: 2, max_top: 50, found: null };
    const { el, show, asked, answer, cleanup } = mount(base);
    await acted(() => el.querySelector('[data-tab="compare"]').click());
    answer();
    await show({ ...base, found: found("better", 2) });
    const pick = el.querySelector("[data-testid=changes-run]");
    await acted(() => {
      pick.value = "worse";
      pick.dispatchEvent(new Event("change"));
    });
    expect(asked().map(({ run, top }) => ({ run, top }))).toEqual([{ run: "better", top: 2 }, { run: "worse", top: 2 }]);
    answer();
    await show({ ...base, found: found("worse", 2) });
    await acted(() => el.querySelector("[data-testid=changes-more]").click()); // two queries of two: more may move
    expect(asked().at(-1)).toMatchObject({ run: "worse", top: 12 });
    answer();
    await show({ ...base, found: found("worse", 12) });
    expect(el.querySelector("[data-testid=changes-more]")).toBeNull(); // fewer than asked for: no more
    await show({ ...base, found: null }); // a review: stale
    expect(asked().length).toBe(4);
    expect(asked().at(-1)).toMatchObject({ run: "worse", top: 12 });
    await show({ ...base, found: null });
    expect(asked().length).toBe(4);
    cleanup();
  });
});
