// Generators of hostile input: strings and JSON values that have broken parsers, validators and
// databases elsewhere, request bodies built from a route's own schema and then damaged.
import fc from 'fast-check';
import type { JsonSchema } from './routes.js';

/** Single code units and sequences that are valid JavaScript strings but hostile downstream. */
const NASTY_UNITS = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u00ad',
  '\u200b',
  '\u200d',
  '\u202e',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff', // lone surrogates (invalid Unicode)
  '\ud83d\ude00',
  '\u{1d54f}',
  'e\u0301',
  '\u0130',
  'ß',
  '\u4e2d',
  '\u0645',
  '\r',
  '\n',
  '\t',
  '"',
  "'",
  '\\',
  '<',
  '>',
  '&',
  '%',
  '%%',
  '%00',
  '%zz',
  '/',
  '..',
  '?',
  '#',
  ';',
  ',',
  '=',
  ' ',
  '+',
];

export const hostileUnit = fc.oneof(
  fc.constantFrom(...NASTY_UNITS),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

/** Short strings mixing ordinary text with the hostile units. */
export const hostileText = fc
  .array(fc.oneof({ weight: 2, arbitrary: fc.string({ maxLength: 6 }) }, { weight: 1, arbitrary: hostileUnit }), {
    maxLength: 8,
  })
  .map((parts) => parts.join(''));

/** Whole strings that are each a classic: injections, numbers in disguise, huge or empty. */
export const hostileString = fc.oneof(
  hostileText,
  fc.constantFrom(
    '',
    ' ',
    '   ',
    'null',
    'undefined',
    'NaN',
    'true',
    '0',
    '-1',
    '1e309',
    '0x10',
    '9007199254740993',
    '__proto__',
    'constructor',
    'prototype',
    'hasOwnProperty',
    'toString',
    "'; DROP TABLE posts; --",
    '" OR 1=1 --',
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    '../../../../etc/passwd',
    '%2e%2e%2f',
    '\r\nX-Injected: 1',
    '${7*7}',
    '{{7*7}}',
    'svc_live_abcdefgh_0123456789abcdefghijklmnopqrstuv',
    'Bearer x',
    '2026-09-14T10:00:00',
    '2026-02-30T10:00:00+08:00',
    '9999-12-31T23:59:59+14:00',
    '0000-01-01T00:00:00Z',
    '2026-09-14T10:00:00+25:00',
  ),
  fc
    .tuple(fc.constantFrom('a', 'Ω', '\ud83d\ude00', '<b>', '\u0000', ' '), fc.integer({ min: 100, max: 20_000 }))
    .map(([s, n]) => s.repeat(n)),
);

/** Object keys that reach prototypes, or collide with built-ins. */
export const hostileKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'hasOwnProperty',
    '',
    ' ',
    'id',
    'status',
    'published_at',
    'store_id',
    'view_count',
    'created_at',
  ),
  hostileText,
);

/** Any JSON value, leaning to the troublesome ones. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -0,
    -1,
    1.5,
    2 ** 31,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 63),
    1e308,
    Number.MIN_VALUE,
    [],
    {},
    [null],
    [[]],
  ),
  hostileString,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.integer({ min: -5, max: 2 ** 53 }), { maxLength: 300 }),
  fc.integer({ min: 50, max: 400 }).map((depth) => nested(depth)),
  fc.dictionary(hostileKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }),
);

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/**
 * A value the schema accepts, or nearly: the valid-ish starting point that mutations damage.
 * `refs` supplies live values for fields that must point at real resources.
 */
export function fromSchema(schema: JsonSchema | undefined, refs: FieldRefs, name = ''): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant(undefined);
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const options: fc.Arbitrary<unknown>[] = [];
  if (refs[name]) options.push(refs[name]);
  for (const type of types) {
    if (type === 'null') options.push(fc.constant(null));
    else if (type === 'boolean') options.push(fc.boolean());
    else if (type === 'integer')
      options.push(fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 10_000, 10_000) }));
    else if (type === 'number') options.push(fc.double({ noNaN: true, noDefaultInfinity: true }));
    else if (type === 'string') options.push(stringFor(schema));
    else if (type === 'array')
      options.push(
        fc.array(fromSchema(schema.items, refs, `${name}[]`), { maxLength: Math.min(schema.maxItems ?? 5, 5) }),
      );
    else if (type === 'object') options.push(objectFor(schema, refs));
  }
  return options.length ? fc.oneof(...options) : fc.jsonValue({ maxDepth: 2 });
}

export type FieldRefs = Record<string, fc.Arbitrary<unknown>>;

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.enum) return fc.constantFrom(...(schema.enum as string[]));
  if (schema.format === 'offset-date-time' || schema.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().replace('Z', '+08:00'));
  }
  const minLength = Math.max(schema.minLength ?? 1, 1);
  const maxLength = Math.max(Math.min(schema.maxLength ?? 40, 40), minLength);
  // Mostly printable text; sometimes the Unicode edge cases a valid-looking request can carry.
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength: Math.min(maxLength, 8), unit: hostileUnit }) },
  );
}

function objectFor(schema: JsonSchema, refs: FieldRefs): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries<JsonSchema>(schema.properties ?? {});
  const required: string[] = schema.required ?? [];
  if (props.length === 0) return fc.constant({});
  const model = Object.fromEntries(props.map(([key, sub]) => [key, fromSchema(sub, refs, key)]));
  return fc.record(model, { requiredKeys: required as never[] }) as fc.Arbitrary<Record<string, unknown>>;
}

/** One way of damaging a JSON body; applied in sequence to a valid-ish body. */
export type Mutation =
  | { kind: 'set'; pick: number; value: unknown }
  | { kind: 'delete'; pick: number }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'wrap' }
  | { kind: 'replace'; value: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('set' as const), pick: fc.nat(), value: hostileValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('extra' as const), key: hostileKey, value: hostileValue }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'wrap' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const), value: hostileValue }) },
);

/**
 * Applies the mutations. Keys are set with defineProperty so `__proto__` becomes an own key, as
 * JSON.parse would make it, and reaches the wire.
 */
export function mutate(body: unknown, mutations: Mutation[]): unknown {
  let out: unknown = body;
  for (const m of mutations) {
    if (m.kind === 'wrap') out = [out];
    else if (m.kind === 'replace') out = m.value;
    else if (out !== null && typeof out === 'object' && !Array.isArray(out)) {
      const copy: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(out))
        Object.defineProperty(copy, k, { value: v, enumerable: true, writable: true, configurable: true });
      const keys = Object.keys(copy);
      if (m.kind === 'extra')
        Object.defineProperty(copy, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
      else if (keys.length > 0) {
        const key = keys[m.pick % keys.length];
        if (m.kind === 'delete') delete copy[key];
        else Object.defineProperty(copy, key, { value: m.value, enumerable: true, writable: true, configurable: true });
      }
      out = copy;
    }
  }
  return out;
}

/** Bodies that are not JSON, or JSON only in a way some parsers disagree on. */
export const rawBadBody = fc.constantFrom(
  '',
  ' ',
  '{',
  '}',
  '[',
  '{"title":',
  '{"title":"a",}',
  "{'title':'a'}",
  '{title:"a"}',
  'null',
  'true',
  '0',
  '"x"',
  '[]',
  '[{}]',
  '{"title":"a","title":"b","body_html":"<p>x</p>"}',
  '\ufeff{"title":"a","body_html":"b"}',
  '{"title":"a\\ud800","body_html":"b"}',
  '{"__proto__":{"isAdmin":true},"title":"a","body_html":"b"}',
  '{"constructor":{"prototype":{"x":1}},"title":"a","body_html":"b"}',
  '{"title":"a","body_html":"b"}garbage',
  '{"title":"\\u0000","body_html":"\\u0000"}',
  '{"title":1e999,"body_html":"b"}',
  '{"title":"a","body_html":"b","category_ids":[1,1]}',
  '{"published_at":"2026-09-14T10:00:00"}',
  '{"confirmation_token":""}',
  'title=a&body_html=b',
  '<xml/>',
  '\u0000\u0001\u0002',
);

/**
 * Bodies shaped to cost the server work: wide objects (many unknown fields), deep nesting (arrays
 * or objects thousands of levels deep), and many problems at once (a long array of wrong items,
 * many field names that are not text), each answered within the bounds of docs/api-behaviour.md.
 */
export const costlyBody: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 50, max: 12_000 }).map((n) => `{${Array.from({ length: n }, (_, i) => `"w${i}":${i}`).join(',')}}`),
  fc
    .tuple(fc.integer({ min: 20, max: 20_000 }), fc.boolean())
    .map(([depth, arrays]) =>
      arrays
        ? `{"title":"t","x":${'['.repeat(depth)}${']'.repeat(depth)}}`
        : `{"title":"t","x":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
    ),
  fc
    .integer({ min: 101, max: 5_000 })
    .map((n) => `{"title":"t","body_html":"b","category_ids":[${Array(n).fill('"x"').join(',')}]}`),
  fc
    .integer({ min: 101, max: 3_000 })
    .map((n) => `{${Array.from({ length: n }, (_, i) => `"\\ud800${i}":"\\ud800"`).join(',')}}`),
);
