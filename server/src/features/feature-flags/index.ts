// What other features use of feature flags: the default flags a new organization starts with (setup) and whether
// one flag is on for an organization (the access guard's step-up rules).
export { insertDefaultFlags, isFlagEnabled } from './feature-flags.service.js';
// The flags changed as the route changes them, run again for its requester once approved (approvals).
export { updateFeatureFlags } from './feature-flags.service.js';
