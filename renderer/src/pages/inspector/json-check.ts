import { type JsonProblem, jsonProblem } from '../../../../common/json-problem.ts';

/** null when the text is a JSON object; else where and why not (the server says the same, at the same place). */
export function checkJsonObject(text: string): JsonProblem | null {
  const problem = jsonProblem(text);
  if (problem) return problem;
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      offset: 0,
      line: 1,
      column: 1,
      message: 'The JSON must be an object, an event envelope {"id", "type", "created_at", "data"}.',
      reachesEnd: false,
    };
  return null;
}

/** The plaintext as the editor shows it: pretty-printed when it is JSON, as it is otherwise. */
export function editableJson(plaintext: string | null): string {
  if (plaintext === null) return '';
  try {
    return JSON.stringify(JSON.parse(plaintext), null, 2);
  } catch {
    return plaintext;
  }
}
