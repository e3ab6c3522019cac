import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { SxProps, Theme } from "@mui/material/styles";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import { VisuallyHidden } from "./VisuallyHidden.js";

/** One column of a resource table: its header and how a row fills its cell. */
export interface ResourceColumn<T> {
  header: string;
  /** The column shows from this breakpoint up (the row says the same elsewhere on phones). */
  from?: "sm" | "md";
  align?: "right";
  /** The cells' own style (the header shares only `from` and `align`). */
  sx?: SxProps<Theme>;
  /** A cell's style that depends on its row, instead of `sx`. */
  sxOf?: (row: T) => SxProps<Theme>;
  /** data-testid of each cell, for tests that read one value. */
  testId?: string;
  cell: (row: T) => ReactNode;
}

/** The last column: the row's buttons, under a header only screen readers read unless `showHeader`. */
export interface ResourceActionsColumn<T> {
  cell: (row: T) => ReactNode;
  /** "Ações" unless given. */
  header?: string;
  showHeader?: boolean;
  sx?: SxProps<Theme>;
}

export interface ResourceTableProps<T> {
  rows: readonly T[];
  /** `false` leaves a column out (e.g. one only admins see). */
  columns: readonly (ResourceColumn<T> | false)[];
  actions?: ResourceActionsColumn<T> | undefined;
  /** The table's accessible name. */
  label: string;
  testId: string;
  rowKey: (row: T) => string;
  rowTestId: string;
  /** data-* attributes that tell rows apart in tests (data-name, data-url…). */
  rowData?: (row: T) => Record<`data-${string}`, string>;
  rowSx?: (row: T) => SxProps<Theme> | undefined;
  hover?: boolean;
  size?: "small";
  sx?: SxProps<Theme>;
  /** Scroll sideways inside the card rather than past it (with the container's own style, if any). */
  container?: true | SxProps<Theme>;
}

const SHOWN_FROM = {
  sm: { display: { xs: "none", sm: "table-cell" } },
  md: { display: { xs: "none", md: "table-cell" } },
} as const;

/** Header and cell style of a column: hidden below its breakpoint, then its own. */
function cellSx(from: "sm" | "md" | undefined, sx?: SxProps<Theme>): SxProps<Theme> | undefined {
  if (from === undefined) return sx;
  if (sx === undefined) return SHOWN_FROM[from];
  return [SHOWN_FROM[from], ...(Array.isArray(sx) ? (sx as readonly SxProps<Theme>[]) : [sx])] as SxProps<Theme>;
}

/** A list's table: real table semantics (named table, column headers), one row per item. */
export function ResourceTable<T>({ rows, columns, actions, label, testId, rowKey, rowTestId, rowData, rowSx, hover, size, sx, container }: ResourceTableProps<T>) {
  const { t } = useTranslation();
  const shown = columns.filter((column): column is ResourceColumn<T> => column !== false);
  const actionsHeader = actions?.header ?? t("dashboard.common.actions");
  const table = (
    <Table sx={sx} aria-label={label} data-testid={testId} size={size}>
      <TableHead>
        <TableRow>
          {shown.map((column, index) => (
            <TableCell key={index} align={column.align} sx={cellSx(column.from)}>
              {column.header}
            </TableCell>
          ))}
          {actions && <TableCell align="right">{actions.showHeader ? actionsHeader : <VisuallyHidden>{actionsHeader}</VisuallyHidden>}</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={rowKey(row)} hover={hover} data-testid={rowTestId} {...rowData?.(row)} sx={rowSx?.(row)}>
            {shown.map((column, index) => (
              <TableCell key={index} align={column.align} sx={cellSx(column.from, column.sxOf?.(row) ?? column.sx)} data-testid={column.testId}>
                {column.cell(row)}
              </TableCell>
            ))}
            {actions && (
              <TableCell align="right" sx={actions.sx}>
                {actions.cell(row)}
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
  if (container === undefined) return table;
  return <TableContainer sx={container === true ? undefined : container}>{table}</TableContainer>;
}
