// What a selection lights up, computed in the browser from what the view already carries (the
// port of ragwidgets/widgets/_view.py `highlights`; tests/widgets/test_explorer.py checks they
// agree). Selecting changes no metric, so the kernel rebuilds nothing for it: the front end
// draws the new roles at once and only then tells Python (the `selected` trait).

/** {item key: [role, ...]} for `selected` ("claim:R1", "gt:G1", "source:D1"; "" lights nothing).
 * A selected answer claim lights its supporting passages ("supports"), contradicting ones
 * ("contradicts") and cited sources ("cited"); a ground-truth claim its supporting and
 * contradicting passages; a source the claims it entails ("entailed"), contradicts
 * ("contradicted") and the claims that cite it ("cites"). */
export function highlights(view, selected) {
  const out = {};
  const mark = (key, role) => (out[key] ||= []).push(role);
  if (!selected) return out;
  const at = selected.indexOf(":");
  const kind = at < 0 ? selected : selected.slice(0, at);
  const ident = at < 0 ? "" : selected.slice(at + 1);
  mark(selected, "selected");
  if (kind === "claim" || kind === "gt") {
    for (const c of kind === "claim" ? view.claims : view.gt_claims) {
      if (c.id !== ident) continue;
      for (const d of c.supported_by) mark(`source:${d}`, "supports");
      for (const d of c.contradicted_by) mark(`source:${d}`, "contradicts");
      if (kind === "claim") for (const cit of c.citations || []) mark(`source:${cit.doc_id}`, "cited");
    }
  } else if (kind === "source") {
    for (const p of view.sources) {
      if (p.doc_id !== ident) continue;
      for (const r of p.entails_response) mark(`claim:${r}`, "entailed");
      for (const g of p.entails_gt) mark(`gt:${g}`, "entailed");
      for (const r of p.contradicts_response) mark(`claim:${r}`, "contradicted");
      for (const g of p.contradicts_gt) mark(`gt:${g}`, "contradicted");
    }
    for (const c of view.claims) {
      if ((c.citations || []).some((cit) => cit.doc_id === ident)) mark(`claim:${c.id}`, "cites");
    }
  }
  return out;
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** `view` with `selected` and every source's, claim's and ground-truth claim's roles for it; an
 * item whose roles do not change is the same object (its memoised row is not redrawn). A view
 * without those lists (none yet) comes back as it is. */
export function withSelection(view, selected) {
  if (!view || !view.sources || !view.claims || !view.gt_claims) return view;
  if (view.selected === selected) return view;
  const lit = highlights(view, selected);
  const relit = (items) => {
    let changed = false;
    const out = items.map((x) => {
      const roles = lit[x.key] || [];
      if (same(roles, x.roles)) return x;
      changed = true;
      return { ...x, roles };
    });
    return changed ? out : items;
  };
  return { ...view, selected, sources: relit(view.sources), claims: relit(view.claims), gt_claims: relit(view.gt_claims) };
}
