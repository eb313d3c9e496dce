import Papa from 'papaparse';
import { PREVIEW_MSG } from '@strongroom/contracts';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { CSV_PREVIEW_ROWS } from '../lib/limits';
import { PreviewLoading } from './preview-loading';
import { useAsyncValue } from './use-async-value';
import type { ViewerProps } from './viewer-props';

type Sheet = { header: string[]; rows: string[][]; cut: boolean };

/** The header row and the first rows after it (the delimiter is detected: commas, semicolons, tabs). */
async function parse(blob: Blob): Promise<Sheet> {
  const text = await blob.text();
  const parsed = Papa.parse<string[]>(text, { preview: CSV_PREVIEW_ROWS + 2, skipEmptyLines: true });
  const [header = [], ...rest] = parsed.data;
  return { header, rows: rest.slice(0, CSV_PREVIEW_ROWS), cut: rest.length > CSV_PREVIEW_ROWS };
}

/** A CSV file as a table: its first row as the header, then up to 500 rows, with a note when there are more. */
export default function CsvViewer({ preview, onError }: ViewerProps) {
  const sheet = useAsyncValue(preview.blob, parse, onError);
  if (!sheet) return <PreviewLoading />;
  const width = Math.max(sheet.header.length, ...sheet.rows.map((r) => r.length));
  const cells = (row: string[]) => Array.from({ length: width }, (_, i) => row[i] ?? '');
  return (
    <div className="grid gap-2">
      {sheet.cut ? <p className="text-sm text-muted-foreground">{PREVIEW_MSG.rowsCut(CSV_PREVIEW_ROWS)}</p> : null}
      <Table aria-label={`Rows of ${preview.fileName}`} containerClassName="max-h-[70vh]">
        <TableHeader>
          <TableRow>
            {cells(sheet.header).map((h, i) => (
              <TableHead key={i} className="whitespace-nowrap">
                {h}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {sheet.rows.map((row, r) => (
            <TableRow key={r}>
              {cells(row).map((c, i) => (
                <TableCell key={i} className="align-top text-xs">
                  {c}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
