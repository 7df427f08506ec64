// How close a passage comes to a claim, by the content words they share: what the evidence under a
// selected claim marks in each passage, and how it ranks the retrieved passages behind a claim no
// passage entails. Pure and bounded: every text is scanned once, at most SCAN characters of it.

/** Characters of a text scanned for words: a 10,000-character passage costs no more than this. */
export const SCAN = 4000;

// Words that carry no content of their own (English): never shared, never marked.
const STOP = new Set(`a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no
nor not now of off on once only or other our ours ourselves out over own same she should so some such than that
the their theirs them themselves then there these they this those through to too under until up very was we were
what when where which while who whom why will with would you your yours yourself yourselves`.split(/\s+/));

// A word: a number with its separators ("6,650", "3.5") as one, else letters and digits with an
// apostrophe's tail ("museum's").
const WORD = /\p{N}+(?:[.,]\p{N}+)*(?![\p{L}\p{N}])|[\p{L}\p{N}]+(?:['’]\p{L}+)*/gu;

/** A word's comparable form: lower case, no possessive, a plural's singular ("passages" → "passage",
 * "studies" → "study", "stretches" → "stretch"); "" for a stop word. */
export function stem(word) {
  let w = word.toLowerCase().replace(/['’]s$/, "");
  if (STOP.has(w)) return "";
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ch|sh|ss|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** Each content word of `text` (its first SCAN characters) with where it stands: [[stem, start, end], ...]. */
function words(text) {
  const out = [];
  for (const m of String(text).slice(0, SCAN).matchAll(WORD)) {
    const s = stem(m[0]);
    if (s) out.push([s, m.index, m.index + m[0].length]);
  }
  return out;
}

/** The distinct content words (stems) of `text`. */
export function contentWords(text) {
  return new Set(words(text).map(([s]) => s));
}

/** What `text` shares with the content words `claim` (a Set): `shared`, how many distinct ones;
 * `spans`, [start, end] of every occurrence in the scanned part (in order, for marking). */
export function overlap(claim, text) {
  const spans = [];
  const seen = new Set();
  for (const [s, a, b] of words(text)) {
    if (!claim.has(s)) continue;
    seen.add(s);
    spans.push([a, b]);
  }
  return { shared: seen.size, spans };
}

/** The `passages` ({doc_id, text, rank}) ranked by how close they come to `claimText`: the share of
 * the claim's content words each holds, most first; ties by rank (none last), then by the order
 * given. Passages sharing no word are left out. Each: {passage, shared, of, score, spans}. */
export function closest(claimText, passages) {
  const claim = contentWords(claimText);
  if (!claim.size) return [];
  const rankOf = (p) => (p.rank === null || p.rank === undefined ? Infinity : p.rank);
  return passages
    .map((p, i) => ({ p, i, ...overlap(claim, p.text) }))
    .filter((x) => x.shared > 0)
    .sort((x, y) => y.shared - x.shared || rankOf(x.p) - rankOf(y.p) || x.i - y.i)
    .map(({ p, shared, spans }) => ({ passage: p, shared, of: claim.size, score: shared / claim.size, spans }));
}

/** `text` cut into pieces to show, in order: [{text, mark}] where `mark` is true for the `spans`
 * ([start, end], in order, not overlapping), the rest between them plain. */
export function segments(text, spans) {
  const s = String(text);
  const out = [];
  let at = 0;
  for (const [a, b] of spans) {
    if (a > at) out.push({ text: s.slice(at, a), mark: false });
    out.push({ text: s.slice(a, b), mark: true });
    at = b;
  }
  if (at < s.length) out.push({ text: s.slice(at), mark: false });
  return out;
}

/** Where a shortened view of a passage starts so that its first marked word shows: a word start
 * up to `lead` characters before it, 0 when the mark is that near the beginning (or none). */
export function excerptStart(text, spans, lead = 40) {
  if (!spans.length || spans[0][0] <= lead * 2) return 0;
  const from = spans[0][0] - lead;
  const space = String(text).indexOf(" ", from);
  return space >= 0 && space < spans[0][0] ? space + 1 : spans[0][0];
}
