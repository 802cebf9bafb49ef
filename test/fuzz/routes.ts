// The /v1 routes the app serves, read from the running app itself (its router) and joined with
// their request schemas from GET /v1/openapi.json, so a route added later is fuzzed without
// anyone listing it here.
import type { FastifyInstance } from 'fastify';

export interface FuzzRoute {
  method: string;
  /** Router syntax, e.g. `/v1/blog/posts/:id`. */
  url: string;
  /** Path parameter names in order. */
  params: string[];
  /** From the OpenAPI operation, when it is described there. */
  operation?: OpenApiOperation;
}

export interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: JsonSchema }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
}

export type JsonSchema = Record<string, any>;

/**
 * Every method and path the router holds, from `printRoutes()`. The output is the radix tree:
 * a child's text continues its parent's, and indentation (4 characters a level) is the depth.
 */
export function routerRoutes(app: FastifyInstance): Array<{ method: string; url: string }> {
  const prefixes: string[] = [];
  const out: Array<{ method: string; url: string }> = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^(.*?)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    const url = (prefixes[depth - 1] ?? '') + m[2];
    prefixes[depth] = url;
    prefixes.length = depth + 1;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) out.push({ method, url });
  }
  return out;
}

type OpenApiDocument = {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: Record<string, Record<string, JsonSchema> | undefined>;
};

/**
 * The operation with its references (`#/components/schemas/…`, `#/components/parameters/…`)
 * replaced by what they name.
 */
function inlineRefs(node: unknown, doc: OpenApiDocument): any {
  if (Array.isArray(node)) return node.map((item) => inlineRefs(item, doc));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as JsonSchema).$ref;
  if (typeof ref === 'string') {
    const [, , kind, name] = ref.split('/');
    const target = doc.components?.[kind as string]?.[name as string];
    if (target === undefined) throw new Error(`the OpenAPI document names ${ref}, which it does not hold`);
    return inlineRefs(target, doc);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'examples' ? v : inlineRefs(v, doc)]));
}

/** The /v1 routes (HEAD left out: Fastify answers it with the GET route's handler). */
export function v1Routes(app: FastifyInstance, openapi: OpenApiDocument): FuzzRoute[] {
  return routerRoutes(app)
    .filter((r) => r.url.startsWith('/v1/') && r.method !== 'HEAD')
    .map((r) => {
      const params = [...r.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
      const openapiPath = r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      return { ...r, params, operation: inlineRefs(openapi.paths[openapiPath]?.[r.method.toLowerCase()], openapi) };
    })
    .sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));
}
