// What the app uses of the dashboard: its read-only routes. The dashboard owns no table and changes nothing.
export { dashboardRoutes } from './dashboard.routes.js';
