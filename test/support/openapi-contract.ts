import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Holds the server to its OpenAPI document: every response a test server gives is checked
 * against the document's response for its operation and status (see startTestServer). A status
 * the operation does not document, a content type it does not list, or a JSON body its schema
 * refuses (an unknown field included: the server's shapes are closed) is a violation.
 */

type Json = Record<string, unknown>;
interface Operation {
  id: string;
  method: string;
  template: string;
  pattern: RegExp;
  /** The last path parameter may span slashes (e.g. /api/remote/{name}/{path}). */
  greedy: RegExp;
  responses: Json;
}

export interface Violation {
  request: string;
  status: number;
  problem: string;
}

const MAX_CAPTURED_BYTES = 20 * 1024 * 1024;

/** The operations of a document and a validator per response schema, compiled once per process. */
export class OpenApiContract {
  readonly operations: Operation[];
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly doc: Json;

  constructor(doc: Json) {
    this.doc = doc;
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(doc, 'openapi.json');
    this.operations = [];
    for (const [template, methods] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(methods)) {
        const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
        this.operations.push({
          id: String((op as Json).operationId),
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${source.replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`),
          greedy: new RegExp(`^${source.replace(/\\?\{\w+\\?\}(?!.*\{)/, '.+').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`),
          responses: (op as Json).responses as Json,
        });
      }
    }
    // Literal segments win over parameters: /api/qrcodes/bulk/template before /api/qrcodes/bulk/{x}.
    this.operations.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  }

  find(method: string, pathname: string): Operation | undefined {
    const candidates = this.operations.filter((op) => op.method === method);
    return candidates.find((op) => op.pattern.test(pathname)) ?? candidates.find((op) => op.greedy.test(pathname));
  }

  private resolve(response: Json): Json {
    const ref = response.$ref;
    if (typeof ref !== 'string') return response;
    const name = ref.replace('#/components/responses/', '');
    return ((this.doc.components as Json).responses as Json)[name] as Json;
  }

  /** Problems with one response, or none. */
  check(op: Operation, status: number, contentType: string | undefined, body: Buffer | null): string[] {
    const documented = op.responses[String(status)] ?? op.responses.default;
    if (!documented) return [`status ${status} is not documented for ${op.id} (documented: ${Object.keys(op.responses).join(', ')})`];
    const response = this.resolve(documented as Json);
    const content = response.content as Record<string, Json> | undefined;
    if (body === null || body.length === 0) return [];
    if (!content)
      return [`${op.id} ${status} documents no body, but the answer has ${body.length} bytes (${contentType ?? 'no Content-Type'})`];
    const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const media = content[type] ? type : content['*/*'] ? '*/*' : undefined;
    if (!media) return [`${op.id} ${status} answered ${type || 'no Content-Type'}; documented: ${Object.keys(content).join(', ')}`];
    if (media !== 'application/json' || !('schema' in content[media]!)) return [];
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return [`${op.id} ${status} sent invalid JSON`];
    }
    const validate = this.validator(op, String(op.responses[String(status)] ? status : 'default'), media);
    if (validate(value)) return [];
    return (validate.errors ?? [])
      .slice(0, 10)
      .map((e) => `${op.id} ${status}: ${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  }

  private validator(op: Operation, status: string, media: string): ValidateFunction {
    const key = `${op.method} ${op.template} ${status} ${media}`;
    let validate = this.validators.get(key);
    if (!validate) {
      const documented = op.responses[status] as Json;
      const pointer =
        typeof documented.$ref === 'string'
          ? `${documented.$ref}/content/${escapePointer(media)}/schema`
          : `#/paths/${escapePointer(op.template)}/${op.method.toLowerCase()}/responses/${status}/content/${escapePointer(media)}/schema`;
      validate = this.ajv.compile({ $ref: `openapi.json${pointer}` });
      this.validators.set(key, validate);
    }
    return validate;
  }
}

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

let cached: { json: string; contract: OpenApiContract } | undefined;
function contractFor(doc: Json): OpenApiContract {
  const json = JSON.stringify({ paths: doc.paths, components: doc.components });
  if (cached?.json !== json) cached = { json, contract: new OpenApiContract(doc) };
  return cached.contract;
}

/** Where each test process of a `node --test` run appends the operations and statuses it saw (read by the coverage reporter). */
export function coverageDir(runnerPid: number): string {
  return path.join(os.tmpdir(), `qr-sandbox-openapi-coverage-${runnerPid}`);
}

export interface CoverageLine {
  operationId: string;
  method: string;
  path: string;
  status: number;
}

const seen = new Set<string>();
function recordCoverage(contract: OpenApiContract, op: Operation, status: number): void {
  // Only under the test runner (its children carry NODE_TEST_CONTEXT); a test file run by hand records nothing.
  if (!process.env.NODE_TEST_CONTEXT) return;
  const dir = coverageDir(process.ppid);
  if (seen.size === 0) {
    fs.mkdirSync(dir, { recursive: true });
    const documented = contract.operations.flatMap((o) =>
      Object.keys(o.responses).map((s) => ({ operationId: o.id, method: o.method, path: o.template, status: Number(s) })),
    );
    fs.writeFileSync(path.join(dir, 'documented.json'), JSON.stringify(documented));
  }
  const key = `${op.method} ${op.template} ${status}`;
  if (seen.has(key)) return;
  seen.add(key);
  const line: CoverageLine = { operationId: op.id, method: op.method, path: op.template, status };
  fs.appendFileSync(path.join(dir, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
}

/**
 * Checks every response the server sends. Violations are collected (the server's `stop()`
 * fails with them) and also reported at once through `onViolation`.
 */
export function watchResponses(server: http.Server, doc: Json, violations: Violation[]): void {
  const contract = contractFor(doc);
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const method = req.method ?? 'GET';
    const pathname = (req.url ?? '/').split('?')[0]!;
    let op: Operation | undefined;
    try {
      op = method === 'HEAD' ? undefined : contract.find(method, decodeURIComponent(pathname));
    } catch {
      return; // a malformed path matches no operation
    }
    if (!op) return;
    const chunks: Buffer[] = [];
    let size = 0;
    const capture = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      size += buffer.length;
      if (size <= MAX_CAPTURED_BYTES) chunks.push(buffer);
    };
    const write = res.write;
    const end = res.end;
    res.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
      capture(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof res.write;
    res.end = function (this: http.ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      capture(chunk, rest[0]);
      return (end as (...args: unknown[]) => http.ServerResponse).call(this, chunk, ...rest);
    } as typeof res.end;
    res.on('finish', () => {
      if (res.statusCode === 304) return;
      const body = size > MAX_CAPTURED_BYTES ? null : Buffer.concat(chunks);
      const contentType = res.getHeader('content-type');
      const problems = contract.check(op, res.statusCode, typeof contentType === 'string' ? contentType : undefined, body);
      recordCoverage(contract, op, res.statusCode);
      for (const problem of problems) violations.push({ request: `${method} ${req.url}`, status: res.statusCode, problem });
    });
  });
}
