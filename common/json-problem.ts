/**
 * Where JSON text first goes wrong, in words that say what to fix. Shared by the server (a resend's
 * body) and the GUI (the reseal editor), so both say the same thing at the same place.
 */
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';

export interface JsonProblem {
  /** 0-based character offset of the first error. */
  offset: number;
  /** 1-based line and column of it. */
  line: number;
  column: number;
  message: string;
  /** The error runs to the end of the text: the text looks cut off rather than wrong. */
  reachesEnd: boolean;
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
  UnexpectedEndOfComment: 'comments are not JSON',
  InvalidCommentToken: 'comments are not JSON',
  UnexpectedEndOfNumber: 'the number is not complete',
  InvalidNumberFormat: 'the number is not valid JSON',
};

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Where JSON text first goes wrong, in words that say what to fix; null when JSON.parse takes it. */
export function jsonProblem(text: string): JsonProblem | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const errors: ParseError[] = [];
    parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    const offset = first?.offset ?? text.length;
    const { line, column } = lineAndColumn(text, offset);
    const what = first ? (explanations[printParseErrorCode(first.error)] ?? printParseErrorCode(first.error)) : (error as Error).message;
    const reachesEnd = first ? first.offset + first.length >= text.trimEnd().length : false;
    return { offset, line, column, message: `Not valid JSON at line ${line}, column ${column}: ${what}.`, reachesEnd };
  }
}
