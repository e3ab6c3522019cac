import type { Translator } from "../i18n.js";

/**
 * The API docs page (/api/docs): the OpenAPI document rendered on the server as one plain HTML
 * page, in pt-BR. It replaces stock Swagger UI, which is English only and failed axe (issue 23,
 * item 8). No script: headings, lists and tables a screen reader walks; the colours are the
 * system's (`Canvas`, `CanvasText`, `LinkText`) under `color-scheme: light dark`, so the page
 * follows the reader's light or dark setting with the browser's own contrast.
 */

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
}

export interface OpenApiDocumentForDocs {
  info?: { title?: string; description?: string; license?: { name?: string; url?: string } };
  servers?: { url: string }[];
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json> };
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
/** Deeper schemas are summarised: the page stays readable, and the JSON document has the rest. */
const MAX_DEPTH = 6;

export function renderApiDocs(doc: OpenApiDocumentForDocs, translator: Translator, openApiPath: string): string {
  const label = (key: string, options?: Record<string, unknown>) => translator.t(`api:docs.${key}`, options);
  const schemas = doc.components?.schemas ?? {};
  const groups = new Map<string, { method: string; path: string; operation: Operation }[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const tag = operation.tags?.[0] ?? label("untagged");
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, operation }]);
    }
  }
  const tagIds = new Map([...groups.keys()].map((tag, i) => [tag, `secao-${i + 1}`]));

  const server = doc.servers?.[0]?.url;
  const license = doc.info?.license;
  const header = `<header>
<h1>${esc(label("title"))}</h1>
<p>${esc(doc.info?.description ?? "")}</p>
<dl class="facts">
${server === undefined ? "" : `<dt>${esc(label("server"))}</dt><dd><code>${esc(server)}</code></dd>`}
<dt>${esc(label("document"))}</dt><dd><a href="${esc(openApiPath)}">${esc(openApiPath)}</a> ${esc(label("documentHint"))}</dd>
${license?.name === undefined ? "" : `<dt>${esc(label("license"))}</dt><dd>${esc(license.name)}</dd>`}
</dl>
</header>`;
  const nav = `<nav aria-label="${esc(label("contents"))}"><h2>${esc(label("contents"))}</h2><ul>${[...groups.keys()]
    .map((tag) => `<li><a href="#${tagIds.get(tag)}">${esc(tag)}</a> (${groups.get(tag)!.length})</li>`)
    .join("")}</ul></nav>`;

  const sections = [...groups.entries()]
    .map(([tag, operations]) => {
      const id = tagIds.get(tag)!;
      return `<section aria-labelledby="${id}"><h2 id="${id}">${esc(tag)}</h2>${operations.map((o) => renderOperation(o, label, schemas)).join("\n")}</section>`;
    })
    .join("\n");

  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(label("title"))}</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#conteudo">${esc(label("skip"))}</a>
${header}
${nav}
<main id="conteudo">
${sections}
</main>
</body>
</html>
`;
}

type Label = (key: string, options?: Record<string, unknown>) => string;

function renderOperation(entry: { method: string; path: string; operation: Operation }, label: Label, schemas: Record<string, Json>): string {
  const { method, path, operation } = entry;
  const anchor = operation.operationId ?? `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, "-");
  const headingId = `op-${anchor}`;
  const parts: string[] = [];
  parts.push(`<h3 id="${esc(headingId)}"><span class="method">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>`);
  if (operation.summary !== undefined) parts.push(`<p class="summary">${esc(operation.summary)}</p>`);
  if (operation.description !== undefined) parts.push(`<p>${esc(operation.description)}</p>`);
  parts.push(
    `<dl class="facts"><dt>operationId</dt><dd><code>${esc(operation.operationId ?? "")}</code></dd><dt>${esc(label("auth"))}</dt><dd>${esc(securityText(operation.security, label))}</dd></dl>`,
  );

  const parameters = operation.parameters ?? [];
  if (parameters.length > 0) {
    const rows = parameters
      .map(
        (p) =>
          `<tr><th scope="row"><code>${esc(p.name)}</code></th><td>${esc(label(`in.${p.in}`))}</td><td>${esc(p.required === true ? label("yes") : label("no"))}</td><td>${esc(p.schema === undefined ? "" : typeText(p.schema, label, schemas))}${p.description === undefined && p.schema?.description === undefined ? "" : ` — ${esc(String(p.description ?? p.schema?.description))}`}</td></tr>`,
      )
      .join("");
    parts.push(
      `<h4>${esc(label("parameters"))}</h4><table><thead><tr><th scope="col">${esc(label("name"))}</th><th scope="col">${esc(label("where"))}</th><th scope="col">${esc(label("required"))}</th><th scope="col">${esc(label("typeAndDescription"))}</th></tr></thead><tbody>${rows}</tbody></table>`,
    );
  }

  for (const [media, { schema }] of Object.entries(operation.requestBody?.content ?? {})) {
    parts.push(`<h4>${esc(label("body", { media }))}</h4>`);
    if (schema !== undefined) parts.push(renderSchema(schema, label, schemas, 0, new Set()));
  }

  const responses = Object.entries(operation.responses ?? {});
  if (responses.length > 0) {
    const rows = responses
      .map(([status, response]) => {
        const media = Object.keys(response.content ?? {});
        const jsonSchema = response.content?.["application/json"]?.schema;
        const body = jsonSchema === undefined || status.startsWith("4") ? "" : `<details><summary>${esc(label("responseFields"))}</summary>${renderSchema(jsonSchema, label, schemas, 0, new Set())}</details>`;
        return `<tr><th scope="row">${esc(status)}</th><td>${esc(response.description ?? "")}</td><td>${media.length === 0 ? esc(label("noBody")) : media.map((m) => `<code>${esc(m)}</code>`).join(", ")}${body}</td></tr>`;
      })
      .join("");
    parts.push(
      `<h4>${esc(label("responses"))}</h4><table><thead><tr><th scope="col">${esc(label("status"))}</th><th scope="col">${esc(label("meaning"))}</th><th scope="col">${esc(label("content"))}</th></tr></thead><tbody>${rows}</tbody></table>`,
    );
  }
  return `<article aria-labelledby="${esc(headingId)}">${parts.join("\n")}</article>`;
}

function securityText(security: Record<string, unknown>[] | undefined, label: Label): string {
  if (security === undefined || security.length === 0) return label("public");
  const schemes = security.flatMap((s) => Object.keys(s));
  if (schemes.includes("bearer")) return label("operator");
  return label("sessionOnly");
}

function resolve(schema: Json, schemas: Record<string, Json>): { schema: Json; name?: string } {
  const ref = schema.$ref;
  if (typeof ref !== "string") return { schema };
  const name = ref.replace(/^#\/components\/schemas\//, "");
  return { schema: schemas[name] ?? {}, name };
}

function variantsOf(schema: Json): Json[] | undefined {
  const list = schema.anyOf ?? schema.oneOf;
  return Array.isArray(list) ? (list as Json[]) : undefined;
}

/** "texto, de 1 a 80 caracteres", "número inteiro, de 0 a 2419200", "lista (até 50 itens)", "um de: a, b". */
function typeText(raw: Json, label: Label, schemas: Record<string, Json>): string {
  const { schema } = resolve(raw, schemas);
  const variants = variantsOf(schema);
  if (variants !== undefined) {
    // Objects are listed below the field, one form each: "objeto ou objeto…" says nothing.
    if (variants.every((v) => resolve(v, schemas).schema.type === "object")) return label("forms", { count: variants.length });
    return variants.map((v) => typeText(v, label, schemas)).join(` ${label("or")} `);
  }
  const notes: string[] = [];
  if (Array.isArray(schema.enum) && schema.enum.length === 1) return `${label("exactly")} ${JSON.stringify(schema.enum[0])}`;
  if (Array.isArray(schema.enum)) return `${label("oneOf")} ${(schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
  if (schema.const !== undefined) return `${label("exactly")} ${JSON.stringify(schema.const)}`;
  const type = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === "string" ? [schema.type] : [];
  const names = type.map((name) => label(`types.${name}`, { defaultValue: name }));
  const range = (min: unknown, max: unknown, unit: string) => {
    if (typeof min === "number" && typeof max === "number") return label(`range.${unit}`, { min, max });
    if (typeof max === "number") return label(`max.${unit}`, { max });
    if (typeof min === "number" && min > 0) return label(`min.${unit}`, { min });
    return undefined;
  };
  notes.push(...[range(schema.minLength, schema.maxLength, "chars"), range(schema.minimum, schema.maximum, "value"), range(schema.minItems, schema.maxItems, "items")].filter((n) => n !== undefined));
  if (typeof schema.format === "string") notes.push(label("format", { format: schema.format }));
  if (typeof schema.pattern === "string") notes.push(label("pattern", { pattern: schema.pattern }));
  if (schema.default !== undefined) notes.push(label("default", { value: JSON.stringify(schema.default) }));
  if (type.includes("array") && typeof schema.items === "object" && schema.items !== null) {
    const items = schema.items as Json;
    const { schema: item } = resolve(items, schemas);
    if (item.type !== "object" && variantsOf(item) === undefined) notes.push(label("itemsOf", { type: typeText(items, label, schemas) }));
  }
  const base = names.length === 0 ? label("types.any") : names.join(` ${label("or")} `);
  return notes.length === 0 ? base : `${base} (${notes.join("; ")})`;
}

/** A schema as nested lists: each field with its type, limits, whether required, and description. */
function renderSchema(raw: Json, label: Label, schemas: Record<string, Json>, depth: number, seen: Set<string>): string {
  const { schema, name } = resolve(raw, schemas);
  if (name !== undefined) {
    if (seen.has(name)) return `<p>${esc(label("recursive", { name }))}</p>`;
    seen = new Set([...seen, name]);
  }
  if (depth > MAX_DEPTH) return `<p>${esc(label("deeper"))}</p>`;
  const variants = variantsOf(schema);
  if (variants !== undefined && variants.some((v) => resolve(v, schemas).schema.type === "object" || variantsOf(resolve(v, schemas).schema) !== undefined)) {
    return `<p>${esc(label("variants"))}</p><ol>${variants.map((v) => `<li>${renderSchema(v, label, schemas, depth + 1, seen)}</li>`).join("")}</ol>`;
  }
  if (schema.type === "array" && typeof schema.items === "object" && schema.items !== null) {
    const item = resolve(schema.items as Json, schemas).schema;
    if (item.type === "object" || variantsOf(item) !== undefined) {
      return `<p>${esc(typeText(schema, label, schemas))}, ${esc(label("eachItem"))}</p>${renderSchema(schema.items as Json, label, schemas, depth + 1, seen)}`;
    }
  }
  if (schema.type !== "object" || typeof schema.properties !== "object" || schema.properties === null) {
    const description = typeof schema.description === "string" ? ` — ${esc(schema.description)}` : "";
    return `<p>${esc(typeText(schema, label, schemas))}${description}</p>`;
  }
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const fields = Object.entries(schema.properties as Record<string, Json>).map(([field, value]) => {
    const child = resolve(value, schemas).schema;
    const description = value.description ?? child.description;
    const nested =
      child.type === "object" || variantsOf(child) !== undefined || (child.type === "array" && typeof child.items === "object" && child.items !== null && (resolve(child.items as Json, schemas).schema.type === "object" || variantsOf(resolve(child.items as Json, schemas).schema) !== undefined));
    const head = `<code>${esc(field)}</code> — ${esc(typeText(value, label, schemas))}${required.has(field) ? `, <strong>${esc(label("requiredField"))}</strong>` : ""}${typeof description === "string" ? `. ${esc(description)}` : ""}`;
    const inner = nested && variantsOf(child)?.every((v) => resolve(v, schemas).schema.type !== "object") !== true ? renderSchema(value, label, schemas, depth + 1, seen) : "";
    return `<li>${head}${inner}</li>`;
  });
  const closed = schema.additionalProperties === false ? `<p class="note">${esc(label("closed"))}</p>` : "";
  const description = typeof schema.description === "string" && depth === 0 ? `<p>${esc(schema.description)}</p>` : "";
  return `${description}<ul>${fields.join("")}</ul>${closed}`;
}

function esc(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

// System colours only: the browser keeps them readable in light and dark alike.
const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0 auto; max-width: 72rem; padding: 1rem; background: Canvas; color: CanvasText; }
a { color: LinkText; }
.skip { position: absolute; left: -10000px; }
.skip:focus { position: static; }
a:focus-visible, summary:focus-visible { outline: 3px solid; outline-offset: 2px; }
code { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
article { border-top: 1px solid; padding: 0.5rem 0 1rem; }
.method { font-family: ui-monospace, monospace; border: 2px solid; border-radius: 4px; padding: 0 0.4rem; }
.summary { font-weight: 600; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
ul, ol { padding-left: 1.25rem; }
.note { font-style: italic; }
`;
