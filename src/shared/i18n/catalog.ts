/**
 * The pt-BR message catalog, one JSON file per namespace. Server, web app and service worker all
 * read it from here. Keys are semantic (`bell.enable`); plurals use i18next's `_one`/`_other`.
 */
import bell from "./pt-BR/bell.json" with { type: "json" };
import app from "./pt-BR/app.json" with { type: "json" };
import errors from "./pt-BR/errors.json" with { type: "json" };
import sw from "./pt-BR/sw.json" with { type: "json" };
import cli from "./pt-BR/cli.json" with { type: "json" };
import dashboard from "./pt-BR/dashboard.json" with { type: "json" };
import api from "./pt-BR/api.json" with { type: "json" };
import notifications from "./pt-BR/notifications.json" with { type: "json" };
import hygiene from "./pt-BR/hygiene.json" with { type: "json" };
import notices from "./pt-BR/notices.json" with { type: "json" };
import preferences from "./pt-BR/preferences.json" with { type: "json" };
import channels from "./pt-BR/channels.json" with { type: "json" };
import embed from "./pt-BR/embed.json" with { type: "json" };
import subscribers from "./pt-BR/subscribers.json" with { type: "json" };
import results from "./pt-BR/results.json" with { type: "json" };
import sites from "./pt-BR/sites.json" with { type: "json" };
import people from "./pt-BR/people.json" with { type: "json" };
import segments from "./pt-BR/segments.json" with { type: "json" };
import webhooks from "./pt-BR/webhooks.json" with { type: "json" };
import templates from "./pt-BR/templates.json" with { type: "json" };
import audit from "./pt-BR/audit.json" with { type: "json" };
import localTime from "./pt-BR/local-time.json" with { type: "json" };
import siteKeys from "./pt-BR/site-keys.json" with { type: "json" };
import subscriberImport from "./pt-BR/import.json" with { type: "json" };
import feeds from "./pt-BR/feeds.json" with { type: "json" };
import privacy from "./pt-BR/privacy.json" with { type: "json" };
import engagement from "./pt-BR/engagement.json" with { type: "json" };
import deliveryRules from "./pt-BR/delivery-rules.json" with { type: "json" };

export const LOCALE = "pt-BR";

export const ptBR = { bell, app, errors, sw, cli, dashboard, api, notifications, hygiene, notices, preferences, channels, embed, subscribers, results, sites, people, segments, webhooks, templates, audit, "local-time": localTime, "site-keys": siteKeys, "import": subscriberImport, feeds, privacy, engagement, "delivery-rules": deliveryRules } as const;

export type Namespace = keyof typeof ptBR;

export const NAMESPACES = Object.keys(ptBR) as Namespace[];
