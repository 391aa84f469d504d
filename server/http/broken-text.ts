import { brokenCharacterAt, brokenCharacterMessage } from '../text/unicode.ts';
import type { FieldProblem } from './errors.ts';

const ADVICE = 'retype the text, or send it as UTF-8 without \\ud800-\\udfff escapes that are not in pairs';

/**
 * Every string (and object key) of a parsed JSON body that has a lone surrogate, each named by
 * its path under `where`: a JSON "\ud800" escape gives one, and SQLite's UTF-8 would store U+FFFD
 * in its place. Walked without recursion, so a deeply nested body cannot overflow the stack.
 */
export function brokenTextProblems(value: unknown, where: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const stack: { value: unknown; path: string }[] = [{ value, path: where }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value: item, path } = next;
    if (typeof item === 'string') {
      const at = brokenCharacterAt(item);
      if (at >= 0) problems.push({ path, message: brokenCharacterMessage(at, ADVICE) });
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ value: item[i], path: `${path}.${i}` });
    } else if (typeof item === 'object' && item !== null) {
      const keys = Object.keys(item);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const at = brokenCharacterAt(key);
        if (at >= 0) problems.push({ path: `${path}.${key}`, message: `is a key that ${brokenCharacterMessage(at, ADVICE)}` });
        stack.push({ value: (item as Record<string, unknown>)[key], path: `${path}.${key}` });
      }
    }
  }
  return problems;
}
