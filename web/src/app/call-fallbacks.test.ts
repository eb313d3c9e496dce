import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginWithPassword } from '@/features/auth/api/login-with-password';
import { getClientSuggestions } from '@/features/matters/api/get-client-suggestions';
import { getLawyerSuggestions } from '@/features/matters/api/get-lawyer-suggestions';
import { getMatters } from '@/features/matters/api/get-matters';
import { getMatterDetail } from '@/features/matters/api/get-matter-detail';
import { createMatter } from '@/features/matters/api/create-matter';
import { updateMatter } from '@/features/matters/api/update-matter';
import { createFolder } from '@/features/nodes/api/create-folder';
import { deleteNode } from '@/features/nodes/api/delete-node';
import { moveNode } from '@/features/nodes/api/move-node';
import { renameNode } from '@/features/nodes/api/rename-node';
import { getPresignedUrl } from '@/features/uploads/api/get-presigned-url';
import { multipartAbort } from '@/features/uploads/api/multipart-abort';
import { multipartComplete } from '@/features/uploads/api/multipart-complete';
import { multipartInit } from '@/features/uploads/api/multipart-init';

const id = '6f1d9f4e-8a3b-4c1e-9d2a-1b2c3d4e5f60';
const file = { fileName: 'a.pdf', fileType: 'application/pdf', matterId: id, parentId: null };

/** Each call and the text a user sees when it fails without a message of the server's own. */
const calls: [string, () => Promise<unknown>][] = [
  ['Login failed. Please try again.', () => loginWithPassword({ email: 'a@b.co', password: 'x' })],
  ['Failed to fetch matters list', () => getMatters({ sortBy: 'created_at', sortDirection: 'desc', page: 1, pageSize: 50 })],
  ['Failed to fetch matter details', () => getMatterDetail(id)],
  ['Failed to create matter', () => createMatter({ matterName: 'M', clientName: 'C', responsibleAttorney: 'L' })],
  ['Failed to update matter', () => updateMatter({ matterId: id, expectedVersion: 1, matterName: 'M' })],
  ['Failed to fetch client suggestions', () => getClientSuggestions('ac')],
  ['Failed to fetch lawyer suggestions', () => getLawyerSuggestions('ja')],
  ['Failed to create folder.', () => createFolder({ matterId: id, parentId: null, folderName: 'F' })],
  ['Failed to rename item.', () => renameNode({ nodeId: id, newName: 'G' })],
  ['Failed to move item.', () => moveNode({ nodeId: id, newParentId: null })],
  ['Failed to delete item.', () => deleteNode({ nodeId: id })],
  ['Failed to get presigned URL.', () => getPresignedUrl({ ...file, fileSize: 10 })],
  ['Failed to initialize multipart upload.', () => multipartInit({ ...file, fileSize: 200 * 1024 * 1024 })],
  ['Failed to complete upload.', () => multipartComplete({ ...file, s3Key: 'k', fileSize: 10 })],
  ['Failed to abort upload.', () => multipartAbort({ s3Key: 'k', uploadId: 'u' })],
];

afterEach(() => vi.unstubAllGlobals());

describe('failure texts of the calls', () => {
  it.each(calls)('shows %s when the answer carries no error text', async (text, call) => {
    // A proxy's error page or an empty 500: nothing of the server's own to show.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad Gateway</html>', { status: 502 })),
    );
    await expect(call()).rejects.toMatchObject({ status: 502, message: text });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 500 })),
    );
    await expect(call()).rejects.toMatchObject({ status: 500, message: text });
  });

  it.each(calls)("shows the server's own text over %s", async (_text, call) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ error: 'The matter is under legal hold.', code: 'CONFLICT_ERROR' }, { status: 409 })),
    );
    await expect(call()).rejects.toMatchObject({ status: 409, message: 'The matter is under legal hold.' });
  });
});
