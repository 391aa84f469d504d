/** A self-contained, offline HTML reference rendered from the OpenAPI document. */

type Json = Record<string, unknown>;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const pretty = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;

function renderParameters(parameters: Json[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td>` +
        `<td>${p.required ? 'yes' : 'no'}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>Parameter</th><th>In</th><th>Required</th><th>Schema</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function renderOperation(path: string, method: string, op: Json): string {
  const id = String(op.operationId);
  const responses = Object.entries(op.responses as Json)
    .map(([status, r]) => `<li><b>${status}</b> ${escapeHtml(String((r as Json).description))}</li>`)
    .join('');
  const requestBody = op.requestBody as Json | undefined;
  const success = Object.entries(op.responses as Json).find(([s]) => s.startsWith('2'))?.[1] as Json | undefined;
  const successSchema = (success?.content as Json | undefined)?.['application/json'];
  return `<section class="op" id="${escapeHtml(id)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(String(op.summary ?? ''))}</p>${op.description ? `<p>${escapeHtml(String(op.description))}</p>` : ''}
${(op.security as unknown[]).length === 0 ? '<p class="note">No credential needed.</p>' : ''}
${renderParameters(op.parameters as Json[])}
${requestBody ? `<details><summary>Request body</summary>${pretty(requestBody.content ?? requestBody)}</details>` : ''}
${successSchema ? `<details><summary>Response body</summary>${pretty(successSchema)}</details>` : ''}
<ul class="responses">${responses}</ul></section>`;
}

export function renderDocsPage(doc: Json): string {
  const info = doc.info as Json;
  const byTag = new Map<string, string[]>();
  const toc: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = ((op as Json).tags as string[])[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), renderOperation(path, method, op as Json)]);
      toc.push(`<li><a href="#${escapeHtml(String((op as Json).operationId))}">${method.toUpperCase()} ${escapeHtml(path)}</a></li>`);
    }
  }
  const sections = [...byTag].map(([tag, ops]) => `<h2>${escapeHtml(tag)}</h2>${ops.join('')}`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(String(info.title))} reference</title><style>
:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.45}
body{margin:0 auto;max-width:60rem;padding:1rem 2rem}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#8881;padding:.5rem;overflow:auto}
.op{border-top:1px solid #8884;padding:.5rem 0}.method{display:inline-block;min-width:4.2em;font-size:.8em;padding:.1em .4em;border-radius:.3em;color:#fff;text-align:center}
.get{background:#2f6fb3}.post{background:#2e8540}.patch{background:#a36a00}.put{background:#a36a00}.delete{background:#b3261e}
table{border-collapse:collapse}td,th{border:1px solid #8884;padding:.2em .5em;text-align:left}.note{color:#777}
</style></head><body><h1>${escapeHtml(String(info.title))} <small>${escapeHtml(String(info.version))}</small></h1>
<p>${escapeHtml(String(info.description))}</p><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>
<details><summary>All routes</summary><ul>${toc.join('')}</ul></details>${sections}</body></html>`;
}
