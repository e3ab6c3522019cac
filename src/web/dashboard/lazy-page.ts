import { lazy } from "react";
import type { ComponentType, LazyExoticComponent } from "react";

/**
 * A Painel page as a chunk of its own, fetched the first time its route renders (under a Suspense
 * boundary), so an operator downloads the pages they open and not the rest (issue 22). React.lazy
 * wants a default export; the pages have named ones.
 */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: NoInfer<Name>,
): LazyExoticComponent<ComponentType> {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}
