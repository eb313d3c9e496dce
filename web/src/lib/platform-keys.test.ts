import { describe, expect, it } from 'vitest';
import { shortcutModifier } from './platform-keys';

describe('shortcutModifier', () => {
  it('is ⌘ on Apple systems and Ctrl elsewhere', () => {
    expect(shortcutModifier({ platform: 'MacIntel', userAgent: '' })).toBe('⌘');
    expect(shortcutModifier({ platform: '', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)' })).toBe('⌘');
    expect(shortcutModifier({ platform: '', userAgent: '', userAgentData: { platform: 'macOS' } })).toBe('⌘');
    expect(shortcutModifier({ platform: 'Win32', userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' })).toBe('Ctrl');
    expect(shortcutModifier({ platform: 'Linux x86_64', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' })).toBe('Ctrl');
  });
});
