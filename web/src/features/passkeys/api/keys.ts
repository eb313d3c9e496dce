/** Query key of one's passkeys (and the organization's passkey sign-in setting answered with them). */
export const passkeysQueryKey = ['settings', 'passkeys'] as const;
