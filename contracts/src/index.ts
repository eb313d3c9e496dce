export * from './constants.js';
export * from './messages.js';
export * from './common.js';
export * from './auth.js';
export * from './settings.js';
export * from './security.js';
export * from './setup.js';
export * from './version.js';
