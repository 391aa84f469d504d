/**
 * Attack 8b of bench/attacks.bench.ts (issue 38 item 7): a dry run sent through the remote proxy
 * as a form field after a 20 MB file, and as a JSON field, to a stand-in for the real service
 * that counts the connections and bytes it gets. Then the same file without dry_run, which must
 * arrive whole: the refusal costs receiving the body, nothing more.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { round, type ChildServer } from './support.ts';

const FILE_MB = Number(process.env.ATTACK_DRY_RUN_FILE_MB ?? 20);

export async function remoteDryRun(server: ChildServer) {
  let connections = 0;
  let bytes = 0;
  const service = http.createServer((req, res) => {
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    req.on('end', () => res.writeHead(202, { 'content-type': 'application/json' }).end('{"message":"imported for real"}'));
  });
  service.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const headers = { authorization: server.auth };
  await fetch(`${server.url}/api/profiles/real`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ base_url: `http://127.0.0.1:${(service.address() as AddressInfo).port}`, api_key: 'k', api_secret: 's' }),
  });
  const csv = new Blob([`location\n${'"1 Collins Street, Melbourne VIC 3000"\n'.repeat(Math.ceil((FILE_MB * 1024 * 1024) / 38))}`]);
  const send = async (body: FormData | string, contentType?: string) => {
    const started = performance.now();
    const res = await fetch(`${server.url}/api/remote/real/api/qrcodes/bulk`, {
      method: 'POST',
      headers: contentType ? { ...headers, 'content-type': contentType } : headers,
      body,
    });
    const text = await res.text();
    return { http: res.status, ms: round(performance.now() - started), message: res.status >= 300 ? text.slice(0, 160) : null };
  };
  const form = (withDryRun: boolean) => {
    const f = new FormData();
    f.set('organization_uuid', server.organizationUuid);
    f.set('file', csv, 'sites.csv');
    if (withDryRun) f.set('dry_run', 'true');
    return f;
  };
  try {
    const formField = await send(form(true));
    const jsonField = await send(
      JSON.stringify({ organization_uuid: server.organizationUuid, items: [], dry_run: true }),
      'application/json',
    );
    const refused = { connections, bytes };
    const control = await send(form(false));
    return {
      file_mb: FILE_MB,
      form_field: formField,
      json_field: jsonField,
      reached_the_service_while_refusing: refused,
      without_dry_run: { ...control, bytes_received_mb: round(bytes / 1024 / 1024, 1) },
    };
  } finally {
    await fetch(`${server.url}/api/profiles/real`, { method: 'DELETE', headers });
    service.closeAllConnections();
    await new Promise((resolve) => service.close(resolve));
  }
}
