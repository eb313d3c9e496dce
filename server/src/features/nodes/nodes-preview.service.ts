/**
 * A file's preview link: a short-lived signed URL that answers the bytes inline, for the page to show them, with
 * the viewer the page should use.
 */
import type { PreviewKind, PreviewUrlResponse } from '@strongroom/contracts';
import { NODE_MSG, PREVIEW_MSG, previewKindOf } from '@strongroom/contracts';
import { MAX_PRESIGN_SECONDS, safeContentType } from '../../platform/storage/blob-store.js';
import { requireReadPermission } from '../../shared/access.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, notFound } from '../../shared/errors.js';
import { getVisibleMatter } from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import { guestGrantAccess } from '../team/index.js';
import { findNode } from './nodes.repository.js';
import { fileReadDetails, storedObjectOf } from './nodes.service.js';

/** As download links: 5 minutes on the local store (dead at once with its file), 60 seconds on S3 (not revocable). */
const PREVIEW_URL_SECONDS = Math.min(5 * 60, MAX_PRESIGN_SECONDS);
const S3_PREVIEW_URL_SECONDS = 60;

const PLAIN_TEXT = 'text/plain; charset=utf-8';

/**
 * The Content-Type a preview is answered with: text and CSV always as plain UTF-8 text, so that no stored type
 * (text/html, image/svg+xml) makes a browser treat the bytes as a page; a file we do not preview as bare bytes.
 */
function previewContentType(kind: PreviewKind, stored: string | null): string {
  switch (kind) {
    case 'text':
    case 'csv':
      return PLAIN_TEXT;
    case 'pdf':
      return 'application/pdf';
    case 'email':
      return 'message/rfc822';
    case 'word':
      return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    case 'image': {
      const type = safeContentType(stored ?? undefined);
      return /^image\/(png|jpeg|gif|webp|bmp|avif)$/i.test(type) ? type : 'application/octet-stream';
    }
    case 'none':
      return 'application/octet-stream';
  }
}

/**
 * Who may preview: whoever may download the file (canRetrieve; in a vaulted matter canViewVaulted too), and a
 * guest whose grant on the matter is 'view' as well as 'download': a view grant reads in the page without a
 * download. Another organization's file, or a matter not shared with the guest, answers 404. Audited as PREVIEW_FILE.
 */
export async function previewUrl(
  ctx: AppContext,
  auth: AuthContext,
  nodeId: string,
  meta: RequestMeta,
  versionNumber?: number,
): Promise<PreviewUrlResponse> {
  const { user } = auth;
  if (user.role !== 'guest') requireReadPermission(user, 'canRetrieve');
  const node = await findNode(ctx.db, user.organizationId, nodeId);
  if (!node) throw notFound(NODE_MSG.itemNotFound);
  if (user.role === 'guest' && (await guestGrantAccess(ctx.db, user.organizationId, node.matterId, user.id)) === null) {
    throw notFound(NODE_MSG.itemNotFound);
  }
  const matter = await getVisibleMatter(ctx.db, user, node.matterId);
  if (node.nodeType !== 'file' || !node.storagePath) throw badRequest(PREVIEW_MSG.filesOnly);
  const object = await storedObjectOf(ctx, node, node.storagePath, matter.isVaulted, versionNumber);
  const previewKind = previewKindOf(node.name, object.mimeType);
  const mimeType = previewContentType(previewKind, object.mimeType);
  const signed = await ctx.store.presignGet({
    key: object.key,
    expiresInSeconds: ctx.store.kind === 's3' ? S3_PREVIEW_URL_SECONDS : PREVIEW_URL_SECONDS,
    fileName: node.name,
    contentType: mimeType,
    disposition: 'inline',
  });
  await ctx.db
    .transaction()
    .execute((trx) =>
      auditFor(user, meta)(trx, 'PREVIEW_FILE', { table: 'nodes', id: node.id }, fileReadDetails(matter, node, object, versionNumber)),
    );
  return { url: signed.url, expiresAt: signed.expiresAt.toISOString(), mimeType, fileName: node.name, previewKind };
}
