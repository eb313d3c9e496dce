/** Query keys of single sign-on. */
export const ssoSettingsQueryKey = ['settings', 'sso'] as const;
export const ssoIdentityQueryKey = ['settings', 'sso', 'identity'] as const;
