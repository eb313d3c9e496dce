/** Query keys of the Settings calls; settings are always read fresh (staleTime 0), another admin may change them. */
export const profileQueryKey = ['settings', 'profile'] as const;
export const organizationQueryKey = ['settings', 'organization'] as const;
export const retentionQueryKey = ['settings', 'retention'] as const;
export const signingKeysQueryKey = ['settings', 'signing-keys'] as const;
export const apiTokensQueryKey = ['settings', 'api-tokens'] as const;
