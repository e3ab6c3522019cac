/**
 * The pt-BR message catalog, one JSON file per namespace. Server, web app and service worker all
 * read it from here. Keys are semantic (`bell.enable`); plurals use i18next's `_one`/`_other`.
 */
import bell from "./pt-BR/bell.json" with { type: "json" };
import app from "./pt-BR/app.json" with { type: "json" };
import errors from "./pt-BR/errors.json" with { type: "json" };
import sw from "./pt-BR/sw.json" with { type: "json" };
import cli from "./pt-BR/cli.json" with { type: "json" };
import painel from "./pt-BR/painel.json" with { type: "json" };
import api from "./pt-BR/api.json" with { type: "json" };
import envios from "./pt-BR/envios.json" with { type: "json" };
import hygiene from "./pt-BR/hygiene.json" with { type: "json" };
import avisos from "./pt-BR/avisos.json" with { type: "json" };
import preferencias from "./pt-BR/preferencias.json" with { type: "json" };
import canais from "./pt-BR/canais.json" with { type: "json" };
import embed from "./pt-BR/embed.json" with { type: "json" };
import assinantes from "./pt-BR/assinantes.json" with { type: "json" };
import resultados from "./pt-BR/resultados.json" with { type: "json" };

export const LOCALE = "pt-BR";

export const ptBR = { api, app, assinantes, avisos, bell, canais, cli, embed, envios, errors, hygiene, painel, preferencias, resultados, sw } as const;

export type Namespace = keyof typeof ptBR;

export const NAMESPACES = Object.keys(ptBR) as Namespace[];
