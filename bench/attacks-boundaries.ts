/**
 * Attacks 8c to 8e of bench/attacks.bench.ts (issue 38 items 8 and 9): another organization's
 * editor and admin use and overwrite the first organization's remote profile; a snapshot file
 * edited so that its rows name another organization is restored; NUL and other control
 * characters are sent as search terms to every list that searches. Each reports what the server
 * answered and whether anything crossed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { ChildServer } from './support.ts';

type Call = (pathname: string, init?: { method?: string; body?: unknown; auth?: string }) => Promise<{ status: number; body: string }>;

function caller(server: ChildServer): Call {
  return async (pathname, init = {}) => {
    const res = await fetch(`${server.url}${pathname}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { authorization: init.auth ?? server.auth, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: await res.text() };
  };
}

async function otherOrganization(server: ChildServer, call: Call): Promise<{ uuid: string; admin: string; editor: string }> {
  const made = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['bin/qr-sandbox.mjs', 'org', 'create', '--name', `Other ${Date.now()}`, '--data-dir', server.dataDir],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`org create: ${code} ${out}`))));
  });
  const key = JSON.parse(made) as { organization_uuid: string; api_key: string; api_secret: string };
  const admin = `Bearer ${key.api_key}:${key.api_secret}`;
  const editor = JSON.parse((await call('/api/api-keys', { body: { role: 'editor', name: 'other editor' }, auth: admin })).body) as {
    api_key: string;
    api_secret: string;
  };
  return { uuid: key.organization_uuid, admin, editor: `Bearer ${editor.api_key}:${editor.api_secret}` };
}

/** 8c: the other organization's editor posts an import through the first's profile; its admin saves over it. */
export async function crossOrganizationProfile(server: ChildServer) {
  const call = caller(server);
  let received = 0;
  const remote = http.createServer((req, res) => {
    received += 1;
    req.resume().on('end', () => res.writeHead(202, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  try {
    await call('/api/profiles/prod', { method: 'PUT', body: { base_url: baseUrl, api_key: 'production', api_secret: 'secret' } });
    const other = await otherOrganization(server, call);
    const used = await call('/api/remote/prod/api/qrcodes/bulk', { body: { items: [] }, auth: other.editor });
    const saved = await call('/api/profiles/prod', {
      method: 'PUT',
      body: { base_url: 'http://127.0.0.1:9', api_key: 'theirs', api_secret: 's' },
      auth: other.admin,
    });
    const mine = JSON.parse((await call('/api/profiles')).body) as { items: Array<{ name: string; api_key: string }> };
    return {
      other_editor_proxy: used.status,
      requests_that_reached_the_remote: received,
      other_admin_save: saved.status,
      first_organization_profile_key_after: mine.items.find((p) => p.name === 'prod')?.api_key ?? null,
    };
  } finally {
    await call('/api/profiles/prod', { method: 'DELETE' });
    await new Promise((resolve) => remote.close(resolve));
  }
}

/** 8d: a saved snapshot edited so that its QR codes name another organization, then restored. */
export async function foreignSnapshot(server: ChildServer) {
  const call = caller(server);
  const other = await otherOrganization(server, call);
  await call('/api/qrcodes', { body: { organization_uuid: server.organizationUuid, location: '1 Collins Street, Melbourne VIC 3000' } });
  await call('/api/snapshots', { body: { name: 'bench-edited', replace: true } });
  const file = path.join(server.dataDir, 'snapshots', server.organizationUuid, 'bench-edited.sqlite');
  const db = new SQLite(file);
  const edited = db.prepare('update qrcodes set organization_uuid = ?').run(other.uuid).changes;
  db.close();
  const otherCount = async () =>
    (JSON.parse((await call(`/api/qrcodes?organization_uuid=${other.uuid}&per_page=1`, { auth: other.admin })).body) as { total: number })
      .total;
  const before = await otherCount();
  const restored = await call('/api/snapshots/bench-edited/restore', { body: {} });
  const after = await otherCount();
  fs.rmSync(file, { force: true });
  return {
    rows_edited: edited,
    restore: { http: restored.status, message: (JSON.parse(restored.body) as { error?: { message: string } }).error?.message ?? null },
    other_organization_qr_codes: { before, after },
  };
}

/** 8e: NUL, another C0 control and DEL as the search term of every list that searches. */
export async function controlCharacterSearch(server: ChildServer) {
  const call = caller(server);
  const org = `organization_uuid=${server.organizationUuid}`;
  const answers: Record<string, Record<string, number>> = {};
  for (const list of [`/api/qrcodes?${org}`, `/api/background-tasks?${org}`, `/api/services?${org}`]) {
    for (const term of ['a\u0000b', '\u0000', '\u0001xy', 'ab\u007f']) {
      const { status } = await call(`${list}&search=${encodeURIComponent(term)}`);
      const name = list.split('?')[0] ?? list;
      answers[name] = { ...answers[name], [status]: (answers[name]?.[status] ?? 0) + 1 };
    }
  }
  return answers;
}
