type Attributes = Readonly<Record<string, string | boolean | undefined>>;

/**
 * `h(doc, "button", { type: "button", "aria-label": "…" }, child…)`: an element with attributes
 * (true = present, false/undefined = absent) and children (strings become text, never HTML, so
 * channel names and server messages cannot inject markup).
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attributes: Attributes = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const element = doc.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) element.setAttribute(name, "");
    else if (typeof value === "string") element.setAttribute(name, value);
  }
  element.append(...children);
  return element;
}
