// The access guard: what app.ts installs, and the table of every route's declared access.
export { registerAccessGuard, stepUpTokenOf } from './access-guard.js';
