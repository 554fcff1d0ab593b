import type { ReactNode } from 'react';
import { PastLastPage } from './empty-state';
import { Pagination, type ListPage } from './pagination';
import { TableScroll } from './table-scroll';

/** One column: its header and what each row shows in it. */
export type Column<T> = {
  header: string;
  /** Said to screen readers only (a column of buttons needs a name, not a visible one). */
  hideHeader?: boolean;
  cell: (row: T) => ReactNode;
  /** The cells' class: `actions`, `url`, `excerpt`, `small`, `title` (a post's, wrapped anywhere). */
  className?: string;
  /** The cell that names its row (`<th scope="row">`), read out with every cell of the row. */
  rowHeader?: boolean;
};

export type DataTableProps<T> = {
  /** Names the table and its scrolling region. */
  label: string;
  /** A column left out where the viewer may not use it: `admin && { … }`. */
  columns: readonly (Column<T> | false)[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  /** A test id for each row, where tests find a row by it. */
  rowTestId?: (row: T) => string;
  /**
   * Shown instead of the table when the list has no row (nothing, where the caller says so);
   * a page past the last of a list that has rows says so instead.
   */
  empty?: ReactNode;
  /** Where the list's page stands, with the page's URL for each page number. */
  pagination?: { at: ListPage; href: (page: number) => string };
};

/**
 * Every list of the dashboard: a named table with its header cells scoped, scrolling sideways
 * on a phone (TableScroll), its empty state, and the list's pages beneath it.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const columns = props.columns.filter((column): column is Column<T> => column !== false);
  return (
    <>
      {props.rows.length === 0 ? (
        props.pagination && props.pagination.at.total > 0 ? (
          <PastLastPage pages={props.pagination.at.pages} href={props.pagination.href(1)} />
        ) : (
          props.empty
        )
      ) : (
        <TableScroll label={props.label}>
          <table aria-label={props.label}>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.header} scope="col">
                    {column.hideHeader ? (
                      <span className="sr-only">{column.header}</span>
                    ) : (
                      column.header
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row, index) => (
                <tr key={props.rowKey(row, index)} data-testid={props.rowTestId?.(row)}>
                  {columns.map((column) =>
                    column.rowHeader ? (
                      <th key={column.header} scope="row" className={column.className}>
                        {column.cell(row)}
                      </th>
                    ) : (
                      <td key={column.header} className={column.className}>
                        {column.cell(row)}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {props.pagination && <Pagination {...props.pagination} />}
    </>
  );
}
