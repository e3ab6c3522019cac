import type { ReactNode } from "react";
import type { Resource } from "../hooks/useResource.js";
import { ListSkeleton } from "./ListSkeleton.js";
import { LoadError } from "./LoadError.js";

/**
 * The four states every dashboard list has: loading (skeleton), error (with retry), empty and ready.
 * Pages only say what "empty" looks like and how to draw the data.
 */
export function ResourceView<T>({
  resource,
  onRetry,
  isEmpty,
  empty,
  children,
}: {
  resource: Resource<T>;
  onRetry: () => void;
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (resource.status === "loading") return <ListSkeleton />;
  if (resource.status === "error") return <LoadError error={resource.error} onRetry={onRetry} />;
  return <>{isEmpty(resource.data) ? empty : children(resource.data)}</>;
}
