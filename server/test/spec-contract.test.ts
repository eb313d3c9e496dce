/**
 * The matter, folder and upload calls driven the way the Strongroom web client of the published call list drives
 * them: each request carries exactly the published field names and nothing more, and each answer must carry the
 * published fields, with extras only where docs/api-part2.md documents them. Uploads go over real HTTP to the
 * URLs the server signs (the local store's /_objects routes, as a browser would PUT them), and the file that
 * appears in the matter is checked against the size and sha256 computed here from the bytes sent.
 * Runs on PGlite and on PostgreSQL.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS } from '@strongroom/contracts';
import { createTestApp, type TestApp } from './helpers.js';
import { freePort, newOrganization, ok, type Member } from './factories.js';

let t: TestApp;
let admin: Member;
beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp({ JOB_RUNNER: 'off', APP_URL: `http://127.0.0.1:${port}` });
  await t.app.listen({ host: '127.0.0.1', port });
  admin = await newOrganization(t, 'Published Calls LLP');
});
afterAll(() => t.shutdown());

/** A matter as every answer carries it. */
const MATTER_FIELDS = [
  'id',
  'organizationId',
  'matterName',
  'matterNumber',
  'clientName',
  'description',
  'responsibleLawyer',
  'status',
  'isVaulted',
  'legalHold',
  'holdReason',
  'retentionExpiresAt',
  'vaultedAt',
  'createdAt',
  'updatedAt',
  'version',
];
/** A folder or file as every answer carries it (camelCase only). */
const NODE_FIELDS = [
  'id',
  'matterId',
  'parentId',
  'name',
  'nodeType',
  'path',
  'fileSize',
  'mimeType',
  'sha256Hash',
  'storagePath',
  'uploadId',
  'uploadStatus',
  'uploadProgress',
  'createdAt',
  'updatedAt',
  'createdBy',
  'createdByName',
  'organizationId',
  'currentVersion',
];
/** Where a file's text stands for document search: the matter's tree answers it, other answers may leave it out. */
const NODE_TEXT_FIELDS = ['textState', 'textReason'];
/** Extras docs/api-part2.md documents on some answers. */
const UNDO_OFFER = ['undoId', 'undoExpiresAt'];
const PRESIGN_EXTRAS = ['method', 'headers', 'expiresAt', 'partNumber'];

type Json = Record<string, unknown>;

/** Every required field is present, and nothing else but the documented extras. */
function expectFields(value: unknown, required: string[], documented: string[] = []): Json {
  expect(value).toBeTypeOf('object');
  expect(value).not.toBeNull();
  const keys = Object.keys(value as Json);
  expect(
    required.filter((k) => !keys.includes(k)),
    'missing fields',
  ).toEqual([]);
  expect(
    keys.filter((k) => !required.includes(k) && !documented.includes(k)),
    'undocumented fields',
  ).toEqual([]);
  return value as Json;
}

function expectMatter(value: unknown): Json {
  const m = expectFields(value, MATTER_FIELDS);
  for (const k of ['createdAt', 'updatedAt']) expect(Number.isNaN(Date.parse(String(m[k])))).toBe(false);
  return m;
}

function expectNode(value: unknown, extra: string[] = []): Json {
  const n = expectFields(value, NODE_FIELDS, [...NODE_TEXT_FIELDS, ...extra]);
  for (const k of ['createdAt', 'updatedAt']) expect(Number.isNaN(Date.parse(String(n[k])))).toBe(false);
  return n;
}

type TreeNode = Json & { children: TreeNode[] };
/** Every node of a detail answer's tree, each checked to carry exactly the node fields and its children. */
function flatten(nodes: unknown): TreeNode[] {
  const all: TreeNode[] = [];
  const visit = (list: TreeNode[]) => {
    for (const n of list) {
      expectNode(n, ['children']);
      expect(Array.isArray(n.children)).toBe(true);
      all.push(n);
      visit(n.children);
    }
  };
  visit(nodes as TreeNode[]);
  return all;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function detail(matterId: string): Promise<{ matter: Json; nodes: TreeNode[] }> {
  const body = expectFields(ok(await admin.client.get(`/_api/matters/detail?matterId=${matterId}`)), ['matter', 'nodes']);
  expectMatter(body.matter);
  return { matter: body.matter as Json, nodes: flatten(body.nodes) };
}

let seq = 400;
/** POST /_api/matters/create with the fields of the Create New Matter dialog, the number made up as the client does. */
async function newMatter(name: string): Promise<Json> {
  seq += 1;
  const body = {
    matterName: name,
    matterNumber: `MAT-${new Date().getUTCFullYear()}-${seq}`,
    clientName: 'Contoso Holdings',
    description: 'Published field names',
    responsibleAttorney: 'Ada Advocate',
  };
  const answer = expectFields(ok(await admin.client.post('/_api/matters/create', body)), ['matter']);
  return expectMatter(answer.matter);
}

describe('matter calls', () => {
  it('create, list, update and detail take the published field names and answer the published fields', async () => {
    const matter = await newMatter('Contoso v Fabrikam');
    expect(matter).toMatchObject({
      matterName: 'Contoso v Fabrikam',
      clientName: 'Contoso Holdings',
      description: 'Published field names',
      responsibleLawyer: 'Ada Advocate',
      status: 'Open',
      isVaulted: false,
      legalHold: false,
      version: 1,
      organizationId: admin.organizationId,
    });

    const day = String(matter.createdAt).slice(0, 10);
    const query = new URLSearchParams({
      search: 'Contoso v',
      status: 'Open',
      clientName: 'Contoso Holdings',
      responsibleLawyer: 'Ada Advocate',
      dateFrom: day,
      dateTo: day,
      sortBy: 'matter_name',
      sortDirection: 'asc',
      page: '1',
      pageSize: '20',
    });
    // totalCountCapped: added beside the published totalCount (true when the count stopped at its bound).
    const list = expectFields(ok(await admin.client.get(`/_api/matters/list?${query}`)), ['matters', 'totalCount'], ['totalCountCapped']);
    expect(list.totalCount).toBe(1);
    expect(list.totalCountCapped).toBe(false);
    expect((list.matters as unknown[]).map((m) => expectMatter(m).id)).toEqual([matter.id]);

    const update = {
      matterId: matter.id,
      matterName: 'Contoso v Fabrikam (appeal)',
      matterNumber: matter.matterNumber,
      clientName: 'Contoso Group',
      description: 'Appeal lodged',
      responsibleLawyer: 'Bo Barrister',
      expectedVersion: matter.version,
    };
    const updated = expectFields(ok(await admin.client.post('/_api/matters/update', update)), ['matter'], UNDO_OFFER);
    expect(expectMatter(updated.matter)).toMatchObject({
      matterName: 'Contoso v Fabrikam (appeal)',
      clientName: 'Contoso Group',
      description: 'Appeal lodged',
      responsibleLawyer: 'Bo Barrister',
      version: 2,
    });

    const shown = await detail(String(matter.id));
    expect(shown.matter).toMatchObject({
      id: matter.id,
      matterName: 'Contoso v Fabrikam (appeal)',
      responsibleLawyer: 'Bo Barrister',
      version: 2,
    });
    expect(shown.nodes).toEqual([]);
  });
});

describe('folder calls', () => {
  it('create, rename, move and delete take the published field names; rename answers the matterId', async () => {
    const matter = await newMatter('Folder calls');
    const matterId = String(matter.id);
    const create = async (folderName: string, parentId: string | null) => {
      const body = expectFields(ok(await admin.client.post('/_api/nodes/create', { matterId, parentId, folderName })), ['node']);
      return expectNode(body.node);
    };
    const pleadings = await create('Pleadings', null);
    const drafts = await create('Drafts', pleadings.id as string);
    const archive = await create('Archive', null);
    expect(drafts).toMatchObject({
      name: 'Drafts',
      nodeType: 'folder',
      parentId: pleadings.id,
      matterId,
      path: '/Pleadings/Drafts',
      fileSize: null,
    });

    const renamed = expectFields(
      ok(await admin.client.post('/_api/nodes/rename', { nodeId: drafts.id, newName: 'Final drafts' })),
      ['node'],
      UNDO_OFFER,
    );
    expect(expectNode(renamed.node)).toMatchObject({ id: drafts.id, name: 'Final drafts', matterId });

    const moved = expectFields(
      ok(await admin.client.post('/_api/nodes/move', { nodeId: drafts.id, newParentId: archive.id })),
      ['node'],
      UNDO_OFFER,
    );
    expect(expectNode(moved.node)).toMatchObject({ id: drafts.id, parentId: archive.id, path: '/Archive/Final drafts' });
    const toRoot = expectFields(
      ok(await admin.client.post('/_api/nodes/move', { nodeId: drafts.id, newParentId: null })),
      ['node'],
      UNDO_OFFER,
    );
    expect(expectNode(toRoot.node)).toMatchObject({ parentId: null, path: '/Final drafts' });

    const deleted = expectFields(
      ok(await admin.client.post('/_api/nodes/delete', { nodeId: pleadings.id })),
      [],
      ['success', 'deletedCount', 'binEntryId', 'purgeAfter', ...UNDO_OFFER],
    );
    expect(deleted).toMatchObject({ success: true, deletedCount: 1 });
    const binned = expectFields(ok(await admin.client.get(`/_api/nodes/bin?matterId=${matterId}`)), ['items']);
    expectFields((binned.items as unknown[])[0], [
      'binEntryId',
      'nodeId',
      'name',
      'nodeType',
      'originalPath',
      'fileCount',
      'totalBytes',
      'deletedAt',
      'deletedBy',
      'deletedByName',
      'purgeAfter',
    ]);

    const tree = await detail(matterId);
    expect(tree.nodes.map((n) => [n.path, n.parentId]).sort()).toEqual([
      ['/Archive', null],
      ['/Final drafts', null],
    ]);
  });
});

/** PUT of raw bytes to a signed URL, as the browser sends it. */
const put = (url: string, body: Uint8Array, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'PUT', body: new Uint8Array(body), headers });

/** The stored bytes read back through a download link, hashed here. */
async function downloadedSha(nodeId: string): Promise<string> {
  const link = ok(await admin.client.get(`/_api/nodes/download-url?nodeId=${nodeId}`));
  const res = await fetch(link.url);
  expect(res.status).toBe(200);
  return sha256(new Uint8Array(await res.arrayBuffer()));
}

describe('uploads', () => {
  it('standard: presigned, PUT of the raw file with its content type, multipart-complete without uploadId', async () => {
    const matter = await newMatter('Standard uploads');
    const matterId = String(matter.id);
    const folder = expectNode(
      expectFields(ok(await admin.client.post('/_api/nodes/create', { matterId, parentId: null, folderName: 'Evidence' })), ['node']).node,
    );
    const folderId = String(folder.id);

    // A PDF the browser typed, and a document it could not type (sent as application/octet-stream).
    const files = [
      {
        fileName: 'Witness statement.pdf',
        fileType: 'application/pdf',
        bytes: randomBytes(300_000),
        stored: 'application/pdf',
        emptyParts: false,
      },
      {
        fileName: 'Settlement.docx',
        fileType: 'application/octet-stream',
        bytes: randomBytes(12_345),
        stored: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        emptyParts: true,
      },
    ];
    for (const f of files) {
      const signed = expectFields(
        ok(await admin.client.post('/_api/upload/presigned', { fileName: f.fileName, fileType: f.fileType, matterId, parentId: folderId })),
        ['url', 's3Key'],
        PRESIGN_EXTRAS,
      );
      expect(typeof signed.url).toBe('string');
      expect(typeof signed.s3Key).toBe('string');
      const res = await put(String(signed.url), f.bytes, { 'Content-Type': f.fileType });
      expect(res.status).toBe(200);

      // A client may send the standard completion with an empty parts list, or with none.
      const completion = {
        s3Key: signed.s3Key,
        matterId,
        parentId: folderId,
        fileName: f.fileName,
        fileType: f.fileType,
        fileSize: f.bytes.length,
        ...(f.emptyParts ? { parts: [] } : {}),
      };
      const done = expectFields(ok(await admin.client.post('/_api/upload/multipart-complete', completion)), ['file']);
      expect(expectNode(done.file)).toMatchObject({
        name: f.fileName,
        nodeType: 'file',
        matterId,
        parentId: folderId,
        path: `/Evidence/${f.fileName}`,
        fileSize: f.bytes.length,
        sha256Hash: sha256(f.bytes),
        mimeType: f.stored,
        uploadStatus: 'completed',
      });
    }

    const tree = await detail(matterId);
    for (const f of files) {
      const node = tree.nodes.find((n) => n.name === f.fileName)!;
      expect(node).toMatchObject({ parentId: folderId, fileSize: f.bytes.length, sha256Hash: sha256(f.bytes) });
      expect(await downloadedSha(String(node.id))).toBe(sha256(f.bytes));
    }
  });

  it('multipart: init, a part URL per 10 MB chunk, PUTs 5 at a time keeping each ETag unquoted, complete with the parts', async () => {
    const matter = await newMatter('Multipart upload');
    const matterId = String(matter.id);
    // A file at the multipart threshold and a little more: ten full chunks and a short last one.
    const bytes = randomBytes(UPLOAD_LIMITS.multipartThreshold + 1234);
    const meta = { fileName: 'Disclosure bundle.zip', fileType: 'application/zip', matterId, parentId: null };

    const init = expectFields(ok(await admin.client.post('/_api/upload/multipart-init', { ...meta, fileSize: bytes.length })), [
      'uploadId',
      's3Key',
    ]);
    const chunkCount = Math.ceil(bytes.length / UPLOAD_LIMITS.chunkSize);
    expect(chunkCount).toBe(11);

    const uploaded: Array<{ PartNumber: number; ETag: string }> = [];
    const sendPart = async (partNumber: number) => {
      const part = { ...meta, s3Key: init.s3Key, uploadId: init.uploadId, partNumber };
      const signed = expectFields(ok(await admin.client.post('/_api/upload/presigned', part)), ['url', 's3Key'], PRESIGN_EXTRAS);
      expect(signed.s3Key).toBe(init.s3Key);
      const chunk = bytes.subarray((partNumber - 1) * UPLOAD_LIMITS.chunkSize, partNumber * UPLOAD_LIMITS.chunkSize);
      const res = await put(String(signed.url), chunk);
      expect(res.status).toBe(200);
      const etag = res.headers.get('etag');
      expect(etag).toBeTruthy();
      uploaded.push({ PartNumber: partNumber, ETag: etag!.replace(/"/g, '') });
    };
    // Up to five chunks in flight at once.
    const queue = Array.from({ length: chunkCount }, (_, i) => i + 1);
    await Promise.all(
      Array.from({ length: UPLOAD_LIMITS.parallelChunks }, async () => {
        for (let n = queue.shift(); n !== undefined; n = queue.shift()) await sendPart(n);
      }),
    );
    expect(uploaded).toHaveLength(chunkCount);

    const completion = {
      s3Key: init.s3Key,
      matterId,
      parentId: null,
      fileName: meta.fileName,
      fileType: meta.fileType,
      fileSize: bytes.length,
      uploadId: init.uploadId,
      parts: uploaded,
    };
    const done = expectFields(ok(await admin.client.post('/_api/upload/multipart-complete', completion)), ['file']);
    expect(expectNode(done.file)).toMatchObject({
      name: meta.fileName,
      nodeType: 'file',
      parentId: null,
      path: '/Disclosure bundle.zip',
      fileSize: bytes.length,
      sha256Hash: sha256(bytes),
      mimeType: 'application/zip',
    });

    const node = (await detail(matterId)).nodes.find((n) => n.name === meta.fileName)!;
    expect(node).toMatchObject({ parentId: null, fileSize: bytes.length, sha256Hash: sha256(bytes) });
    expect(await downloadedSha(String(node.id))).toBe(sha256(bytes));
  });

  it('multipart-abort with s3Key and uploadId acknowledges, and the upload can go no further', async () => {
    const matter = await newMatter('Aborted upload');
    const matterId = String(matter.id);
    const meta = { fileName: 'Cancelled.zip', fileType: 'application/zip', matterId, parentId: null };
    const size = UPLOAD_LIMITS.chunkSize + 10;
    const init = expectFields(ok(await admin.client.post('/_api/upload/multipart-init', { ...meta, fileSize: size })), [
      'uploadId',
      's3Key',
    ]);
    const signed = ok(
      await admin.client.post('/_api/upload/presigned', { ...meta, s3Key: init.s3Key, uploadId: init.uploadId, partNumber: 1 }),
    );
    expect((await put(signed.url, randomBytes(UPLOAD_LIMITS.chunkSize))).status).toBe(200);

    const aborted = expectFields(
      ok(await admin.client.post('/_api/upload/multipart-abort', { s3Key: init.s3Key, uploadId: init.uploadId })),
      [],
      ['success'],
    );
    expect(aborted).toEqual({ success: true });

    // The URL signed before the abort stores nothing now, no further part is signed, and nothing completes.
    expect((await put(signed.url, randomBytes(UPLOAD_LIMITS.chunkSize))).status).toBeGreaterThanOrEqual(400);
    const more = await admin.client.post('/_api/upload/presigned', { ...meta, s3Key: init.s3Key, uploadId: init.uploadId, partNumber: 2 });
    expect(more.statusCode).toBe(404);
    expect(more.json().error).toBe('Upload not found.');
    const complete = await admin.client.post('/_api/upload/multipart-complete', {
      s3Key: init.s3Key,
      matterId,
      parentId: null,
      fileName: meta.fileName,
      fileType: meta.fileType,
      fileSize: size,
      uploadId: init.uploadId,
      parts: [{ PartNumber: 1, ETag: 'ffffffffffffffffffffffffffffffff' }],
    });
    expect(complete.statusCode).toBe(404);
    expect((await detail(matterId)).nodes).toEqual([]);
  });
});
