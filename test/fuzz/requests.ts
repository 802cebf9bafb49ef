// Fuzz cases for one route, in three families, and how a case becomes bytes on the wire.
// A case is plain data (fast-check shrinks it); references to live records are `Ref`s resolved
// against the world only when the request is built, so a case names "the second post" rather
// than an id that another run would not have.
import fc from 'fast-check';
import type { FuzzRoute, JsonSchema } from './routes.js';
import type { World } from './world.js';
import type { RawRequest } from './raw-http.js';
import {
  costlyBody,
  fromSchema,
  hostileKey,
  hostileString,
  hostileText,
  hostileValue,
  mutate,
  mutation,
  rawBadBody,
  type FieldRefs,
  type Mutation,
} from './hostile.js';

type Pool =
  | 'post'
  | 'category'
  | 'image'
  | 'imageUrl'
  | 'cursor'
  | 'token'
  | 'otherPost'
  | 'otherImage'
  | 'otherImageUrl'
  | 'otherCategory';

export class Ref {
  constructor(
    readonly pool: Pool,
    readonly pick: number,
  ) {}
}

const ref = (pool: Pool) => fc.nat().map((n) => new Ref(pool, n));

type Auth = 'main' | 'none' | 'readOnly' | 'stranger' | 'noFeatures' | { raw: string };

type Segment = { ref: Ref; template?: string } | { value: unknown } | { raw: string };

type Body =
  { json: unknown; mutations: Mutation[] } | { raw: string } | { oversized: number } | { multipart: MultipartSpec };

interface MultipartSpec {
  parts: Array<{
    name: string;
    filename?: string;
    contentType?: string;
    data: { image: number } | { bytes: number[] } | { truncatedImage: number };
  }>;
  boundary: string;
  /** How the Content-Type names the boundary. */
  header: 'normal' | 'missing' | 'other' | 'quoted';
}

export type HeaderMutation =
  | { kind: 'header'; name: string; value: string }
  | { kind: 'manyHeaders'; count: number }
  | { kind: 'method'; value: string }
  | { kind: 'noHost' }
  | { kind: 'twoHosts' }
  | { kind: 'contentLength'; value: string }
  | { kind: 'chunked'; variant: 'valid' | 'badSize' | 'withLength' | 'badCoding' }
  | { kind: 'version'; value: string }
  | { kind: 'folded' }
  | { kind: 'rawTarget'; suffix: string };

export interface FuzzCase {
  auth: Auth;
  segments: Segment[];
  pathTweak: string | null;
  query: Array<[string, unknown]>;
  /** Written as is after `?`, instead of `query`. */
  rawQuery: string | null;
  body: Body | null;
  contentType: string | null | undefined;
  idempotencyKey: string | null | undefined;
  headers: HeaderMutation[];
}

// ---------------------------------------------------------------------------------------------
// Pieces

const authArb: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 12, arbitrary: fc.constant('main' as const) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('none' as const, 'readOnly' as const, 'stranger' as const, 'noFeatures' as const),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'bearer svc_live_abcdefgh_',
          'Basic dXNlcjpwYXNz',
          'Bearer svc_live_00000000_00000000000000000000000000000000',
          'Token x',
          'Bearer\tkey',
        ),
        hostileText.map((s) => `Bearer ${s}`),
      )
      .map((raw) => ({ raw })),
  },
);

/** Which pool a route's path parameter draws from: by the resource the path names. */
function poolsFor(route: FuzzRoute): { own: Pool; other: Pool } | null {
  if (route.url.includes('/media/images')) return { own: 'image', other: 'otherImage' };
  if (route.url.includes('/blog/posts')) return { own: 'post', other: 'otherPost' };
  if (route.url.includes('/blog/categories')) return { own: 'category', other: 'otherCategory' };
  return null;
}

function validSegment(route: FuzzRoute): fc.Arbitrary<Segment> {
  const pools = poolsFor(route);
  if (!pools) return fc.oneof(hostileString, fc.nat()).map((value) => ({ value }));
  return fc.oneof(
    { weight: 8, arbitrary: ref(pools.own).map((r) => ({ ref: r })) },
    { weight: 1, arbitrary: ref(pools.other).map((r) => ({ ref: r })) },
  );
}

/** Path parameters a router and validator must survive: encodings, sizes, numbers in disguise. */
const hostileSegment: fc.Arbitrary<Segment> = fc.oneof(
  fc
    .oneof(hostileString, fc.integer(), fc.double({ noNaN: true }), fc.constantFrom(0, -1, 2 ** 53, 2 ** 53 + 1, 1e21))
    .map((value) => ({ value })),
  fc
    .constantFrom(
      '%',
      '%%',
      '%zz',
      '%E0%A4%A',
      '%C0%AF',
      '%ED%A0%80',
      '%00',
      '%2F',
      '%2e%2e',
      '..',
      '.',
      '0x1F',
      '1e3',
      'img_',
      'img_%00',
    )
    .map((raw) => ({ raw })),
  // A live id written the ways lenient parsers read as that number.
  fc
    .tuple(
      ref('post'),
      fc.constantFrom('+{}', '0{}', '{}.0', '{}%20', '%20{}', '{}%00', '{};x=1', '{},2', '{}e0', '{}.'),
    )
    .map(([r, template]) => ({ ref: r, template })),
  fc
    .tuple(fc.constantFrom('x', '1', 'é', '%41'), fc.integer({ min: 150, max: 400 }))
    .map(([s, n]) => ({ raw: s.repeat(n) })),
);

const pathTweakArb = fc.constantFrom(
  'upper',
  'trailingSlash',
  'doubleSlash',
  'dotSegment',
  'dotDot',
  'extraSegment',
  'encodedSlash',
  'matrix',
  'absoluteForm',
  'asterisk',
  'noLeadingSlash',
  'emptyQuery',
  'fragment',
);

function queryArb(route: FuzzRoute, refs: FieldRefs): fc.Arbitrary<Array<[string, unknown]>> {
  const params = (route.operation?.parameters ?? []).filter((p) => p.in === 'query');
  const valid = fc
    .tuple(...params.map((p) => fc.option(fromSchema(p.schema, refs, p.name), { nil: undefined, freq: 2 })))
    .map((values) =>
      values.flatMap((v, i): Array<[string, unknown]> => (v === undefined ? [] : [[params[i].name, v]])),
    );
  const extras = fc.array(
    fc.oneof(
      fc.tuple(hostileKey, hostileValue),
      fc.tuple(fc.constantFrom(...(params.length ? params.map((p) => p.name) : ['limit'])), hostileValue),
      fc.tuple(
        fc.constantFrom('__proto__[x]', 'constructor[prototype][x]', 'a[b][c]', 'limit[]', 'cursor[]', 'status[$ne]'),
        hostileString,
      ),
    ),
    { maxLength: 3 },
  );
  return fc
    .tuple(
      valid,
      fc.oneof({ weight: 3, arbitrary: fc.constant([] as Array<[string, unknown]>) }, { weight: 2, arbitrary: extras }),
    )
    .map(([a, b]) => [...a, ...b]);
}

const contentTypeArb = fc.oneof(
  { weight: 10, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      null,
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=utf-16',
      'application/json;charset=latin1',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      'application/vnd.api+json',
      'application/octet-stream',
      '*/*',
      '',
      'application/json, text/plain',
      'application/json; boundary="',
      'image/png',
    ),
  },
);

function bodyArb(route: FuzzRoute, refs: FieldRefs, withMutations: boolean): fc.Arbitrary<Body | null> {
  const content = route.operation?.requestBody?.content ?? {};
  if (content['multipart/form-data']) return multipartArb(withMutations);
  const schema: JsonSchema | undefined = content['application/json']?.schema;
  const valid = schema ? fromSchema(schema, refs) : fc.constant(undefined);
  const mutations = withMutations ? fc.array(mutation, { maxLength: 3 }) : fc.constant([] as Mutation[]);
  const json = fc
    .tuple(valid, mutations)
    .map(([v, m]): Body | null => (v === undefined && m.length === 0 ? null : { json: v, mutations: m }));
  if (!withMutations)
    return schema && route.operation?.requestBody?.required !== false ? json : fc.oneof(json, fc.constant(null));
  return fc.oneof(
    { weight: schema ? 8 : 2, arbitrary: json },
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: rawBadBody.map((raw) => ({ raw })) },
    { weight: 1, arbitrary: fc.constantFrom(70 * 1024, 300 * 1024).map((oversized) => ({ oversized })) },
    { weight: 2, arbitrary: costlyBody.map((raw) => ({ raw })) },
  );
}

function multipartArb(withMutations: boolean): fc.Arbitrary<Body | null> {
  const filePart = fc.record({
    name: withMutations
      ? fc.oneof({ weight: 5, arbitrary: fc.constant('file') }, { weight: 1, arbitrary: hostileText })
      : fc.constant('file'),
    filename: withMutations
      ? fc.oneof({ weight: 4, arbitrary: fc.constant('photo.jpg') }, { weight: 1, arbitrary: hostileText })
      : fc.constant('photo.jpg'),
    contentType: withMutations
      ? fc.constantFrom('image/jpeg', 'application/octet-stream', 'text/html', 'image/svg+xml', '')
      : fc.constant('image/jpeg'),
    data: withMutations
      ? fc.oneof(
          { weight: 4, arbitrary: fc.nat().map((image) => ({ image })) },
          {
            weight: 1,
            arbitrary: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }).map((bytes) => ({ bytes })),
          },
          { weight: 1, arbitrary: fc.nat().map((truncatedImage) => ({ truncatedImage })) },
        )
      : fc.nat().map((image) => ({ image })),
  });
  const fieldPart = fc.record({
    name: hostileText,
    data: fc.array(fc.integer({ min: 32, max: 126 }), { maxLength: 20 }).map((bytes) => ({ bytes })),
  });
  const parts = withMutations
    ? fc.oneof(
        { weight: 5, arbitrary: filePart.map((p) => [p]) },
        { weight: 2, arbitrary: fc.array(fc.oneof(filePart, fieldPart), { maxLength: 7 }) },
      )
    : filePart.map((p) => [p]);
  return fc
    .record({
      parts,
      boundary: fc.oneof(
        { weight: 5, arbitrary: fc.constant('fuzzBoundary7MA4YWxkTrZu0gW') },
        { weight: 1, arbitrary: fc.constantFrom('a', '--', 'x'.repeat(80), ' b ', 'é') },
      ),
      header: withMutations
        ? fc.constantFrom('normal', 'normal', 'normal', 'missing', 'other', 'quoted')
        : fc.constant('normal' as const),
    })
    .map((multipart) => ({ multipart: multipart as MultipartSpec }));
}

const idempotencyArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom(null, '', ' ', 'fuzz-reused', 'k'.repeat(256), 'ключ', 'a\u0001b') },
  { weight: 1, arbitrary: hostileText },
);

// ---------------------------------------------------------------------------------------------
// Header and framing mutations

const CONTROL_BYTES = [...Array(32).keys()]
  .filter((b) => b !== 9)
  .map((b) => String.fromCharCode(b))
  .concat('\u007f');

const headerValueArb = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
  fc
    .tuple(fc.string({ unit: 'grapheme-ascii', maxLength: 10 }), fc.constantFrom(...CONTROL_BYTES))
    .map(([s, c]) => `${s}${c}x`),
  fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 8 }).map((b) => String.fromCharCode(...b)),
  fc.integer({ min: 8 * 1024, max: 40 * 1024 }).map((n) => 'h'.repeat(n)),
  fc.constantFrom(
    'svc_live_abcdefgh_0123456789abcdefghijklmnopqrstuv',
    'gzip',
    'chunked',
    '100-continue',
    'websocket',
    'bytes=0-1',
    '*',
    '',
  ),
);

const headerNameArb = fc.oneof(
  fc.constantFrom(
    'X-Fuzz',
    'X-Request-Id',
    'Idempotency-Key',
    'Authorization',
    'Accept',
    'Accept-Encoding',
    'Accept-Charset',
    'Content-Type',
    'Content-Encoding',
    'Cookie',
    'User-Agent',
    'Origin',
    'X-Forwarded-For',
    'X-Forwarded-Proto',
    'If-None-Match',
    'If-Modified-Since',
    'Range',
    'Expect',
    'Upgrade',
    'TE',
    'Trailer',
    'X-HTTP-Method-Override',
  ),
  fc.constantFrom('X Bad', 'X:Bad', 'X\u0001', 'é', '(x)', 'X-' + 'n'.repeat(300)),
);

export const headerMutationArb: fc.Arbitrary<HeaderMutation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('header' as const), name: headerNameArb, value: headerValueArb }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('manyHeaders' as const), count: fc.integer({ min: 50, max: 2500 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('method' as const),
      value: fc.constantFrom(
        'FOO',
        'get',
        'PROPFIND',
        'TRACE',
        'OPTIONS',
        'PUT',
        'GET',
        'POST',
        'PATCH',
        'DELETE',
        'HEAD',
        'M-SEARCH',
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom({ kind: 'noHost' as const }, { kind: 'twoHosts' as const }, { kind: 'folded' as const }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('contentLength' as const),
      value: fc.constantFrom('abc', '-1', '1.5', ' 1', '0x10', '0', '1, 2', ''),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('chunked' as const),
      variant: fc.constantFrom('valid' as const, 'badSize' as const, 'withLength' as const, 'badCoding' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('version' as const),
      value: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.2', 'HTTP/0.9', 'http/1.1'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('rawTarget' as const),
      suffix: fc.constantFrom(' x', '\u0001', 'é', '\u00ff', '\t', '"', '<>', '{}', '|', '^', '`'),
    }),
  },
);

// ---------------------------------------------------------------------------------------------
// Families

export type Family = 'body and query' | 'path' | 'headers and framing';

function fieldRefs(): FieldRefs {
  const categoryRef = fc.oneof(
    { weight: 6, arbitrary: ref('category') },
    { weight: 1, arbitrary: ref('otherCategory') },
  );
  return {
    category_ids: fc.array(categoryRef, { maxLength: 3 }),
    default_category_id: categoryRef,
    parent_id: categoryRef,
    cover_image_url: fc.oneof(
      { weight: 6, arbitrary: ref('imageUrl') },
      { weight: 1, arbitrary: ref('otherImageUrl') },
    ),
    confirmation_token: ref('token'),
    cursor: ref('cursor'),
    body_html: fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }).map((s) => `<p>${s}</p>`),
      fc.constantFrom(
        '<script>alert(1)</script><p>x</p>',
        '<p onclick="x()">a</p>',
        '<a href="javascript:alert(1)">a</a>',
        '<img src="/x.png">',
        '<p>unclosed',
        '<!-- c --><p>x</p>',
        '<svg><use href="#x"/></svg>',
      ),
    ),
  };
}

export function caseArb(route: FuzzRoute, family: Family): fc.Arbitrary<FuzzCase> {
  const refs = fieldRefs();
  const hostile = family === 'body and query';
  const segments = fc.tuple(
    ...route.params.map(() =>
      family === 'path'
        ? fc.oneof({ weight: 4, arbitrary: hostileSegment }, { weight: 1, arbitrary: validSegment(route) })
        : validSegment(route),
    ),
  );
  return fc.record({
    auth: family === 'body and query' ? authArb : fc.constant('main' as const),
    segments,
    pathTweak: family === 'path' ? fc.option(pathTweakArb, { nil: null, freq: 2 }) : fc.constant(null),
    query: hostile ? queryArb(route, refs) : fc.constant([]),
    rawQuery: hostile
      ? fc.option(
          fc.constantFrom(
            '%',
            '%%',
            'limit=%zz',
            'a=%ED%A0%80',
            '&&&',
            '=',
            'a==b',
            'limit=1&limit=2&limit=3',
            '?',
            'x'.repeat(6000),
          ),
          { nil: null, freq: 8 },
        )
      : fc.constant(null),
    body: bodyArb(route, refs, hostile),
    contentType: hostile ? contentTypeArb : fc.constant(undefined),
    idempotencyKey: hostile ? idempotencyArb : fc.constant(undefined),
    headers:
      family === 'headers and framing' ? fc.array(headerMutationArb, { minLength: 1, maxLength: 3 }) : fc.constant([]),
  });
}

// ---------------------------------------------------------------------------------------------
// Building the bytes

let sequence = 0;

function pick<T>(pool: T[], n: number, fallback: T): T {
  return pool.length ? pool[n % pool.length] : fallback;
}

function resolveRef(r: Ref, w: World): unknown {
  switch (r.pool) {
    case 'post':
      return pick(w.posts, r.pick, 1);
    case 'category':
      return pick(w.categories, r.pick, 1);
    case 'image':
      return pick(w.images, r.pick, 'img_none');
    case 'imageUrl':
      return pick(w.imageUrls, r.pick, 'http://blog.test/media/x/none.jpg');
    case 'cursor':
      return pick(w.cursors, r.pick, 'none');
    case 'token':
      return pick(w.tokens, r.pick, 'no-token-issued');
    case 'otherPost':
      return w.other.postId;
    case 'otherImage':
      return w.other.imageId;
    case 'otherImageUrl':
      return w.other.imageUrl;
    case 'otherCategory':
      return w.other.categoryId;
  }
}

/** Replaces refs deeply; rebuilt objects keep `__proto__` and friends as own keys. */
export function resolve(value: unknown, w: World): unknown {
  if (value instanceof Ref) return resolveRef(value, w);
  if (Array.isArray(value)) return value.map((v) => resolve(v, w));
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, { value: resolve(v, w), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** encodeURIComponent, except that a lone surrogate is written as its (invalid) UTF-8 bytes. */
export function encodeComponent(s: string): string {
  let out = '';
  for (const piece of s.match(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g) ?? []) {
    const cu = piece.charCodeAt(0);
    if (piece.length === 1 && cu >= 0xd800 && cu <= 0xdfff) {
      out += [0xe0 | (cu >> 12), 0x80 | ((cu >> 6) & 0x3f), 0x80 | (cu & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(piece);
  }
  return out;
}

const asText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'));

function segmentText(seg: Segment, w: World): string {
  const text =
    'raw' in seg
      ? seg.raw
      : 'ref' in seg && seg.template
        ? seg.template.replace('{}', String(resolveRef(seg.ref, w)))
        : encodeComponent(asText('ref' in seg ? resolveRef(seg.ref, w) : seg.value));
  // The sentinel post and its categories are only ever reached through the records that use
  // them, never addressed themselves, however a segment might be read as a number (a hostile
  // integer is often small, and their ids are small on a fresh database: one run renamed the
  // sentinel's category through PATCH /v1/blog/categories/11).
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    // left as sent
  }
  const asNumber = decoded.trim() !== '' ? Number(decoded.trim()) : NaN;
  return asNumber === w.sentinelPostId || w.sentinelCategories.includes(asNumber)
    ? String(asNumber + 10_000_000)
    : text;
}

function tweakPath(path: string, tweak: string | null): string {
  switch (tweak) {
    case 'upper':
      return path.toUpperCase();
    case 'trailingSlash':
      return `${path}/`;
    case 'doubleSlash':
      return path.replace('/v1/', '/v1//');
    case 'dotSegment':
      return path.replace('/v1/', '/v1/./');
    case 'dotDot':
      return path.replace('/v1/', '/v1/x/../');
    case 'extraSegment':
      return `${path}/extra`;
    case 'encodedSlash':
      return path.replace(/\/(?=[^/]*$)/, '%2F');
    case 'matrix':
      return `${path};a=b`;
    case 'absoluteForm':
      return `http://blog.test${path}`;
    case 'asterisk':
      return '*';
    case 'noLeadingSlash':
      return path.slice(1);
    case 'emptyQuery':
      return `${path}?`;
    case 'fragment':
      return `${path}#frag`;
    default:
      return path;
  }
}

function multipartBytes(spec: MultipartSpec, w: World): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of spec.parts) {
    let head = `--${spec.boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    let data: Buffer;
    if ('image' in part.data) data = pick(w.imageFiles, part.data.image, Buffer.alloc(0));
    else if ('truncatedImage' in part.data) {
      const image = pick(w.imageFiles, part.data.truncatedImage, Buffer.alloc(0));
      data = image.subarray(0, Math.floor(image.length / 2));
    } else data = Buffer.from(part.data.bytes);
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${spec.boundary}--\r\n`));
  const contentType =
    spec.header === 'missing'
      ? 'multipart/form-data'
      : spec.header === 'other'
        ? 'multipart/form-data; boundary=not-the-one'
        : spec.header === 'quoted'
          ? `multipart/form-data; boundary="${spec.boundary}"`
          : `multipart/form-data; boundary=${spec.boundary}`;
  return { body: Buffer.concat(chunks), contentType };
}

export interface BuiltRequest {
  raw: RawRequest;
  method: string;
  /** Short text for failure messages. */
  summary: string;
}

export function buildRequest(route: FuzzRoute, c: FuzzCase, w: World): BuiltRequest {
  let i = 0;
  let path = route.url.replace(/:([A-Za-z0-9_]+)/g, () => segmentText(c.segments[i++], w));
  path = tweakPath(path, c.pathTweak);
  const query =
    c.rawQuery ?? c.query.map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(asText(resolve(v, w)))}`).join('&');
  let target = query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;

  let body: Buffer | undefined;
  let contentType: string | undefined;
  if (c.body) {
    if ('json' in c.body) {
      body = Buffer.from(JSON.stringify(mutate(resolve(c.body.json, w), c.body.mutations)) ?? 'null', 'utf8');
      contentType = 'application/json';
    } else if ('raw' in c.body) {
      body = Buffer.from(c.body.raw, 'utf8');
      contentType = 'application/json';
    } else if ('oversized' in c.body) {
      body = Buffer.from(JSON.stringify({ title: 'Big', body_html: `<p>${'x'.repeat(c.body.oversized)}</p>` }), 'utf8');
      contentType = 'application/json';
    } else {
      const built = multipartBytes(c.body.multipart, w);
      body = built.body;
      contentType = built.contentType;
    }
  }
  if (c.contentType !== undefined) contentType = c.contentType ?? undefined;

  let method = route.method;
  let version: string | undefined;
  const headers: Array<[string, string]> = [
    ['Host', `127.0.0.1:${w.port}`],
    ['Connection', 'close'],
  ];
  const auth = c.auth;
  if (typeof auth === 'object') headers.push(['Authorization', auth.raw]);
  else if (auth !== 'none') headers.push(['Authorization', `Bearer ${w.keys[auth]}`]);
  if (contentType !== undefined) headers.push(['Content-Type', contentType]);
  const wantsIdempotency = route.operation?.parameters?.some(
    (p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
  );
  if (c.idempotencyKey === undefined) {
    if (wantsIdempotency) headers.push(['Idempotency-Key', `fuzz-${process.pid}-${++sequence}`]);
  } else if (c.idempotencyKey !== null) headers.push(['Idempotency-Key', c.idempotencyKey]);

  let framing: 'length' | 'chunked' | 'badSize' | 'withLength' | 'badCoding' = 'length';
  let lengthOverride: string | undefined;
  for (const m of c.headers) {
    if (m.kind === 'header') headers.push([m.name, m.value]);
    else if (m.kind === 'manyHeaders') for (let n = 0; n < m.count; n++) headers.push([`X-Many-${n}`, 'v']);
    else if (m.kind === 'method') method = m.value;
    else if (m.kind === 'noHost') {
      // Only the Host line: a second noHost once took the last line instead (findIndex's -1),
      // which was Connection: close, and the exchange then stayed open for keep-alive.
      const at = headers.findIndex(([n]) => n === 'Host');
      if (at >= 0) headers.splice(at, 1);
    } else if (m.kind === 'twoHosts') headers.push(['Host', 'evil.example']);
    else if (m.kind === 'folded') headers.push(['X-Folded', 'first\r\n second']);
    else if (m.kind === 'contentLength') lengthOverride = m.value;
    else if (m.kind === 'chunked') framing = m.variant === 'valid' ? 'chunked' : m.variant;
    else if (m.kind === 'version') version = m.value;
    else if (m.kind === 'rawTarget') target = `${target}${m.suffix}`;
  }

  const payload = body ?? Buffer.alloc(0);
  if (framing === 'length') {
    if (lengthOverride !== undefined) {
      // Never more than is sent: a promise of bytes that never come is a slow client, not a fuzz case.
      const n = Number(lengthOverride);
      headers.push([
        'Content-Length',
        Number.isFinite(n) && n > payload.length ? String(payload.length) : lengthOverride,
      ]);
    } else if (body) headers.push(['Content-Length', String(payload.length)]);
  } else {
    headers.push(['Transfer-Encoding', framing === 'badCoding' ? 'chunked, gzip' : 'chunked']);
    if (framing === 'withLength') headers.push(['Content-Length', String(payload.length)]);
  }
  const wire =
    framing === 'length'
      ? body
      : payload.length === 0 && framing !== 'badSize'
        ? Buffer.from('0\r\n\r\n')
        : Buffer.concat([
            Buffer.from(`${framing === 'badSize' ? 'zz' : payload.length.toString(16)}\r\n`),
            payload,
            Buffer.from('\r\n0\r\n\r\n'),
          ]);

  const summary = `${method} ${target.length > 300 ? `${target.slice(0, 300)}…(${target.length})` : target}`;
  return { raw: { method, target, headers, body: wire, version }, method, summary };
}
