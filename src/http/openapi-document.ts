// The last pass over the generated OpenAPI document, so that generic tools (Redocly, Spectral,
// openapi-typescript, Swagger UI) read it as docs/api-behaviour.md means it. Naming scheme, for anyone
// adding routes or schemas:
//   - a schema with a `title` (TypeBox option) becomes `components.schemas.<title>` and every
//     place it appears refers to it by `$ref`. Titles are PascalCase nouns: the resource
//     (`Post`), its list entry (`PostListItem`), a page of a cursor list (`<Item>Page`), an
//     unpaged list (`<Item>List`), a request body (`New<Resource>`, `<Resource>Changes`, or
//     `<Action>Request`). Two different schemas may not share a title (start-up fails).
//   - every route sets `operationId` (camelCase verb + noun, read as an SDK method name:
//     `listPosts`, `publishPost`) and `description`; its policy's scope becomes the scope of
//     the `bearerAuth` requirement.
//   - examples of named schemas live in openapi-examples.ts.
import { COMPONENT_EXAMPLES } from './openapi-examples.js';
import { OPTIONAL_BODY } from './validation.js';

/** A JSON object of the document; the parts this pass reads are typed below. */
type Json = Record<string, unknown>;
interface Schema extends Json {
  description?: string;
}
interface Content {
  content?: Record<string, { schema?: Schema } | undefined>;
  description?: string;
}
interface Operation {
  /** Parameters of the route, or references to shared ones (Accept-Language). */
  parameters?: Array<{ in?: string; name?: string; required?: boolean; $ref?: string }>;
  requestBody?: Content & { required?: boolean };
  responses?: Record<string, Content & { headers?: Json }>;
  operationId?: string;
  description?: string;
}
type PathItem = Record<string, Operation | undefined>;
interface OpenApiDocument extends Json {
  paths?: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components?: Json & { schemas?: Record<string, Json> };
}

const SCHEMA_REF = '#/components/schemas/';

/** Our own ajv format for a date-time with an offset; in OpenAPI that is plain `date-time`. */
const OWN_FORMATS: Record<string, string> = { 'offset-date-time': 'date-time' };

/** Replaces titled schemas by references (collecting them), and maps our own formats. */
function nameSchemas(node: unknown, named: Map<string, Json>, inComponent: string | null): unknown {
  if (Array.isArray(node)) return node.map((item) => nameSchemas(item, named, null));
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Json;
  if (typeof obj.$ref === 'string') return obj;
  const out: Json = {};
  for (const [key, value] of Object.entries(obj)) {
    if (key === OPTIONAL_BODY) continue;
    // `examples` and `example` hold data, not schemas.
    out[key] = key === 'examples' || key === 'example' ? value : nameSchemas(value, named, null);
  }
  if (typeof out.format === 'string' && OWN_FORMATS[out.format]) out.format = OWN_FORMATS[out.format];
  const title = out.title;
  if (typeof title !== 'string' || title === inComponent || looksLikeNonSchema(out)) return out;
  const { description, ...schema } = out;
  const existing = named.get(title);
  if (existing && JSON.stringify(withoutDescription(existing)) !== JSON.stringify(schema)) {
    throw new Error(`OpenAPI: two different schemas are titled ${title}`);
  }
  if (!existing) named.set(title, out);
  // A description of this use (a response's) stays beside the reference.
  return description !== undefined && description !== existing?.description && description !== out.description
    ? { $ref: SCHEMA_REF + title, description }
    : { $ref: SCHEMA_REF + title };
}

const withoutDescription = ({ description: _, ...rest }: Json) => rest;
/** Parameters, headers and responses carry a `name`/`in`/`content`, never a title of ours. */
const looksLikeNonSchema = (obj: Json) => 'in' in obj || 'content' in obj;

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

function eachOperation(
  paths: Record<string, PathItem> | undefined,
  visit: (op: Operation, path: string, method: string) => void,
): void {
  for (const [path, item] of Object.entries(paths ?? {})) {
    for (const method of OPERATION_METHODS) {
      const op = item[method];
      if (op) visit(op, path, method);
    }
  }
}

/** Header parameters the service requires itself (the idempotency step), not the validator. */
const REQUIRED_HEADERS = new Set(['idempotency-key']);

const ETAG_HEADER = {
  description:
    'The post’s ETag: send it as If-Match to write only if nobody changed the post since, or as If-None-Match to re-read it cheaply',
  schema: { type: 'string' },
};
const RATE_HEADERS_NOTE = 'Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.';

/**
 * The language of error messages (src/lib/message-language.ts): a request header every operation
 * takes and a header of every error answer, described once under components.
 */
const LANGUAGE_COMPONENTS = {
  parameters: {
    AcceptLanguage: {
      in: 'header',
      name: 'Accept-Language',
      required: false,
      description:
        'The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it.',
      schema: { type: 'string', examples: ['en', 'zh-TW', 'fr;q=1, en;q=0.5'] },
    },
  },
  headers: {
    ContentLanguage: {
      description: 'The language of error.message: `zh-TW` or `en`, as Accept-Language chose',
      schema: { type: 'string', enum: ['zh-TW', 'en'] },
    },
  },
};
const ACCEPT_LANGUAGE_REF = { $ref: '#/components/parameters/AcceptLanguage' };
const CONTENT_LANGUAGE_REF = { $ref: '#/components/headers/ContentLanguage' };

function finishOperation(op: Operation, isWebhook = false): void {
  for (const parameter of op.parameters ?? []) {
    if (parameter.in === 'header' && REQUIRED_HEADERS.has(parameter.name ?? '')) parameter.required = true;
  }
  const body = op.requestBody;
  const bodySchema = body?.content?.['application/json']?.schema;
  if (body && bodySchema?.[OPTIONAL_BODY] === true) {
    body.required = false;
    if (bodySchema.description) body.description = bodySchema.description;
  }
  if (!isWebhook) op.parameters = [...(op.parameters ?? []), ACCEPT_LANGUAGE_REF];
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    if (response.description === 'Default Response' || !response.description)
      response.description = status.startsWith('2') ? 'Success' : 'Error';
    if (!isWebhook && Number(status) >= 400)
      response.headers = { ...response.headers, 'Content-Language': CONTENT_LANGUAGE_REF };
    // Answers carrying one post have its ETag.
    const schema = response.content?.['application/json']?.schema;
    if (status.startsWith('2') && schema?.title === 'Post')
      response.headers = { ...response.headers, ETag: ETAG_HEADER };
  }
  if (op.operationId === 'getPost') {
    (op.responses ??= {})['304'] = {
      description: 'Not modified: the If-None-Match ETag is still the post’s; no body',
      headers: { ETag: ETAG_HEADER },
    };
  }
  if (!isWebhook && op.description && !op.description.includes('X-Request-Id'))
    op.description = `${op.description}\n\n${RATE_HEADERS_NOTE}`;
}

/** The finished document: see the header of this file. */
export function finishDocument(doc: OpenApiDocument): Json {
  eachOperation(doc.paths, (op) => finishOperation(op));
  eachOperation(doc.webhooks, (op) => finishOperation(op, true));
  const named = new Map<string, Json>();
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    named.set(name, nameSchemas(schema, named, name) as Json);
  }
  const paths = nameSchemas(doc.paths, named, null);
  const webhooks = nameSchemas(doc.webhooks, named, null);
  // Components may name others (a page names its items): resolve until nothing new appears.
  let count = -1;
  while (count !== named.size) {
    count = named.size;
    for (const [name, schema] of [...named]) named.set(name, nameSchemas(schema, named, name) as Json);
  }
  const schemas: Json = {};
  for (const name of [...named.keys()].sort()) {
    const { $id: _, ...schema } = named.get(name) as Json;
    schemas[name] =
      COMPONENT_EXAMPLES[name] !== undefined ? { ...schema, examples: [COMPONENT_EXAMPLES[name]] } : schema;
  }
  return { ...doc, paths, webhooks, components: { ...doc.components, ...LANGUAGE_COMPONENTS, schemas } };
}
