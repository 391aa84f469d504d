import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';

/** Where JSON text first goes wrong: the character offset, its line and column (1-based), and what to fix. */
export interface JsonCheck {
  offset: number;
  line: number;
  column: number;
  message: string;
}

const explanations: Record<string, string> = {
  ValueExpected: 'a value is expected here',
  CloseBraceExpected: 'a closing } is missing',
  CloseBracketExpected: 'a closing ] is missing',
  CommaExpected: 'a comma is missing',
  ColonExpected: 'a colon is missing after the property name',
  PropertyNameExpected: 'a property name in double quotes is expected',
  EndOfFileExpected: 'there is text after the end of the JSON value',
  InvalidSymbol: 'this is not a JSON value (strings need double quotes; true, false, null are lowercase)',
  InvalidCharacter: 'a control character inside a string must be escaped',
  InvalidEscapeCharacter: 'this escape sequence is not valid JSON',
  InvalidUnicode: 'a \\u escape needs four hex digits',
  UnexpectedEndOfString: 'the string is not closed',
  InvalidCommentToken: 'comments are not JSON',
  UnexpectedEndOfComment: 'comments are not JSON',
  UnexpectedEndOfNumber: 'the number is not complete',
  InvalidNumberFormat: 'the number is not valid JSON',
};

/** null when the text is a JSON object; else where and why not (the server says the same, at the same place). */
export function checkJsonObject(text: string): JsonCheck | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const errors: ParseError[] = [];
    parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    const offset = first?.offset ?? text.length;
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    const what = first ? (explanations[printParseErrorCode(first.error)] ?? printParseErrorCode(first.error)) : (error as Error).message;
    return { offset, line, column, message: `Not valid JSON at line ${line}, column ${column}: ${what}.` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      offset: 0,
      line: 1,
      column: 1,
      message: 'The JSON must be an object, an event envelope {"id", "type", "created_at", "data"}.',
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
