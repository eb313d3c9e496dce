// What other parts use of API tokens: the routes (app) and the caller of a bearer token (the access guard).
export { apiTokensRoutes } from './api-tokens.routes.js';
export { tokenSession } from './api-tokens.service.js';
