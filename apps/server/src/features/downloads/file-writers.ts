// The writers live in platform/bulk (shared with the email finder).
export { formatCsvLine, neutraliseCell, writeCsv, writeXlsx, xlsxCellValue } from '../../platform/bulk/file-writers';
