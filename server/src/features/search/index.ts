// What other modules use of search: its routes (the app). Search only reads; it writes no table.
export { searchRoutes } from './search.routes.js';
