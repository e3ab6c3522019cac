import { useTranslation } from "react-i18next";
import TablePagination from "@mui/material/TablePagination";
import { formatNumber } from "../format.js";

export interface ResourcePaginationProps {
  count: number;
  /** From 1. */
  page: number;
  pageSize: number;
  pageSizes: number[];
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
  /** "Por página". */
  perPageLabel: string;
  /** Catalog key of "{{from}}–{{to}} de {{count}}" (numbers formatted pt-BR). */
  rangeKey: string;
  /** Names of the first/previous/next/last buttons, when the catalog has its own. */
  buttonLabel?: (type: "first" | "last" | "next" | "previous") => string;
}

/** A list's pages under its table: the page size and the range shown, in pt-BR. */
export function ResourcePagination({ count, page, pageSize, pageSizes, onPage, onPageSize, perPageLabel, rangeKey, buttonLabel }: ResourcePaginationProps) {
  const { t } = useTranslation();
  return (
    <TablePagination
      component="div"
      count={count}
      page={page - 1}
      rowsPerPage={pageSize}
      rowsPerPageOptions={pageSizes}
      onPageChange={(_event, next) => onPage(next + 1)}
      onRowsPerPageChange={(event) => onPageSize(Number(event.target.value))}
      labelRowsPerPage={perPageLabel}
      labelDisplayedRows={({ from, to, count: total }) => t(rangeKey, { from: formatNumber(from), to: formatNumber(to), count: formatNumber(total) })}
      getItemAriaLabel={buttonLabel}
    />
  );
}
