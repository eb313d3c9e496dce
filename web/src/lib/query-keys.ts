/**
 * Query keys several features share: node and upload mutations refresh the matter detail (the tree) and the
 * matters list without importing the matters feature.
 */
export const mattersQueryKey = ['matters'] as const;
export const matterListQueryKey = ['matters', 'list'] as const;
export const matterDetailQueryKey = (matterId: string) => ['matters', 'detail', matterId] as const;
/** The vault's list, detail and audit: vaulting a matter or changing its hold refreshes them. */
export const vaultQueryKey = ['vault'] as const;
/** Approval requests (list, detail, the navigation's badge) and the approval rules. */
export const approvalsQueryKey = ['approvals'] as const;
