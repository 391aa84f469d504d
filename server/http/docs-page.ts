import { createHash } from 'node:crypto';

/**
 * A self-contained, offline HTML reference rendered from the OpenAPI document: every operation
 * with its parameters, request bodies and responses, every schema (refs are links), and a
 * "Try it" form per operation that sends the request with the key the reader enters.
 */

type Json = Record<string, unknown>;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const SCHEMA_REF = '#/components/schemas/';
const schemaAnchor = (name: string) => `schema-${name}`;

/** Pretty JSON as HTML, with every schema $ref a link to the schema's section. */
function jsonHtml(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + jsonHtml(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Json).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([key, v]) => {
      const shown =
        key === '$ref' && typeof v === 'string' && v.startsWith(SCHEMA_REF)
          ? `<a href="#${escapeHtml(schemaAnchor(v.slice(SCHEMA_REF.length)))}">${escapeHtml(JSON.stringify(v))}</a>`
          : jsonHtml(v, inner);
      return `${inner}${escapeHtml(JSON.stringify(key))}: ${shown}`;
    });
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return escapeHtml(JSON.stringify(value) ?? 'null');
}

const pretty = (value: unknown) => `<pre>${jsonHtml(value)}</pre>`;

function resolveResponse(doc: Json, response: Json): Json {
  const ref = response.$ref;
  if (typeof ref !== 'string') return response;
  return ((doc.components as Json).responses as Json)[ref.split('/').pop()!] as Json;
}

function renderParameters(parameters: Json[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td>` +
        `<td>${p.required ? 'yes' : 'no'}</td><td>${escapeHtml(String(p.description ?? ''))}</td><td><code>${jsonHtml(p.schema).replace(/\n\s*/g, ' ')}</code></td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>Parameter</th><th>In</th><th>Required</th><th>Description</th><th>Schema</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function renderContent(content: Json | undefined): string {
  if (!content) return '';
  return Object.entries(content)
    .map(
      ([type, media]) =>
        `<div class="media"><code>${escapeHtml(type)}</code>${(media as Json).schema ? pretty((media as Json).schema) : ''}</div>`,
    )
    .join('');
}

/** A form that sends this operation's request from the page, with the key entered at the top. */
function renderTryIt(path: string, method: string, op: Json): string {
  const parameters = ((op.parameters as Json[] | undefined) ?? []).filter((p) => p.in === 'path' || p.in === 'query');
  const fields = parameters
    .map(
      (p) =>
        `<label>${escapeHtml(String(p.name))} <small>(${escapeHtml(String(p.in))}${p.required ? ', required' : ''})</small>` +
        `<input name="${escapeHtml(`${String(p.in)}:${String(p.name)}`)}" ${p.required ? 'required' : ''}></label>`,
    )
    .join('');
  const content = ((op.requestBody as Json | undefined)?.content as Json | undefined) ?? {};
  let body = '';
  if (content['application/json']) {
    body = `<label>JSON body<textarea name="body:json" rows="6" spellcheck="false"></textarea></label>`;
  }
  const form = (content['multipart/form-data'] as Json | undefined)?.schema as Json | undefined;
  if (form) {
    const props = Object.entries((form.properties as Json | undefined) ?? {});
    body +=
      `<fieldset><legend>Or as multipart/form-data</legend>` +
      props
        .map(([name, schema]) =>
          (schema as Json).format === 'binary'
            ? `<label>${escapeHtml(name)}<input type="file" name="${escapeHtml(`form:${name}`)}"></label>`
            : `<label>${escapeHtml(name)}<input name="${escapeHtml(`form:${name}`)}"></label>`,
        )
        .join('') +
      `</fieldset>`;
  }
  return `<details class="try"><summary>Try it</summary><form class="try-form" data-method="${escapeHtml(method.toUpperCase())}" data-path="${escapeHtml(path)}">
${fields}${body}<button type="submit">Send ${escapeHtml(method.toUpperCase())}</button></form><output class="try-result" aria-live="polite"></output></details>`;
}

function renderOperation(doc: Json, path: string, method: string, op: Json): string {
  const id = String(op.operationId);
  const responses = Object.entries(op.responses as Json)
    .map(([status, r]) => {
      const response = resolveResponse(doc, r as Json);
      return `<li><b>${escapeHtml(status)}</b> ${escapeHtml(String(response.description ?? ''))}${renderContent(response.content as Json | undefined)}</li>`;
    })
    .join('');
  const requestBody = op.requestBody as Json | undefined;
  return `<section class="op" id="${escapeHtml(id)}">
<h3><span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code> <small class="opid">${escapeHtml(id)}</small></h3>
<p>${escapeHtml(String(op.summary ?? ''))}</p>${op.description ? `<p>${escapeHtml(String(op.description))}</p>` : ''}
${(op.security as unknown[] | undefined)?.length === 0 ? '<p class="note">No credential needed.</p>' : ''}
${renderParameters((op.parameters as Json[] | undefined) ?? [])}
${requestBody ? `<details><summary>Request body</summary>${requestBody.description ? `<p>${escapeHtml(String(requestBody.description))}</p>` : ''}${renderContent(requestBody.content as Json)}</details>` : ''}
<details><summary>Responses</summary><ul class="responses">${responses}</ul></details>
${renderTryIt(path, method, op)}</section>`;
}

function renderSchemas(schemas: Json): string {
  return Object.entries(schemas)
    .map(
      ([name, schema]) =>
        `<section class="schema" id="${escapeHtml(schemaAnchor(name))}"><h3>${escapeHtml(name)}</h3>` +
        `${(schema as Json).description ? `<p>${escapeHtml(String((schema as Json).description))}</p>` : ''}${pretty(schema)}</section>`,
    )
    .join('');
}

/** Sends a Try-it form: path and query from its inputs, a JSON or multipart body, the key from the top of the page. */
const SCRIPT = `
document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!form.classList.contains('try-form')) return;
  event.preventDefault();
  const output = form.parentElement.querySelector('.try-result');
  let path = form.dataset.path;
  const query = new URLSearchParams();
  const multipart = new FormData();
  let json = '';
  let hasForm = false;
  for (const input of form.querySelectorAll('input, textarea')) {
    const [where, name] = input.name.split(':');
    if (where === 'path') path = path.replace('{' + name + '}', encodeURIComponent(input.value));
    else if (where === 'query' && input.value !== '') query.set(name, input.value);
    else if (where === 'body') json = input.value.trim();
    else if (where === 'form') {
      if (input.type === 'file') { if (input.files.length) { multipart.set(name, input.files[0]); hasForm = true; } }
      else if (input.value !== '') { multipart.set(name, input.value); hasForm = true; }
    }
  }
  const headers = {};
  const key = document.getElementById('api-key').value.trim();
  if (key) headers.authorization = key.startsWith('Bearer ') ? key : 'Bearer ' + key;
  let body;
  if (json) { body = json; headers['content-type'] = 'application/json'; }
  else if (hasForm) body = multipart;
  const url = path + (query.size ? '?' + query : '');
  output.textContent = 'Sending ' + form.dataset.method + ' ' + url + ' ...';
  try {
    const response = await fetch(url, { method: form.dataset.method, headers, body });
    const text = await response.text();
    let shown = text;
    try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch {}
    output.innerHTML = '';
    const status = document.createElement('p');
    status.className = 'try-status';
    status.textContent = form.dataset.method + ' ' + url + ' answered ' + response.status + ' ' + response.statusText + ' (' + (response.headers.get('content-type') || 'no body') + ')';
    const pre = document.createElement('pre');
    pre.className = 'try-body';
    pre.textContent = shown;
    output.append(status, pre);
  } catch (error) {
    output.textContent = 'The request failed: ' + error.message;
  }
});
`;

const STYLE = `:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.45}
body{margin:0 auto;max-width:64rem;padding:1rem 2rem}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#8881;padding:.5rem;overflow:auto;max-height:30rem}
.op,.schema{border-top:1px solid #8884;padding:.5rem 0}.method{display:inline-block;min-width:4.2em;font-size:.8em;padding:.1em .4em;border-radius:.3em;color:#fff;text-align:center}
.get{background:#2f6fb3}.post{background:#2e8540}.patch{background:#a36a00}.put{background:#a36a00}.delete{background:#b3261e}
.opid{color:#777;font-weight:normal}table{border-collapse:collapse}td,th{border:1px solid #8884;padding:.2em .5em;text-align:left;vertical-align:top}.note{color:#777}
.key{position:sticky;top:0;background:Canvas;padding:.5rem 0;border-bottom:1px solid #8884;z-index:1}.key input{width:min(40rem,90%)}
.try-form label{display:block;margin:.3rem 0}.try-form input:not([type=file]),.try-form textarea{display:block;width:100%;box-sizing:border-box}`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Only this page's own script and style, requests to this server only: the page works, and stays, offline. */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function renderDocsPage(doc: Json): string {
  const info = doc.info as Json;
  const byTag = new Map<string, string[]>();
  const toc: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = ((op as Json).tags as string[] | undefined)?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), renderOperation(doc, path, method, op as Json)]);
      toc.push(
        `<li><a href="#${escapeHtml(String((op as Json).operationId))}">${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</a></li>`,
      );
    }
  }
  const schemas = ((doc.components as Json | undefined)?.schemas as Json | undefined) ?? {};
  const schemaToc = Object.keys(schemas).map((name) => `<li><a href="#${escapeHtml(schemaAnchor(name))}">${escapeHtml(name)}</a></li>`);
  const sections = [...byTag].map(([tag, ops]) => `<h2>${escapeHtml(tag)}</h2>${ops.join('')}`).join('');
  const webhooks = Object.entries((doc.webhooks as Record<string, Json> | undefined) ?? {})
    .map(
      ([name, item]) =>
        `<section class="op"><h3>${escapeHtml(name)}</h3>${Object.entries(item)
          .map(
            ([m, op]) =>
              `<p><b>${escapeHtml(m.toUpperCase())}</b> ${escapeHtml(String((op as Json).summary ?? ''))}</p><p>${escapeHtml(String((op as Json).description ?? ''))}</p>${pretty(op)}`,
          )
          .join('')}</section>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(String(info.title))} reference</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(String(info.title))} <small>${escapeHtml(String(info.version))}</small></h1>
<p>${escapeHtml(String(info.description))}</p><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>
<div class="key"><label>Your credential for "Try it": <input id="api-key" type="password" autocomplete="off" placeholder="<api_key>:<api_secret>"></label></div>
<details><summary>All routes</summary><ul>${toc.join('')}</ul></details>
<details><summary>All schemas</summary><ul>${schemaToc.join('')}</ul></details>
${sections}
${webhooks ? `<h2>Webhooks (what this server sends)</h2>${webhooks}` : ''}
<h2 id="schemas">Schemas</h2>${renderSchemas(schemas)}
<script>${SCRIPT}</script></body></html>`;
}
