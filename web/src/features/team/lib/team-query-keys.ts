/** The team list and each guest's shared matters; every team change refreshes the list. */
export const teamQueryKey = ['team'] as const;
export const guestGrantsQueryKey = (userId: string) => ['team', 'guest-grants', userId] as const;
/** The signed-in user's session: a change of one's own role or permissions shows at once. */
export const sessionQueryKey = ['session'] as const;
