// Lint: TypeScript strict rules plus the one-way import layering of STYLE.md:
// shared ← push ← store ← delivery ← server ← cli; in the browser, shared ← client ← embed and
// shared ← client ← packages/react ← web (client is the framework-free browser core they all
// build on, imported through its public entry only).
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

const layers = ["shared", "push", "store", "delivery", "server", "cli"];

/** For the layer at `index`, forbid imports of every layer above it and of the web app. */
function layerRule(index) {
  const above = [...layers.slice(index + 1), "web", "client", "embed"];
  return {
    files: [`src/${layers[index]}/**/*.ts`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: above.map((layer) => ({
            group: [`**/${layer}/*`, `**/${layer}/**`],
            message: `src/${layers[index]} must not import from src/${layer} (imports run one way).`,
          })),
        },
      ],
    },
  };
}

/**
 * src/client is imported through its public entries only: `index.ts`, and `worker.ts` in a service
 * worker. Its folders are its own business (issue 22: Sino's pages had reached into them 17 times).
 */
const CLIENT_ENTRY_ONLY = {
  group: ["**/client/*", "**/client/**", "!**/client/index.js", "!**/client/worker.js"],
  message: "Import src/client through its public entry (client/index.js; client/worker.js in a service worker).",
};

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "data/**", "coverage/**", "packages/**/dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["src/**/*.ts", "src/**/*.tsx", "test/**/*.ts", "bench/**/*.ts", "packages/*/**/*.ts", "packages/*/**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  ...layers.map((_, i) => layerRule(i)),
  {
    files: ["src/web/**/*.ts", "src/web/**/*.tsx"],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "no-restricted-imports": ["error", { patterns: [...browserLayerPatterns("src/web", ["embed"]), CLIENT_ENTRY_ONLY] }],
    },
  },
  {
    files: ["src/client/**/*.ts"],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
    rules: {
      "no-restricted-imports": ["error", { patterns: browserLayerPatterns("src/client", ["web", "embed"]) }],
    },
  },
  {
    // No React, no MUI, no i18next in the script-tag path: it has a byte budget (issue 9).
    files: ["src/embed/**/*.ts"],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...browserLayerPatterns("src/embed", ["web"]),
            CLIENT_ENTRY_ONLY,
            { group: ["react", "react-*", "@mui/*", "@emotion/*", "i18next", "zod"], message: "src/embed stays framework-free and small." },
          ],
        },
      ],
    },
  },
  {
    // The React package runs in the host's page and builds on the framework-free client core: it
    // imports src/client's public entry (which re-exports what it needs of src/shared, the bell's
    // texts included), nothing of the server side, Sino's web app or the script-tag embed.
    files: ["packages/react/src/**/*.ts", "packages/react/src/**/*.tsx", "packages/react/test-app/**/*.ts", "packages/react/test-app/**/*.tsx"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...[...layers, "web", "embed"].map((layer) => ({
              group: [`**/src/${layer}/*`, `**/src/${layer}/**`],
              message: "packages/react imports only src/client, through its public entry.",
            })),
            CLIENT_ENTRY_ONLY,
          ],
        },
      ],
    },
  },
);

/** The browser code imports src/shared and src/client, never the server layers nor `others`. */
function browserLayerPatterns(name, others) {
  return [...layers.filter((l) => l !== "shared"), ...others].map((layer) => ({
    group: [`**/${layer}/*`, `**/${layer}/**`],
    message: `${name} imports only from src/shared and src/client.`,
  }));
}
