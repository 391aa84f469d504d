import { sql, type ExpressionBuilder } from 'kysely';
import { likeEscaped } from '../db/trigram-search.ts';
import type { Database } from '../db/schema.ts';
import type { ShadowExtra } from '../imports/kind.ts';

/** The task search index's triggers (migration 024): a dry run's copy of background_tasks goes without them. */
export const TASK_SEARCH_SHADOW: ShadowExtra = {
  table: 'background_tasks',
  skippedTriggers: new Set(['task_search_insert', 'task_search_update', 'task_search_delete']),
};

/**
 * The task's uuid, file name or error message matches the LIKE pattern (likePattern(term): contains
 * the term, ignoring ASCII case; a param() for a prepared statement): what the search means.
 */
export function taskMatches(eb: ExpressionBuilder<Database, 'background_tasks'>, pattern: string) {
  return eb.or([
    likeEscaped(sql.ref('background_tasks.uuid'), pattern),
    likeEscaped(sql`json_extract(${sql.ref('background_tasks.metadata')}, '$.filename')`, pattern),
    likeEscaped(sql.ref('background_tasks.error_message'), pattern),
  ]);
}
