// What other features use of feature flags: the default flags a new organization starts with (setup) and whether
// one flag is on for an organization (the access guard's step-up rules).
export { insertDefaultFlags, isFlagEnabled } from './feature-flags.service.js';
