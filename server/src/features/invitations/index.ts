// What other features use of invitations: the roles a person may invite and the pending invitations, shown
// on the team page; resending or revoking one from there, with the step-up every people change takes (team).
export { invitableRoles, listPendingInvitations, PEOPLE_STEP_UP, resendInvitation, revokeInvitationById } from './invitations.service.js';
