import type { Translator } from "../server/i18n.js";
import { API_ROUTES } from "../shared/api/routes.js";
import type { Template, TemplatesResponse } from "../shared/api/templates.js";
import { callApi, type ApiIo, type ApiTarget, type Called } from "./api-call.js";

const TEMPLATE_TEXTS = { noToken: "cli:send.noToken", refused: "cli:templates.refused" } as const;

/** "canais obras, eventos", "segmento 3", "todos", with the sites when narrowed. */
function audienceText(template: Template, t: Translator["t"]): string {
  const audience = template.audience;
  if (audience === null) return t("cli:templates.audience.none");
  const base =
    audience.type === "channels"
      ? t("cli:templates.audience.channels", { count: audience.channels.length, channels: audience.channels.join(", ") })
      : audience.type === "segment"
        ? t("cli:templates.audience.segment", { segment: audience.segment })
        : t("cli:templates.audience.all");
  const sites = audience.sites ?? [];
  return sites.length === 0 ? base : t("cli:templates.audience.sites", { audience: base, count: sites.length, sites: sites.join(", ") });
}

/** `sino templates list`: one line per template — id, name, title, audience. */
export async function templatesListCommand(target: ApiTarget, io: ApiIo, translator: Translator): Promise<0 | 1 | 2> {
  const called = await callApi<TemplatesResponse>(target, io, translator, "GET", API_ROUTES.templates, undefined, TEMPLATE_TEXTS);
  if (!called.ok) return called.code;
  const { t } = translator;
  if (called.body.templates.length === 0) io.stdout(`${t("cli:templates.none")}\n`);
  for (const template of called.body.templates) io.stdout(`${template.id}\t${template.name}\t${template.title}\t${audienceText(template, t)}\n`);
  return 0;
}

/**
 * The template `sino send --template` names: by its name (any case) or, when it is a number that
 * no template is called, by id. When none matches, the reason is printed.
 */
export async function findTemplate(given: string, target: ApiTarget, io: ApiIo, translator: Translator): Promise<Called<Template>> {
  const called = await callApi<TemplatesResponse>(target, io, translator, "GET", API_ROUTES.templates, undefined, TEMPLATE_TEXTS);
  if (!called.ok) return called;
  const key = given.trim().toLocaleLowerCase("pt-BR");
  const found =
    called.body.templates.find((template) => template.name.toLocaleLowerCase("pt-BR") === key) ??
    (/^\d{1,15}$/.test(key) ? called.body.templates.find((template) => template.id === key) : undefined);
  if (found === undefined) {
    io.stderr(`${translator.t("cli:templates.notFound", { name: given })}\n`);
    return { ok: false, code: 1 };
  }
  return { ok: true, body: found };
}
