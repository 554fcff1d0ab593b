/**
 * The API reference (`/docs`) as one server-rendered HTML page made from the OpenAPI
 * document: no script, every text escaped, tags as sections, each operation with what it
 * needs (scopes), takes (parameters, body) and answers (statuses, schemas, examples).
 */
import { escapeHtml as esc, inline, markdown } from './markdown';
import { STYLE } from './style';
import {
  isObject,
  refName,
  resolve,
  rows,
  typeLabel,
  type Json,
  type JsonObject,
  type Row,
} from './schema';

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;

export interface Operation {
  /** The id the page gives its section: `op-listUsers`. */
  anchor: string;
  method: string;
  /** A path (`/api/users`) or, for webhooks, the event (`user.created`). */
  path: string;
  tag: string;
  operation: JsonObject;
  webhook: boolean;
}

const str = (value: Json | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;
const list = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : []);
const entries = (value: Json | undefined): [string, Json][] =>
  isObject(value) ? Object.entries(value) : [];

/** Ids the page can use in `id` and `href="#…"` whatever the document names things. */
const slug = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');

/**
 * Every operation of the document (paths, then webhooks), in the document's order. */
export function operations(doc: JsonObject): Operation[] {
  const found: Operation[] = [];
  const used = new Set<string>();
  const collect = (items: Json | undefined, webhook: boolean) => {
    for (const [path, item] of entries(items)) {
      for (const method of METHODS) {
        const operation = resolve(doc, isObject(item) ? item[method] : undefined);
        if (!operation) continue;
        let anchor = `op-${slug(str(operation.operationId) ?? `${method}-${path}`)}`;
        while (used.has(anchor)) anchor += '-';
        used.add(anchor);
        // Events Chorus sends are a section apart from the operations that manage webhooks.
        const tag = webhook ? 'Webhook events' : (str(list(operation.tags)[0]) ?? 'Other');
        found.push({ anchor, method, path, tag, operation, webhook });
      }
    }
  };
  collect(doc.paths, false);
  collect(doc.webhooks, true);
  return found;
}

const WEBHOOK_EVENTS =
  'What Chorus POSTs to a subscribed endpoint, one request per event (see the Webhooks operations to subscribe).';

/** Tags in the document's declared order, then those only operations name. */
function tagSections(doc: JsonObject, ops: Operation[]) {
  const declared = list(doc.tags).filter(isObject);
  const names = [...declared.map((tag) => str(tag.name) ?? ''), ...ops.map((op) => op.tag)].filter(
    (name, i, all) => name && all.indexOf(name) === i,
  );
  return names.map((name) => ({
    name,
    anchor: `tag-${slug(name)}`,
    description:
      str(declared.find((tag) => tag.name === name)?.description) ??
      (name === 'Webhook events' ? WEBHOOK_EVENTS : undefined),
    ops: ops.filter((op) => op.tag === name),
  }));
}

/**
 * A schema's fields as a table. `fold`: in a `<details>` saying how many. An operation's
 * tables, nested schemas spelled out, are most of the page (thousands of rows): folded, the
 * reference reads as a list of operations and renders fast, and a browser's find-in-page still
 * opens them. The Schemas section, where links land, stays open.
 */
function fieldTable(
  doc: JsonObject,
  schema: Json | undefined,
  caption: string,
  { expandNamed = true, fold = false } = {},
): string {
  const found = rows(doc, schema, { expandNamed });
  if (!found.length) return '';
  // Folded, the summary says what the caption would: the caption stays for screen readers.
  const table = fieldRows(
    found,
    `<caption${fold ? ' class="visually-hidden"' : ''}>${esc(caption)}</caption>`,
  );
  if (!fold) return table;
  const count = `${found.length} field${found.length === 1 ? '' : 's'}`;
  return `<details class="fields"><summary>${esc(caption)}: ${count}</summary>${table}</details>`;
}

/** The table of `found`, under `captionHtml` (its `<caption>` element). */
function fieldRows(found: Row[], captionHtml: string): string {
  const body = found
    .map((row) => {
      const required = row.required ? ' <span class="req">required</span>' : '';
      const field = row.path ? `<code class="field">${esc(row.path)}</code><br>` : '';
      const notes = row.notes.length
        ? `<p class="notes">${row.notes.map((note) => esc(note)).join('; ')}</p>`
        : '';
      const type = row.named
        ? esc(row.type).replace(
            esc(row.named),
            `<a href="#schema-${slug(row.named)}">${esc(row.named)}</a>`,
          )
        : esc(row.type);
      return `<tr><th scope="row">${field}${type}${required}</th><td>${markdown(row.description)}${notes}</td></tr>`;
    })
    .join('');
  return `<table>${captionHtml}<thead><tr><th scope="col">Field and type</th><th scope="col">Description</th></tr></thead><tbody>${body}</tbody></table>`;
}

function parameterTable(doc: JsonObject, operation: JsonObject): string {
  const params = list(operation.parameters)
    .map((p) => resolve(doc, p))
    .filter((p): p is JsonObject => p !== undefined);
  if (!params.length) return '';
  const body = params
    .map((param) => {
      const required = param.required === true ? ' <span class="req">required</span>' : '';
      const schema = resolve(doc, param.schema);
      const description = str(param.description) ?? str(schema?.description);
      const notes = rows(doc, param.schema)[0]?.notes ?? [];
      const extra = notes.length
        ? `<p class="notes">${notes.map((n) => esc(n)).join('; ')}</p>`
        : '';
      return `<tr><th scope="row"><code class="field">${esc(str(param.name) ?? '')}</code><br>${esc(str(param.in) ?? '')}, ${esc(typeLabel(doc, param.schema))}${required}</th><td>${markdown(description)}${extra}</td></tr>`;
    })
    .join('');
  return `<h4>Parameters</h4><table><caption class="visually-hidden">Parameters</caption><thead><tr><th scope="col">Name, place and type</th><th scope="col">Description</th></tr></thead><tbody>${body}</tbody></table>`;
}

function examples(media: JsonObject): string {
  const shown: string[] = [];
  if (media.example !== undefined)
    shown.push(`<pre><code>${esc(JSON.stringify(media.example, null, 2))}</code></pre>`);
  for (const [name, example] of entries(media.examples)) {
    if (!isObject(example) || example.value === undefined) continue;
    const title = str(example.summary) ?? name;
    shown.push(
      `<p>Example: ${inline(title)}</p><pre><code>${esc(JSON.stringify(example.value, null, 2))}</code></pre>`,
    );
  }
  return shown.join('');
}

/** Media types with the same schema (JSON and its form twin) are shown once, together. */
function content(
  doc: JsonObject,
  value: Json | undefined,
  caption: string,
  expandNamed = true,
): string {
  const groups = new Map<string, { types: string[]; media: JsonObject }>();
  for (const [type, media] of entries(value)) {
    if (!isObject(media)) continue;
    const key = JSON.stringify(media.schema ?? null);
    const group = groups.get(key);
    if (group) group.types.push(type);
    else groups.set(key, { types: [type], media });
  }
  return [...groups.values()]
    .map(({ types, media }) => {
      const name = refName(media.schema);
      const named = name ? ` (<a href="#schema-${slug(name)}">${esc(name)}</a>)` : '';
      return `<p class="meta">${types.map((t) => `<code>${esc(t)}</code>`).join(' or ')}${named}</p>${fieldTable(doc, media.schema, caption, { expandNamed, fold: true })}${examples(media)}`;
    })
    .join('');
}

/** Who may call: scopes from the OAuth requirement, or none for public operations. */
function access(doc: JsonObject, operation: JsonObject): string {
  const security = operation.security ?? doc.security;
  if (Array.isArray(security) && security.length === 0) {
    return '<p class="meta">No authentication.</p>';
  }
  const scopes = list(security)
    .flatMap((req) => entries(req).flatMap(([, s]) => list(s)))
    .filter((s): s is string => typeof s === 'string');
  if (!scopes.length) return '';
  const named = [...new Set(scopes)].map((s) => `<code>${esc(s)}</code>`).join(', ');
  return `<p class="meta">Bearer token (API key or OAuth access token); scopes: ${named}.</p>`;
}

/** An answer whose body is the error envelope: told in the errors table, not one by one. */
const isError = (doc: JsonObject, response: JsonObject) =>
  entries(response.content).some(
    ([, media]) =>
      isObject(media) &&
      // The envelope itself, or narrowed (`allOf` of it and the operation's codes).
      (refName(media.schema) === 'Error' ||
        (isObject(media.schema) && refName(list(media.schema.allOf)[0]) === 'Error')),
  );

function responses(doc: JsonObject, operation: JsonObject): string {
  const all = entries(operation.responses)
    .map(([status, answer]) => [status, resolve(doc, answer)] as const)
    .filter((pair): pair is readonly [string, JsonObject] => pair[1] !== undefined);
  const successes = all
    .filter(([, response]) => !isError(doc, response))
    .map(([status, response]) => {
      const headers = entries(response.headers)
        .map(([name]) => `<code>${esc(name)}</code>`)
        .join(', ');
      return `<h5>${esc(status)}</h5>${markdown(str(response.description))}${headers ? `<p class="meta">Headers: ${headers}</p>` : ''}${content(doc, response.content, `Body of ${status}`)}`;
    })
    .join('');
  const errors = all
    .filter(([, response]) => isError(doc, response))
    .map(
      ([status, response]) =>
        `<tr><th scope="row">${esc(status)}</th><td>${inline(str(response.description) ?? '')}</td></tr>`,
    )
    .join('');
  const errorTable = errors
    ? `<h5>Errors</h5><p class="meta">Bodies are the <a href="#schema-Error">Error</a> envelope.</p><table><caption class="visually-hidden">Errors</caption><thead><tr><th scope="col">Status</th><th scope="col">Codes</th></tr></thead><tbody>${errors}</tbody></table>`
    : '';
  return successes || errorTable ? `<h4>Responses</h4>${successes}${errorTable}` : '';
}

function operationSection(doc: JsonObject, op: Operation): string {
  const { operation } = op;
  const summary = str(operation.summary);
  const body = resolve(doc, operation.requestBody);
  const requestBody = body
    ? `<h4>Request body${body.required === true ? ' <span class="req">(required)</span>' : ''}</h4>${markdown(str(body.description))}${content(doc, body.content, 'Request body', !op.webhook)}`
    : '';
  const title = `<span class="method ${op.method}">${op.webhook ? 'EVENT' : op.method.toUpperCase()}</span> <span class="path">${esc(op.path)}</span>${summary ? ` <span class="summary">${inline(summary)}</span>` : ''}`;
  return `<section class="op" id="${op.anchor}"><h3 id="${op.anchor}-h">${title}</h3>${operation.deprecated === true ? '<p class="meta"><strong>Deprecated.</strong></p>' : ''}${op.webhook ? '' : access(doc, operation)}${markdown(str(operation.description))}${parameterTable(doc, operation)}${requestBody}${responses(doc, operation)}</section>`;
}

function schemaSections(doc: JsonObject): string {
  const schemas = entries(isObject(doc.components) ? doc.components.schemas : undefined);
  if (!schemas.length) return '';
  const items = schemas
    .map(([name, schema]) => {
      const description = isObject(schema) ? str(schema.description) : undefined;
      return `<section id="schema-${slug(name)}"><h3>${esc(name)}</h3>${markdown(description)}${fieldTable(doc, schema, name, { expandNamed: false })}</section>`;
    })
    .join('');
  return `<section id="schemas" aria-labelledby="schemas-h"><h2 id="schemas-h">Schemas</h2>${items}</section>`;
}

/** The security schemes: how to authenticate, the OAuth endpoints and every scope. */
function authentication(doc: JsonObject): string {
  const schemes = entries(isObject(doc.components) ? doc.components.securitySchemes : undefined);
  if (!schemes.length) return '';
  const items = schemes
    .map(([name, value]) => {
      const scheme = resolve(doc, value);
      if (!scheme) return '';
      const flows = entries(scheme.flows)
        .map(([flow, value]) => {
          if (!isObject(value)) return '';
          const urls = ['authorizationUrl', 'tokenUrl', 'refreshUrl']
            .filter((key) => typeof value[key] === 'string')
            .map((key) => `<li>${esc(key)}: <code>${esc(String(value[key]))}</code></li>`)
            .join('');
          const scopes = entries(value.scopes)
            .map(
              ([scope, what]) =>
                `<tr><th scope="row"><code>${esc(scope)}</code></th><td>${inline(String(what))}</td></tr>`,
            )
            .join('');
          return `<p>Flow: <code>${esc(flow)}</code></p><ul>${urls}</ul>${scopes ? `<table><caption>Scopes</caption><thead><tr><th scope="col">Scope</th><th scope="col">Allows</th></tr></thead><tbody>${scopes}</tbody></table>` : ''}`;
        })
        .join('');
      return `<h3>${esc(name)} (${esc(str(scheme.type) ?? '')}${scheme.scheme ? ` ${esc(String(scheme.scheme))}` : ''})</h3>${markdown(str(scheme.description))}${flows}`;
    })
    .join('');
  return `<section id="authentication" aria-labelledby="authentication-h"><h2 id="authentication-h">Authentication</h2>${items}</section>`;
}

/** The whole page. `documentUrl` is where tools fetch the same document as JSON. */
export function renderReference(doc: JsonObject, documentUrl: string): string {
  const info = isObject(doc.info) ? doc.info : {};
  const title = `${str(info.title) ?? 'API'} reference`;
  const ops = operations(doc);
  const sections = tagSections(doc, ops);
  const toc = sections
    .map(
      (tag) =>
        `<li><a href="#${tag.anchor}">${esc(tag.name)}</a><ul>${tag.ops
          .map(
            (op) =>
              `<li><a href="#${op.anchor}">${op.webhook ? '' : `${op.method.toUpperCase()} `}${esc(op.path)}</a></li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('');
  const body = sections
    .map(
      (tag) =>
        `<section id="${tag.anchor}" aria-labelledby="${tag.anchor}-h"><h2 id="${tag.anchor}-h">${esc(tag.name)}</h2>${markdown(tag.description)}${tag.ops.map((op) => operationSection(doc, op)).join('')}</section>`,
    )
    .join('');
  const version = str(info.version);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><h1>${esc(title)}</h1><p>${version ? `Version ${esc(version)}. ` : ''}The same document for tools (OpenAPI 3.1, JSON): <a href="${esc(documentUrl)}">${esc(documentUrl)}</a></p></header>
<div class="layout">
<nav class="toc" aria-label="Contents"><ul><li><a href="#overview">Overview</a></li><li><a href="#authentication">Authentication</a></li>${toc}<li><a href="#schemas">Schemas</a></li></ul></nav>
<main id="main" tabindex="-1">
<section id="overview" aria-labelledby="overview-h"><h2 id="overview-h">Overview</h2>${markdown(str(info.description))}</section>
${authentication(doc)}
${body}
${schemaSections(doc)}
</main>
</div>
<footer><p>Made from <a href="${esc(documentUrl)}">the OpenAPI document</a> this server answers.</p></footer>
</body>
</html>`;
}
