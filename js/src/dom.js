// Building DOM from data. Every string from a sample goes in through textContent (or an
// attribute value), never as markup: retrieved passages are untrusted web text.

/**
 * h("td", {class: "x", title: "..."}, child, ...): children are nodes, strings (as text), or
 * arrays of them; null/undefined/false are skipped. "on*" keys attach listeners.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "class") {
      el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    } else if (key === "value" || key === "checked" || key === "disabled") {
      el[key] = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** A yes/no/unknown cell that reads without colour: a symbol and a word. */
export function yesNo(value, words = ["Yes", "No"]) {
  if (value === null || value === undefined) return h("span", { class: "rw-unknown" }, "? unknown");
  const yes = value === true || value === "yes";
  return h("span", { class: yes ? "rw-yes" : "rw-no" }, yes ? `✓ ${words[0]}` : `✗ ${words[1]}`);
}

export function list(items, empty = "—") {
  return items && items.length ? items.join(", ") : empty;
}
