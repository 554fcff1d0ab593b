export { exportPosts, EXPORT_BATCH } from './export';
export {
  importPosts,
  MAX_IMPORT_ROWS,
  tooManyRows,
  type ImportIssue,
  type ImportPreview,
  type ImportResult,
  type ImportRow,
} from './import';
