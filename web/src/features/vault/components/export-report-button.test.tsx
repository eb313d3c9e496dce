import { configure, screen, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VAULT_MSG, VAULT_REGISTER_MSG } from '@strongroom/contracts';
import { TooltipProvider } from '@/components/ui/tooltip';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { ExportReportButton } from './export-report-button';

// Six people share two cores: a screen may take longer than the default second to answer.
configure({ asyncUtilTimeout: 5_000 });

const MATTER = { id: '6f1d9f4e-8a3b-4c1e-9d2a-1b2c3d4e5f60', matterName: 'Estate of A. Vale', matterNumber: 'MAT-2026-007' };
const CERTIFICATE = '{"payload":{"kind":"vault-certificate"},"signature":"c2ln"}';
const PDF = '%PDF-1.3\n%\u00ff\n';

let calls: FetchCall[];
let saved: { name: string; blob: Blob }[];
let certificateAnswer: () => Response;

beforeEach(() => {
  certificateAnswer = () =>
    new Response(CERTIFICATE, {
      headers: {
        'content-type': 'application/json',
        'content-disposition': 'attachment; filename="strongroom_vault_certificate_MAT-2026-007.json"',
      },
    });
  calls = stubFetch(({ path, url }) => {
    if (path === '/_api/vault/report' && url.searchParams.get('format') === 'pdf')
      return new Response(PDF, {
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': 'attachment; filename="strongroom_vault_report_MAT-2026-007.pdf"',
        },
      });
    if (path === '/_api/vault/report')
      return new Response('<!doctype html><title>Report</title>', { headers: { 'content-type': 'text/html' } });
    if (path === '/_api/vault/certificate') return certificateAnswer();
    if (path === '/_api/vault/register' && url.searchParams.get('format') === 'html')
      return new Response('<!doctype html><title>Vault register</title>', {
        headers: { 'content-type': 'text/html', 'content-disposition': 'attachment; filename="strongroom_vault_register_x.html"' },
      });
    if (path === '/_api/vault/register')
      return new Response('\uFEFFMatter,Matter number\r\n', {
        headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="strongroom_vault_register_x.csv"' },
      });
    return Response.json({ error: 'not here' }, { status: 404 });
  });
  // What the browser would save: the object URL's blob under the anchor's download name.
  saved = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:strongroom/${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href)! });
  });
});
afterEach(() => vi.restoreAllMocks());

function render(matter: Parameters<typeof ExportReportButton>[0]['matter'], register = false) {
  return renderWithClient(
    <TooltipProvider delayDuration={0}>
      <ExportReportButton matter={matter} register={register} />
      <Toaster />
    </TooltipProvider>,
  );
}

describe('Export Report', { timeout: 20_000 }, () => {
  it('on the page, offers the register of every vaulted matter with no matter selected, and saves it', async () => {
    const { user } = render(null, true);
    await user.click(screen.getByRole('button', { name: 'Export Report' }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual([
      VAULT_REGISTER_MSG.csvItem,
      VAULT_REGISTER_MSG.htmlItem,
    ]);
    await user.click(screen.getByRole('menuitem', { name: VAULT_REGISTER_MSG.csvItem }));
    expect(await screen.findByText('Downloaded strongroom_vault_register_x.csv')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export Report' }));
    await user.click(await screen.findByRole('menuitem', { name: VAULT_REGISTER_MSG.htmlItem }));
    expect(await screen.findByText('Downloaded strongroom_vault_register_x.html')).toBeInTheDocument();
    expect(saved.map((f) => f.name)).toEqual(['strongroom_vault_register_x.csv', 'strongroom_vault_register_x.html']);
    expect(calls.map((c) => `${c.path}?${c.url.searchParams}`)).toEqual([
      '/_api/vault/register?format=csv',
      '/_api/vault/register?format=html',
    ]);
  });

  it("on the page, adds the selected matter's report once its files are in the vault", async () => {
    const { user } = render({ ...MATTER, transferState: 'completed' }, true);
    await user.click(screen.getByRole('button', { name: 'Export Report' }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual([
      VAULT_REGISTER_MSG.csvItem,
      VAULT_REGISTER_MSG.htmlItem,
      'Chain-of-custody report (HTML)',
      'Chain-of-custody report (PDF)',
      'Signed certificate (JSON)',
    ]);
  });

  it('is disabled and says why when no matter is selected, or its files are still on their way', async () => {
    const { user, unmount } = render(null);
    expect(screen.getByRole('button', { name: 'Export Report' })).toBeDisabled();
    await user.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Select a vaulted matter to export its report.');
    unmount();
    const second = render({ ...MATTER, transferState: 'transferring' });
    expect(screen.getByRole('button', { name: 'Export Report' })).toBeDisabled();
    await second.user.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(VAULT_MSG.certificateNotReady);
  });

  it('offers the report as HTML and PDF and the signed certificate', async () => {
    const { user } = render({ ...MATTER, transferState: 'completed' });
    await user.click(screen.getByRole('button', { name: 'Export Report' }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual([
      'Chain-of-custody report (HTML)',
      'Chain-of-custody report (PDF)',
      'Signed certificate (JSON)',
    ]);
  });

  it('saves the report and the certificate byte for byte, under the names the server gives or its own', async () => {
    const { user } = render({ ...MATTER, transferState: 'completed' });
    await user.click(screen.getByRole('button', { name: 'Export Report' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Chain-of-custody report (HTML)' }));
    expect(await screen.findByText('Downloaded strongroom_vault_report_MAT-2026-007.html')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export Report' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Signed certificate (JSON)' }));
    expect(await screen.findByText('Downloaded strongroom_vault_certificate_MAT-2026-007.json')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export Report' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Chain-of-custody report (PDF)' }));
    expect(await screen.findByText('Downloaded strongroom_vault_report_MAT-2026-007.pdf')).toBeInTheDocument();

    expect(saved.map((s) => s.name)).toEqual([
      'strongroom_vault_report_MAT-2026-007.html',
      'strongroom_vault_certificate_MAT-2026-007.json',
      'strongroom_vault_report_MAT-2026-007.pdf',
    ]);
    expect(await saved[1]!.blob.text()).toBe(CERTIFICATE);
    expect(saved[2]!.blob.type).toBe('application/pdf');
    expect(calls.map((c) => `${c.path}?${c.url.searchParams}`)).toEqual([
      `/_api/vault/report?matterId=${MATTER.id}`,
      `/_api/vault/certificate?matterId=${MATTER.id}`,
      `/_api/vault/report?matterId=${MATTER.id}&format=pdf`,
    ]);
  });

  it('says why a download failed, with the server’s text', async () => {
    certificateAnswer = () => Response.json({ error: VAULT_MSG.certificateNotReady, code: 'CONFLICT' }, { status: 409 });
    const { user } = render({ ...MATTER, transferState: 'completed' });
    await user.click(screen.getByRole('button', { name: 'Export Report' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Signed certificate (JSON)' }));
    const toast = await screen.findByText(VAULT_MSG.certificateNotReady);
    expect(within(toast.closest('li')!).queryByText(/Downloaded/)).not.toBeInTheDocument();
    expect(saved).toHaveLength(0);
  });
});
