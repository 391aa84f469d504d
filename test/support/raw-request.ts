import http from 'node:http';

/** A request with headers fetch will not let us forge (Host), and an optional body, read back as status + body text. */
export function rawRequest(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string | Buffer,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
