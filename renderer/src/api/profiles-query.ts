import { getQuery } from './get-query.ts';

/** The connection profiles (GET /api/profiles): the Remote pages and the Imports page's "Send to". */
export const profilesQuery = getQuery('/api/profiles', {});
