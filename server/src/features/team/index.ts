// What other features use of team: the access a guest's grant gives to the files of a matter shared with them
// (nodes answers a guest's download by it).
export { guestGrantAccess } from './team.repository.js';
// The changes of a member an approved request runs again for its requester (approvals).
export { changeRole, deactivateUser, manageUser, updatePermissions } from './team-members.service.js';
