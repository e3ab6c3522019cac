import type { ReactNode } from "react";
import Card from "@mui/material/Card";
import Typography from "@mui/material/Typography";
import type { Resource } from "../hooks/useResource.js";
import { PageHeading } from "./PageHeading.js";
import { ResourceView } from "./ResourceView.js";

export interface ResourceListPageProps<T> {
  title: string;
  subtitle?: string;
  /** The page's main action (create, export), beside the heading. */
  action?: ReactNode;
  /** One line under the heading, e.g. why a publisher sees no buttons. */
  note?: string | undefined;
  /** What sits between the heading and the list: a summary, filters outside the card. */
  above?: ReactNode;
  /** Filters at the top of the list's card, above the rows. */
  filters?: ReactNode;
  /** What useResource gives: the data's state, and how to ask again after an error. */
  list: { resource: Resource<T>; reload: () => void };
  /** Empty when the data is an empty array unless told otherwise; a list that is never empty (the sites: Sino's own is always there) leaves `empty` out. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

const isEmptyArray = (data: unknown) => Array.isArray(data) && data.length === 0;

/**
 * A Painel list page: the heading with its action, then the list in a card in its four states
 * (loading, error with retry, empty, rows). Dialogs and the notice follow it in the page.
 */
export function ResourceListPage<T>({ title, subtitle, action, note, above, filters, list, isEmpty = isEmptyArray, empty = null, children }: ResourceListPageProps<T>) {
  return (
    <>
      <PageHeading title={title} subtitle={subtitle} action={action} />
      {note !== undefined && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {note}
        </Typography>
      )}
      {above}
      <Card variant="outlined">
        {filters}
        <ResourceView resource={list.resource} onRetry={list.reload} isEmpty={isEmpty} empty={empty}>
          {children}
        </ResourceView>
      </Card>
    </>
  );
}
