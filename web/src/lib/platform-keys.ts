/**
 * Whether the browser runs on an Apple system, where shortcuts use the Command key (⌘) in place of Ctrl. Read
 * from the client hints where the browser gives them, else from the platform string.
 */
export function isApplePlatform(
  nav: Pick<Navigator, 'platform' | 'userAgent'> & { userAgentData?: { platform?: string } } = navigator,
): boolean {
  const platform = nav.userAgentData?.platform || nav.platform || nav.userAgent;
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/** The modifier key of the app's shortcuts as this user's keyboard labels it: '⌘' on a Mac, else 'Ctrl'. */
export function shortcutModifier(nav?: Parameters<typeof isApplePlatform>[0]): '⌘' | 'Ctrl' {
  return isApplePlatform(nav) ? '⌘' : 'Ctrl';
}
