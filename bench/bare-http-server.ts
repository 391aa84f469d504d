/**
 * The floor of the API benchmark, run as its own process like the real server: a bare node:http
 * server that answers GET <path> with the bytes given for that path (argv[2]: a JSON file of
 * { path: body }), and counts webhook deliveries POSTed to /hook (GET /hook/count tells how many).
 * Prints its port on stdout.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const bodies = new Map(
  Object.entries(JSON.parse(fs.readFileSync(process.argv[2] ?? '', 'utf8')) as Record<string, string>).map(([p, body]) => [
    p,
    Buffer.from(body),
  ]),
);
const deliveries = new Set<string>();

const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/hook') {
    req.resume();
    req.on('end', () => {
      // One signature per delivery: the same plaintext and secret on every retry.
      deliveries.add(String(req.headers['x-service-signature']));
      res.end('ok');
    });
    return;
  }
  if (req.url === '/hook/count') {
    res.end(String(deliveries.size));
    return;
  }
  const body = bodies.get(req.url ?? '');
  if (!body) {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
