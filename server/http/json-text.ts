/**
 * An answer already serialised: a route may return one instead of an object, and the API sends
 * its text as is. For answers that are computed once and served many times (polled tasks).
 */
export class JsonText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  static of(value: unknown): JsonText {
    return new JsonText(JSON.stringify(value));
  }
}
