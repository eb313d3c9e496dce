import { describe, expect, it } from 'vitest';
import { compareApiVersions } from './version.js';

describe('API version check', () => {
  it.each([
    ['v1.0.0', 'v1.0.0', 'compatible', 'none'],
    ['v1.0.0', 'v1.0.3', 'compatible', 'none'],
    ['v1.0.5', 'v1.0.3', 'compatible', 'none'],
    ['v1.0.0', 'v1.2.0', 'deprecated', 'warning'],
    ['v1.3.0', 'v1.2.0', 'mismatch', 'critical'],
    ['v2.0.0', 'v1.0.0', 'mismatch', 'critical'],
    ['v0.9.0', 'v1.0.0', 'mismatch', 'critical'],
    ['banana', 'v1.0.0', 'unsupported', 'critical'],
    [undefined, 'v1.0.0', 'unknown', 'none'],
  ])('client %s against server %s is %s', (client, server, status, severity) => {
    expect(compareApiVersions(client, server)).toEqual({ status, severity });
  });
});
