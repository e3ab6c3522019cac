import { z } from "zod";

/**
 * zod compiles fast validators with `new Function` when the page allows it, and probes that once,
 * on the first object validated; under Sino's CSP (script-src 'self', no 'unsafe-eval') the probe
 * is refused and reported as a CSP violation on every page. jitless skips the probe and the
 * compiler. A module of its own, imported first by the Painel's entry (DashboardApp, a lazy chunk:
 * the public pages do not load zod at all), because imports are evaluated before the importing
 * module's body and some of them validate as they load.
 */
z.config({ jitless: true });
