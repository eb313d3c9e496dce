import type { MatterDto } from '@strongroom/contracts';

/**
 * A stored matter for tests: open, not vaulted, no hold, at version 3. A test passes only the fields it
 * cares about; everything else keeps these values.
 */
export function makeMatter(overrides: Partial<MatterDto> = {}): MatterDto {
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
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    version: 3,
    ...overrides,
  };
}
