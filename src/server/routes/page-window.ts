/** The rows of page `page` (counted from 1) of `pageSize` rows, as the repositories take them. */
export function pageWindow(page: number, pageSize: number): { offset: number; limit: number } {
  return { offset: (page - 1) * pageSize, limit: pageSize };
}
