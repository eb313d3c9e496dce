import type { NodeTreeDto } from '@strongroom/contracts';

/**
 * A folder or file of a matter's tree for tests, as the server answers it: a file of 10 bytes at the root of
 * matter 'm1' in its version 1, no children, created on 2 January 2026. A test passes only the fields it cares about; a folder
 * gets no size unless given one, and its path follows its name unless given.
 */
export function makeNode(overrides: Partial<NodeTreeDto> & Pick<NodeTreeDto, 'id'>): NodeTreeDto {
  const nodeType = overrides.nodeType ?? 'file';
  const name = overrides.name ?? overrides.id;
  return {
    matterId: 'm1',
    organizationId: 'o1',
    parentId: null,
    name,
    nodeType,
    path: `/${name}`,
    fileSize: nodeType === 'file' ? 10 : null,
    mimeType: null,
    sha256Hash: null,
    storagePath: null,
    uploadId: null,
    uploadStatus: null,
    uploadProgress: null,
    createdBy: null,
    createdByName: null,
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    currentVersion: nodeType === 'file' ? 1 : null,
    children: [],
    ...overrides,
  };
}
