import type { TaxExportFormat } from '@offzero/shared/api/tax';
import { apiGetFile } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

/** Downloads a year's completed orders as CSV in one of the three layouts and saves the file. */
export async function downloadTaxExport(year: number, format: TaxExportFormat): Promise<void> {
  const { blob, filename } = await apiGetFile(`/tax/export?year=${year}&format=${format}`);
  saveBlob(blob, filename ?? `offzero-${format}-${year}.csv`);
}

/** Downloads the year's statement (PDF) and saves the file. */
export async function downloadTaxStatement(year: number): Promise<void> {
  const { blob, filename } = await apiGetFile(`/tax/statement?year=${year}`);
  saveBlob(blob, filename ?? `offzero-statement-${year}.pdf`);
}
