import type { Matter } from '@/lib/dates';

/**
 * A stored matter for tests, as the web holds it (dates as dates; Response.json writes them as the server does): open, not vaulted, no hold, at version 3. A test passes only the fields it
 * cares about; everything else keeps these values.
 */
export function makeMatter(overrides: Partial<Matter> = {}): Matter {
  return {
    id: '6f1d9f4e-8a3b-4c1e-9d2a-1b2c3d4e5f60',
    organizationId: 'org-1',
    matterName: 'Lease dispute',
    matterNumber: 'MAT-2026-001',
    clientName: 'Acme Holdings',
    description: 'Commercial lease',
    responsibleLawyer: 'Jane Counsel',
    status: 'Open',
    isVaulted: false,
    legalHold: false,
    holdReason: null,
    retentionExpiresAt: null,
    vaultedAt: null,
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    updatedAt: new Date('2026-01-01T00:00:00.000Z'),
    version: 3,
    ...overrides,
  };
}
