import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { UploadReader } from '../../server/imports/intake/upload-reader.ts';
import { UPLOADS_DIR } from '../../server/imports/settings.ts';
import { eventually } from '../support/eventually.ts';
import { fileUpload, startImportTestServer } from '../support/imports.ts';
import type { TestServer } from '../support/server.ts';

/**
 * Answers of 1 MB of JSON or more (a preview, a sync import, a dry run) are serialised by the
 * worker into a file and streamed from it (http/json-file.ts): the same bytes and headers as a
 * server that passes them whole (as every answer was before), the file removed afterwards.
 */
const ROWS = 24;
const CELL = 100_000;
const location = (i: number) => `${String(i).padStart(3, '0')}${'y'.repeat(CELL)}`;
const csv = `name,location\r\n${Array.from({ length: ROWS }, (_, i) => `Row ${i},${location(i)}\r\n`).join('')}`;

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Headers that differ between two servers or two requests whatever the answer. */
const PER_REQUEST = new Set(['date', 'x-background-task-uuid']);

describe('big answers', () => {
  let streamed: TestServer;
  let whole: TestServer;
  before(async () => {
    [streamed, whole] = await Promise.all([
      startImportTestServer(),
      // Never a file: the answer passes through the server as every answer did before.
      startImportTestServer({ imports: { bigAnswerBytes: Number.MAX_SAFE_INTEGER } }),
    ]);
  });
  after(async () => {
    await Promise.all([streamed?.stop(), whole?.stop()]);
  });

  const answerFiles = (server: TestServer) =>
    fs.readdirSync(path.join(server.dataDir, UPLOADS_DIR)).filter((name) => name.endsWith('.answer.json'));

  const ask = async (server: TestServer, pathname: string, fields: Record<string, string> = {}): Promise<Answer> => {
    const res = await server.request(pathname, fileUpload(csv, 'big.csv', { organization_uuid: server.organizationUuid, ...fields }));
    const headers = Object.fromEntries([...res.headers].filter(([name]) => !PER_REQUEST.has(name)));
    return { status: res.status, headers, text: await res.text() };
  };

  /** The answer of both servers, which must be the same; the streamed one's file removed after. */
  const both = async (pathname: string, fields: Record<string, string> = {}): Promise<unknown> => {
    const [got, before] = await Promise.all([ask(streamed, pathname, fields), ask(whole, pathname, fields)]);
    assert.equal(got.status, 200, got.text.slice(0, 500));
    assert.ok(got.text.length > 2_000_000, `a big answer (${got.text.length} characters)`);
    assert.deepEqual(got.headers, before.headers);
    assert.equal(got.headers['content-length'], String(Buffer.byteLength(got.text)));
    assert.ok(got.text === before.text, 'the same bytes');
    await eventually(() => answerFiles(streamed).length === 0, 'the answer file is removed');
    return JSON.parse(got.text);
  };

  it('previews a big file: the first rows whole, as a server that passes the answer whole gives them', async () => {
    const preview = (await both('/api/imports/preview', { kind: 'qrcodes' })) as {
      rows: { row_number: number; values: Record<string, unknown> }[];
      more_rows: boolean;
    };
    assert.deepEqual(
      preview.rows.map((row) => [row.row_number, row.values]),
      Array.from({ length: 20 }, (_, i) => [i + 2, { name: `Row ${i}`, location: location(i) }]),
    );
    assert.equal(preview.more_rows, true);
  });

  it('answers a big sync import, with its ETag, and the same through /bulk-import and as a dry run', async () => {
    const results = (await both('/api/qrcodes/bulk?processing_mode=sync')) as {
      inserted: number;
      excluded: number;
      excluded_data: { row_number: number; row: Record<string, unknown> }[];
    };
    assert.equal(results.inserted, 0);
    assert.equal(results.excluded, ROWS);
    assert.deepEqual(
      results.excluded_data.map((row) => [row.row_number, row.row.name, row.row.location]),
      Array.from({ length: ROWS }, (_, i) => [i + 2, `Row ${i}`, location(i)]),
    );
    assert.deepEqual(await both('/api/qrcodes/bulk-import'), results);
    const dryRun = (await both('/api/qrcodes/bulk?processing_mode=sync', { dry_run: 'true' })) as typeof results;
    assert.deepEqual(dryRun.excluded_data, results.excluded_data);
  });

  it('streams from the file as the client reads, and removes it when the client goes away', async () => {
    // 20 MB of preview: more than the connection holds while the client reads nothing.
    const huge = `name,location\r\n${Array.from({ length: 20 }, (_, i) => `Row ${i},${'z'.repeat(1_000_000)}\r\n`).join('')}`;
    const aborted = new AbortController();
    const res = await streamed.request('/api/imports/preview', {
      ...fileUpload(huge, 'huge.csv', { organization_uuid: streamed.organizationUuid, kind: 'qrcodes' }),
      signal: aborted.signal,
    });
    assert.equal(res.status, 200);
    assert.ok(Number(res.headers.get('content-length')) > 20_000_000);
    await eventually(() => answerFiles(streamed).length === 1, 'the answer is sent from its file');
    aborted.abort();
    await eventually(() => answerFiles(streamed).length === 0, 'the answer file is removed');
    assert.equal((await streamed.request('/api/health')).status, 200);
  });

  it('removes the answer file of a reader that dies or is stopped mid-answer, once its process has ended', async () => {
    const { dataDir, geocoderModule, limits, bigAnswerBytes } = streamed.ctx.imports.settings;
    const upload = path.join(dataDir, UPLOADS_DIR, 'big.csv');
    fs.writeFileSync(upload, csv);
    for (const end of ['dies', 'is stopped'] as const) {
      const reader = new UploadReader({ dataDir, geocoderModule, limits, bigAnswerBytes }, { reading: () => {}, exit: () => {} });
      const answerFile = path.join(dataDir, UPLOADS_DIR, `${end === 'dies' ? 'died' : 'stopped'}.answer.json`);
      const read = reader.read({
        op: 'preview',
        file: upload,
        format: 'csv',
        kind: 'qrcodes',
        organizationUuid: streamed.organizationUuid,
        options: {},
        position: {},
        savedMappings: [],
        answerFile,
      });
      // What a process killed while writing its answer leaves.
      fs.writeFileSync(answerFile, '{"rows":[{"values":{"location":"yyy');
      if (end === 'dies') reader.terminate();
      else reader.abandon(new Error('the deadline passed'));
      await assert.rejects(read);
      await reader.exited;
      await eventually(() => !fs.existsSync(answerFile), `the answer file of a reader that ${end} is removed`);
    }
    fs.rmSync(upload);
  });
});
