export { getOrgDefaultSettings } from './org-defaults';
export { registerTeamRoutes } from './routes';
export { listTeamMembers, listTeams } from './teams';
