// The evidence under a selected claim: the ranking by shared content words and the marking
// (js/src/evidence.js), and how the sample view draws them (js/src/tables.js Evidence).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { SCAN, closest, contentWords, excerptStart, overlap, segments, stem } from "./src/evidence.js";
import { mountSampleView } from "./src/sample_view.js";

const fixture = (name) => JSON.parse(readFileSync(join(process.cwd(), "fixtures", `${name}.json`), "utf8"));
const text = (node) => node.textContent.replace(/\s+/g, " ").trim();
const tick = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => document.body.replaceChildren());

describe("content words and overlap", () => {
  it("drops stop words, folds case, possessives and plurals", () => {
    expect([...contentWords("The Museum's passages opened on Tuesdays, and the studies are THERE.")])
      .toEqual(["museum", "passage", "opened", "tuesday", "study"]);
    expect(stem("the")).toBe("");
    expect(stem("class")).toBe("class"); // -ss, -us, -is keep their s
    expect(stem("bus")).toBe("bus");
    expect(stem("stretches")).toBe("stretch");
    expect(stem("boxes")).toBe("box");
  });

  it("reads a number with its separators as one word", () => {
    expect([...contentWords("The Nile stretches approximately 6,650 kilometers (4,130.5 miles); COVID19 in 2024.")])
      .toEqual(["nile", "stretch", "approximately", "6,650", "kilometer", "4,130.5", "mile", "covid19", "2024"]);
  });

  it("counts each shared word once and marks every occurrence, by hand", () => {
    const claim = contentWords("The harbor museum opens on Tuesday");
    const passage = "Museum hours: the museum opens at ten. The harbour is closed.";
    const { shared, spans } = overlap(claim, passage);
    expect(shared).toBe(2); // museum, opens ("harbour" is not "harbor")
    expect(spans.map(([a, b]) => passage.slice(a, b))).toEqual(["Museum", "museum", "opens"]);
  });

  it("segments cover the text exactly, marks where the spans are", () => {
    const s = "abc def ghi";
    expect(segments(s, [[4, 7]])).toEqual([{ text: "abc ", mark: false }, { text: "def", mark: true }, { text: " ghi", mark: false }]);
    expect(segments(s, [[0, 3], [8, 11]]).map((x) => x.text).join("")).toBe(s);
    expect(segments(s, [])).toEqual([{ text: s, mark: false }]);
  });

  it("an excerpt starts at a word a little before the first mark, or at 0 when the mark is near", () => {
    const s = `${"filler ".repeat(40)}museum opens`;
    const at = s.indexOf("museum");
    const start = excerptStart(s, [[at, at + 6]]);
    expect(start).toBeGreaterThan(at - 48);
    expect(start).toBeLessThan(at);
    expect(s[start - 1]).toBe(" ");
    expect(excerptStart(s, [[10, 16]])).toBe(0);
    expect(excerptStart(s, [])).toBe(0);
  });
});

describe("ranking the closest passages", () => {
  const claim = "The museum opens on Tuesday at ten";
  it("orders by shared words, ties by rank then by the order given, and leaves out passages sharing none", () => {
    const passages = [
      { doc_id: "a", rank: 3, text: "The museum is large." }, // 1 word
      { doc_id: "b", rank: 2, text: "Opens Tuesday." }, // 2 words
      { doc_id: "c", rank: null, text: "museum tuesday" }, // 2 words, no rank
      { doc_id: "d", rank: 1, text: "Nothing here at all." }, // 0
      { doc_id: "e", rank: 2, text: "the museum opens" }, // 2 words, rank 2, after b
      { doc_id: "f", rank: null, text: "ten opens" }, // 2 words, no rank, after c
    ];
    const ranked = closest(claim, passages);
    expect(ranked.map((x) => x.passage.doc_id)).toEqual(["b", "e", "c", "f", "a"]);
    expect(ranked[0]).toMatchObject({ shared: 2, of: 4, score: 0.5 }); // museum, opens, tuesday, ten
    // the same input in another order ranks ties by that order: stable, nothing random
    const again = closest(claim, [...passages].reverse());
    expect(again.map((x) => x.passage.doc_id)).toEqual(["e", "b", "f", "c", "a"]);
  });

  it("no passage, or a claim of stop words only, ranks nothing", () => {
    expect(closest(claim, [])).toEqual([]);
    expect(closest("it is what it is", [{ doc_id: "a", rank: 1, text: "it is" }])).toEqual([]);
  });

  it("scans at most SCAN characters of a long passage, in time linear in that", () => {
    const long = `${"filler ".repeat(SCAN)}museum`; // the shared word lies past the scanned part
    expect(long.length).toBeGreaterThan(SCAN * 7);
    expect(closest(claim, [{ doc_id: "a", rank: 1, text: long }])).toEqual([]);
    const token = "x".repeat(1_000_000);
    const t0 = performance.now();
    const ranked = closest(claim, Array.from({ length: 200 }, (_, k) => ({ doc_id: `p${k}`, rank: k, text: `museum ${token}` })));
    expect(performance.now() - t0).toBeLessThan(1000); // 200 x 1M characters: only 200 x SCAN read
    expect(ranked.length).toBe(200);
    expect(ranked[0].spans).toEqual([[0, 6]]);
  });
});

/** The RAGChecker sample with claim R1 selected and unsupported, its passages' texts as given. */
function unsupported(texts, extra = {}) {
  const view = fixture("ragchecker_sample");
  const sources = texts.map((t, k) => ({ ...view.sources[0], key: `source:P${k}`, doc_id: `P${k}`, rank: k + 1, text: t, roles: [] }));
  const claims = view.claims.map((c, i) => (i === 0
    ? { ...c, text: "The museum opens on Tuesday at ten", supported_by: [], contradicted_by: [], faithful: false, ...extra }
    : { ...c, supported_by: [], contradicted_by: [] }));
  const el = document.createElement("div");
  document.body.appendChild(el);
  mountSampleView(el, { view: { ...view, sources, claims, selected: "claim:R1" }, send: () => {} });
  return el.querySelector('[data-evidence="claim:R1"]');
}

describe("the evidence under an unsupported claim", () => {
  it("lists the closest retrieved passages, the top 3 until 'show all', each with its shared words marked", async () => {
    const ev = unsupported([
      "Admission is four credits.", // none
      "The museum is by the harbor.", // 1
      "It opens on Tuesday at ten.", // 3
      "Museum opens Tuesday.", // 3, later rank
      "Tuesday is market day.", // 1
      "Ten benches.", // 1
    ]);
    expect(text(ev.querySelector(".rw-evidence-head"))).toBe("Passages behind R1: no retrieved passage entails or contradicts it");
    const docs = () => [...ev.querySelectorAll('[data-testid="closest"] .rw-evidence-item')].map((li) => li.dataset.doc);
    expect(docs()).toEqual(["P2", "P3", "P1"]);
    const first = ev.querySelector('[data-testid="closest"] .rw-evidence-item');
    expect(text(first.querySelector(".rw-ev-how"))).toBe("≈ 3 of 4 words");
    expect([...first.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["opens", "Tuesday", "ten"]);
    expect(text(first.querySelector('[data-testid="evidence-text"]'))).toBe("It opens on Tuesday at ten.");
    const all = ev.querySelector('[data-testid="closest-all"]');
    expect(text(all)).toBe("show all 5");
    all.click();
    await tick();
    expect(docs()).toEqual(["P2", "P3", "P1", "P4", "P5"]);
  });

  it("shows a passage's HTML as text: no element made from it", () => {
    const hostile = '<img src=x onerror="window.pwned=1"><b>museum</b> opens <script>alert(1)</script>';
    const ev = unsupported([hostile]);
    const box = ev.querySelector('[data-testid="evidence-text"]');
    expect(box.textContent).toBe(hostile);
    expect(box.querySelector("img, b, script")).toBeNull();
    expect([...box.children].every((c) => c.tagName === "MARK")).toBe(true);
    expect(window.pwned).toBeUndefined();
  });

  it("a long passage shows near its first shared word, bounded, with 'more'", async () => {
    const long = `${"filler ".repeat(300)}the museum opens here ${"tail ".repeat(3000)}`;
    const ev = unsupported([long]);
    const box = ev.querySelector('[data-testid="evidence-text"]');
    expect(box.textContent.startsWith("…")).toBe(true);
    expect(box.textContent.length).toBeLessThan(700);
    expect(box.querySelector("mark").textContent).toBe("museum");
    await tick();
    const more = ev.querySelector(".rw-evidence-item button.rw-whole");
    expect(more.hidden).toBe(false);
    more.click();
    await tick();
    expect(ev.querySelector('[data-testid="evidence-text"]').textContent).toBe(long);
  });

  it("says so clearly when there is no retrieved passage, or none shares a word", () => {
    expect(text(unsupported([]).querySelector(".rw-evidence-head"))).toBe("Passages behind R1: none (no passage is retrieved for this sample)");
    const ev = unsupported(["Admission is four credits."]);
    expect(text(ev.querySelector(".rw-evidence-head")))
      .toBe("Passages behind R1: no retrieved passage entails or contradicts it, or shares a content word with it");
    expect(ev.querySelector('[data-testid="closest"]')).toBeNull();
  });

  it("a contradicted claim lists its contradicting passage first, then the closest others", () => {
    const ev = unsupported(["The museum closes on Tuesday.", "Museum opens at ten."], { contradicted_by: ["P0"] });
    expect(text(ev.querySelector(".rw-evidence-head"))).toBe("Passages behind R1 (0 entail it, 1 contradicts it)");
    const contra = ev.querySelector(".rw-ev-contradicts");
    expect(contra.dataset.doc).toBe("P0");
    expect([...contra.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["museum", "Tuesday"]);
    expect(text(ev.querySelector('[data-testid="closest-head"]'))).toContain("No passage entails it.");
    expect([...ev.querySelectorAll('[data-testid="closest"] .rw-evidence-item')].map((li) => li.dataset.doc)).toEqual(["P1"]);
  });
});

describe("the evidence under a claim that cites a source", () => {
  it("lists a cited source that does not entail it, with why its citation is invalid", () => {
    const view = fixture("harbor_selected");
    const el = document.createElement("div");
    document.body.appendChild(el);
    mountSampleView(el, { view: { ...view, selected: "claim:R3" }, send: () => {} });
    const item = el.querySelector('[data-evidence="claim:R3"] .rw-ev-cited');
    expect(item.dataset.doc).toBe("D3");
    expect(text(item.querySelector(".rw-ev-how"))).toBe("cited, does not entail");
    expect(text(item.querySelector(".rw-ev-why"))).toBe("citation invalid: D3 was not retrieved");
  });
});
