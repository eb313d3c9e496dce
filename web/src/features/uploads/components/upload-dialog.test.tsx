import { screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { UPLOAD_MSG } from '@strongroom/contracts';
import { ApiError } from '@/lib/api-error';
import { renderWithClient } from '@/test/dom';
import { stubTransport } from '@/test/upload-transport';
import { UploadDialog } from './upload-dialog';

const file = (name: string, size = 1000, type = 'application/pdf') => new File([new Uint8Array(size)], name, { type });

function open({ existingNames }: { existingNames?: string[] } = {}) {
  const stub = stubTransport();
  const onOpenChange = vi.fn();
  const r = renderWithClient(
    <>
      <UploadDialog
        open
        onOpenChange={onOpenChange}
        organizationId="org-1"
        matterId="6f1d9f4e-8a3b-4c1e-9d2a-1b2c3d4e5f60"
        parentId={null}
        folderName="Root"
        existingNames={existingNames}
        transport={stub.net}
      />
      <Toaster />
    </>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Upload Files' });
  const row = (name: string) => within(dialog).getByRole('listitem', { name });
  const add = (...files: File[]) => r.user.upload(within(dialog).getByLabelText('Choose files to upload'), files);
  return { ...r, ...stub, dialog, row, add, onOpenChange };
}

describe('Upload Files', () => {
  it('says a file is required when Upload is pressed with none chosen, and stops saying it once one is added', async () => {
    const { user, dialog, add, putOf } = open();
    expect(within(dialog).queryByText(UPLOAD_MSG.atLeastOneFile)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('At least one file is required.');
    expect(putOf('brief.pdf')).toBeUndefined();
    await add(file('brief.pdf', 1000));
    expect(within(dialog).queryByText(UPLOAD_MSG.atLeastOneFile)).not.toBeInTheDocument();
  });

  it('queues the chosen files, refuses a wrong one with its reason, uploads the rest with progress and reports the batch', async () => {
    const { user, dialog, row, add, putOf } = open();
    await add(file('brief.pdf', 1000), file('setup.exe', 10, 'application/octet-stream'));
    expect(within(dialog).getByRole('list', { name: 'Files to upload' })).toBeInTheDocument();
    expect(within(row('setup.exe')).getByRole('alert')).toHaveTextContent(UPLOAD_MSG.invalidFileType);
    // Refused before anything was sent: 'Not allowed' with the reason, and nothing to retry.
    expect(within(row('setup.exe')).getByText('Not allowed')).toBeInTheDocument();
    expect(within(row('setup.exe')).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(within(row('brief.pdf')).getByText('Ready')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(putOf('brief.pdf')).toBeDefined());
    expect(within(row('brief.pdf')).getByText('Uploading')).toBeInTheDocument();
    expect(within(row('brief.pdf')).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    putOf('brief.pdf')!.progress(400);
    await waitFor(() =>
      expect(within(row('brief.pdf')).getByRole('progressbar', { name: 'Progress of brief.pdf' })).toHaveAttribute('aria-valuenow', '40'),
    );

    putOf('brief.pdf')!.settle('"etag"');
    expect(await within(row('brief.pdf')).findByText('Uploaded')).toBeInTheDocument();
    expect(within(row('brief.pdf')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(within(dialog).getByText(/^1 of 2 uploaded · /)).toBeInTheDocument();
    // The batch's progress counts the files that may be sent: the refused one is left out.
    expect(within(dialog).getByRole('progressbar', { name: 'Overall progress' })).toHaveAttribute('aria-valuenow', '100');
    expect(await screen.findByText(UPLOAD_MSG.someFailed)).toBeInTheDocument();

    // The refused file is removed; everything left is uploaded, so the footer says Done.
    await user.click(within(row('setup.exe')).getByRole('button', { name: 'Remove setup.exe' }));
    expect(within(dialog).queryByRole('listitem', { name: 'setup.exe' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Done' })).toBeInTheDocument();
  });

  it('uploads every file at once, says so when all succeeded, and closes by itself', async () => {
    const { user, dialog, add, putOf, net, onOpenChange } = open();
    await add(file('a.pdf'), file('b.pdf'));
    await user.click(within(dialog).getByRole('button', { name: 'Upload 2 Files' }));
    await waitFor(() => expect(putOf('a.pdf') && putOf('b.pdf')).toBeTruthy());
    putOf('b.pdf')!.settle('"b"');
    putOf('a.pdf')!.settle('"a"');
    expect(await screen.findByText(UPLOAD_MSG.allUploaded(2))).toBeInTheDocument();
    expect(net.complete).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false), { timeout: 3000 });
  });

  it('cancels a running upload (Failed, Upload aborted.) and sends it again on Retry', async () => {
    const { user, dialog, row, add, puts, putOf } = open();
    await add(file('brief.pdf'));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    await user.click(within(row('brief.pdf')).getByRole('button', { name: 'Cancel' }));
    expect(await within(row('brief.pdf')).findByRole('alert')).toHaveTextContent(UPLOAD_MSG.aborted);
    expect(puts[0]!.signal.aborted).toBe(true);

    await user.click(within(row('brief.pdf')).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(within(row('brief.pdf')).queryByRole('alert')).not.toBeInTheDocument();
    putOf('brief.pdf')!.settle('"etag"');
    expect(await within(row('brief.pdf')).findByText('Uploaded')).toBeInTheDocument();
  });

  it('asks before closing during an upload: Keep Uploading goes on, Cancel Uploads stops it and closes', async () => {
    const { user, dialog, row, add, puts, onOpenChange } = open();
    await add(file('memo.pdf'));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(puts).toHaveLength(1));

    await user.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]!);
    const confirm = await screen.findByRole('alertdialog', { name: 'Cancel uploads?' });
    expect(confirm).toHaveTextContent(UPLOAD_MSG.closeWithActive);
    await user.click(within(confirm).getByRole('button', { name: 'Keep Uploading' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(within(row('memo.pdf')).getByText('Uploading')).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalled();

    await user.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]!);
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Cancel uploads?' })).getByRole('button', { name: 'Cancel Uploads' }),
    );
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(puts[0]!.signal.aborted).toBe(true);
  });

  it('a refusal by the server shows its reason with no Retry; a dropped connection offers Retry', async () => {
    const { user, dialog, row, add, net, putOf } = open();
    const taken = 'An item named "brief.pdf" already exists in this folder.';
    net.presign.mockRejectedValueOnce(new ApiError({ status: 409, message: taken, code: 'CONFLICT' }));
    await add(file('brief.pdf'), file('memo.pdf'));
    await user.click(within(dialog).getByRole('button', { name: 'Upload 2 Files' }));
    expect(await within(row('brief.pdf')).findByRole('alert')).toHaveTextContent(taken);
    expect(within(row('brief.pdf')).getByText('Failed')).toBeInTheDocument();
    expect(within(row('brief.pdf')).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();

    await waitFor(() => expect(putOf('memo.pdf')).toBeDefined());
    putOf('memo.pdf')!.fail(new TypeError('Failed to fetch'));
    expect(await within(row('memo.pdf')).findByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it("'Cancel uploads?' goes away by itself when the uploads end while it is asked", async () => {
    const { user, dialog, row, add, putOf, onOpenChange } = open();
    await add(file('memo.pdf'));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(putOf('memo.pdf')).toBeDefined());
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]!);
    await screen.findByRole('alertdialog', { name: 'Cancel uploads?' });
    putOf('memo.pdf')!.settle('"etag"');
    await waitFor(() => expect(screen.queryByRole('alertdialog', { name: 'Cancel uploads?' })).not.toBeInTheDocument());
    expect(await within(row('memo.pdf')).findByText('Uploaded')).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
  });
});

describe('a name the folder holds already', () => {
  const choices = (row: HTMLElement) => within(row).getByRole('group', { name: /^What to do with / });

  it('asks per file (new version by default), applies a choice to all, skips, and uploads with the choice', async () => {
    const { user, dialog, row, add, net, putOf } = open({ existingNames: ['Defence.pdf', 'Reply.pdf', 'Costs.pdf'] });
    await add(file('defence.pdf'), file('Reply.pdf'), file('Costs.pdf'), file('New.pdf'));
    expect(within(row('New.pdf')).queryByRole('group')).not.toBeInTheDocument();
    const defence = choices(row('defence.pdf'));
    expect(within(defence).getByRole('radio', { name: 'Upload as a new version' })).toBeChecked();
    expect(within(defence).getByText('An item with this name is already in the folder.')).toBeInTheDocument();

    // Keep both for one file, then for all of them; then one file is skipped.
    await user.click(within(defence).getByRole('radio', { name: 'Keep both' }));
    await user.click(within(defence).getByRole('button', { name: 'Apply to all' }));
    expect(within(choices(row('Reply.pdf'))).getByRole('radio', { name: 'Keep both' })).toBeChecked();
    await user.click(within(choices(row('Costs.pdf'))).getByRole('radio', { name: 'Skip' }));
    await user.click(within(choices(row('Reply.pdf'))).getByRole('radio', { name: 'Upload as a new version' }));

    await user.click(within(dialog).getByRole('button', { name: 'Upload 4 Files' }));
    await waitFor(() => expect(putOf('Reply.pdf')).toBeDefined());
    const asked = (name: string) => net.presign.mock.calls.find(([b]) => b.fileName === name)?.[0];
    expect(asked('defence.pdf')?.onConflict).toBe('keepBoth');
    expect(asked('Reply.pdf')?.onConflict).toBe('newVersion');
    expect(asked('New.pdf')?.onConflict).toBeUndefined();
    // The skipped file leaves the list and is never sent.
    expect(asked('Costs.pdf')).toBeUndefined();
    expect(within(dialog).queryByRole('listitem', { name: 'Costs.pdf' })).not.toBeInTheDocument();
    putOf('Reply.pdf')!.settle('"etag"');
    await waitFor(() =>
      expect(net.complete.mock.calls.some(([b]) => b.fileName === 'Reply.pdf' && b.onConflict === 'newVersion')).toBe(true),
    );
  });

  it('asks when the server says the name is taken, and uploads again with the choice', async () => {
    const { user, dialog, row, add, net, putOf } = open();
    net.presign.mockRejectedValueOnce(
      new ApiError({ status: 409, message: 'An item named "memo.pdf" already exists in this folder.', details: { reason: 'NAME_TAKEN' } }),
    );
    await add(file('memo.pdf'));
    expect(within(row('memo.pdf')).queryByRole('group')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    const group = await within(row('memo.pdf')).findByRole('group', { name: 'What to do with memo.pdf' });
    expect(within(row('memo.pdf')).getByText('Ready')).toBeInTheDocument();
    await user.click(within(group).getByRole('radio', { name: 'Keep both' }));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(putOf('memo.pdf')).toBeDefined());
    expect(net.presign.mock.calls.at(-1)?.[0]).toMatchObject({ fileName: 'memo.pdf', onConflict: 'keepBoth' });
  });
});
