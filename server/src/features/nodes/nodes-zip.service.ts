/**
 * A folder or a whole matter as one ZIP, streamed from the store as it is read (no copy is made on the server),
 * with manifest.csv at its root: every file's path, size and the sha256 recorded when it was stored. Each file's
 * bytes are hashed on their way into the ZIP; a file whose bytes are not the recorded ones ends the download
 * with an error instead of handing out a ZIP whose manifest says something untrue.
 */
import { createHash } from 'node:crypto';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { MATTER_MSG, NODE_MSG, ZIP_MANIFEST_NAME, type DownloadZipQuery } from '@strongroom/contracts';
import { requireReadPermission } from '../../shared/access.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, forbidden, notFound } from '../../shared/errors.js';
import { getVisibleMatter } from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import { guestGrantAccess } from '../team/index.js';
import { findNode, listMatterNodes, type NodeWithCreator } from './nodes.repository.js';
import { requireVaultedFileReadable } from './nodes.service.js';

type ZipEntry = { path: string; node: NodeWithCreator };
export type ZipDownload = { fileName: string; stream: Readable };

/** The files below `rootId` (null: the matter's root), each with its path from there, folders first by name. */
function filesBelow(nodes: NodeWithCreator[], rootId: string | null): ZipEntry[] {
  const children = new Map<string | null, NodeWithCreator[]>();
  for (const n of nodes) children.set(n.parentId, [...(children.get(n.parentId) ?? []), n]);
  const out: ZipEntry[] = [];
  const walk = (parentId: string | null, prefix: string) => {
    const sorted = [...(children.get(parentId) ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    for (const n of sorted) {
      if (n.nodeType === 'folder') walk(n.id, `${prefix}${n.name}/`);
      else if (n.storagePath) out.push({ path: `${prefix}${n.name}`, node: n });
    }
  };
  walk(rootId, '');
  return out;
}

/** A CSV field, quoted when it holds a quote, a comma or a line break; a leading formula sign is neutralised. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function manifestOf(entries: ZipEntry[]): Buffer {
  const lines = [
    'path,size,sha256',
    ...entries.map((e) => [csvField(e.path), String(Number(e.node.fileSize)), e.node.sha256Hash ?? ''].join(',')),
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}

/** Passes the bytes on and fails at the end when they are not the recorded size and sha256. */
function verifying(entry: ZipEntry): Transform {
  const hash = createHash('sha256');
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      const sha = hash.digest('hex');
      if (size !== Number(entry.node.fileSize) || (entry.node.sha256Hash && sha !== entry.node.sha256Hash)) {
        done(new Error(`the stored bytes of ${entry.path} are not the recorded ones (sha256 ${sha}, ${size} bytes)`));
      } else done();
    },
  });
}

/**
 * Who may: as for one file's download (members with canRetrieve, guests whose grant allows downloads, vaulted
 * matters only with canViewVaulted and while their files are readable). Audited DOWNLOAD_ZIP before the first
 * byte is sent, with the count and bytes of what the ZIP holds.
 */
export async function downloadZip(ctx: AppContext, auth: AuthContext, query: DownloadZipQuery, meta: RequestMeta): Promise<ZipDownload> {
  const { user } = auth;
  if (user.role !== 'guest') requireReadPermission(user, 'canRetrieve');
  const folder = query.nodeId ? await findNode(ctx.db, user.organizationId, query.nodeId) : null;
  if (query.nodeId && !folder) throw notFound(NODE_MSG.itemNotFound);
  const matterId = folder ? folder.matterId : query.matterId!;
  if (user.role === 'guest') {
    const access = await guestGrantAccess(ctx.db, user.organizationId, matterId, user.id);
    if (access === null) throw notFound(folder ? NODE_MSG.itemNotFound : MATTER_MSG.matterNotFound);
    if (access === 'view') throw forbidden(NODE_MSG.guestViewOnly);
  }
  const matter = await getVisibleMatter(ctx.db, user, matterId);
  if (folder && folder.nodeType !== 'folder') throw badRequest(NODE_MSG.zipFoldersOnly);
  const entries = filesBelow(await listMatterNodes(ctx.db, user.organizationId, matter.id), folder?.id ?? null);
  if (matter.isVaulted) for (const e of entries) await requireVaultedFileReadable(ctx, e.node.storagePath!);
  const totalBytes = entries.reduce((n, e) => n + Number(e.node.fileSize), 0);
  const name = folder ? folder.name : matter.matterName;
  await ctx.db.transaction().execute((trx) =>
    auditFor(user, meta)(trx, 'DOWNLOAD_ZIP', folder ? { table: 'nodes', id: folder.id } : { table: 'matters', id: matter.id }, {
      matterId: matter.id,
      matterName: matter.matterName,
      folderName: folder?.name ?? null,
      fileCount: entries.length,
      totalBytes,
    }),
  );
  return { fileName: `${name}.zip`, stream: zipStream(ctx, entries) };
}

function zipStream(ctx: AppContext, entries: ZipEntry[]): Readable {
  const zip = new ZipFile();
  const out = new PassThrough();
  const fail = (err: unknown) => {
    ctx.log.error({ err }, 'a ZIP download stopped');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  zip.outputStream.on('error', fail);
  zip.outputStream.pipe(out);
  zip.addBuffer(manifestOf(entries), ZIP_MANIFEST_NAME, { compress: true });
  for (const e of entries) {
    const options = { size: Number(e.node.fileSize), compress: false, mtime: e.node.createdAt };
    // Each file is opened only when the ZIP reaches it, so a large folder never holds many reads open.
    zip.addReadStreamLazy(e.path, options, (cb) => {
      ctx.store.getStream(e.node.storagePath!).then(
        (source) => {
          const check = verifying(e);
          source.on('error', fail);
          check.on('error', fail);
          cb(null, source.pipe(check));
        },
        (err: unknown) => {
          fail(err);
          cb(err, new PassThrough());
        },
      );
    });
  }
  zip.end();
  return out;
}
