/**
 * The thread of CountThread (count-thread-client.ts): answers `select count(*)` statements on a
 * read-only connection of its own, so that a count of many rows does not hold up the server's
 * thread. In WAL mode it reads the last commit while the server's connection writes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { CountAnswer, CountRequest, CountThreadData } from './count-thread-messages.ts';

const STATEMENTS_KEPT = 50;

const { file } = workerData as CountThreadData;
const db = new SQLite(file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map<string, SQLite.Statement<unknown[], number>>();

function statement(sql: string): SQLite.Statement<unknown[], number> {
  let prepared = statements.get(sql);
  if (prepared) {
    statements.delete(sql);
  } else {
    prepared = db.prepare<unknown[], number>(sql).pluck();
    if (statements.size >= STATEMENTS_KEPT) statements.delete(statements.keys().next().value as string);
  }
  statements.set(sql, prepared);
  return prepared;
}

parentPort?.on('message', ({ id, sql, parameters }: CountRequest) => {
  let answer: CountAnswer;
  try {
    answer = { id, count: Number(statement(sql).get(...parameters)) };
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    answer = { id, error: { message: message ?? String(error), code } };
  }
  parentPort?.postMessage(answer);
});
