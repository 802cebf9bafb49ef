// Two validators: request bodies are checked strictly (no type coercion, no silent removal of
// unknown fields, every problem reported); query strings, path and headers arrive as text and
// are coerced. Ajv errors become the envelope's `{field, issue}` details.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isOffsetDateTime } from '../lib/time.js';
import type { ErrorDetail } from '../lib/api-error.js';
import { MAX_DETAILS } from '../lib/request-bounds.js';
import { INVALID_QUERY_TEXT } from './query-string.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
  });
  addFormats(ajv);
  ajv.addFormat('offset-date-time', { type: 'string', validate: isOffsetDateTime });
  ajv.addKeyword({ keyword: 'x-optional-body' });
  return ajv;
}

/** Schema keyword marking a request body that may be left out entirely. */
export const OPTIONAL_BODY = 'x-optional-body';

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

export const schemaCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const validate: ValidateFunction = (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
  // Endpoints whose whole body is optional (publish, delete step 1) mark their schema so.
  const bodyOptional = httpPart === 'body' && (schema as Record<string, unknown>)[OPTIONAL_BODY] === true;
  const integers = httpPart === 'body' ? [] : integerFields(schema);
  return (data: unknown) => {
    if ((data === undefined || data === null) && bodyOptional) return { value: undefined };
    // Before validate(), which coerces the text in place.
    const integerErrors = looseIntegerErrors(data, integers);
    // A body with more unknown fields or array items than could ever be listed is checked in a
    // cut-down copy, so the schema builds at most about MAX_DETAILS errors per object.
    const view = httpPart === 'body' ? boundedView(data, schema) : data;
    let ok = validate(view);
    if (ok && view !== data) ok = validate(data);
    const textErrors =
      httpPart === 'body' && typeof data === 'object' && data !== null && textChecked.has(data)
        ? []
        : invalidTextErrors(data);
    if (ok && textErrors.length === 0 && integerErrors.length === 0) return { value: data };
    return {
      error: Object.assign(new Error('validation'), {
        validation: [...integerErrors, ...(validate.errors ?? []), ...textErrors],
      }),
    };
  };
};

/**
 * Parsed JSON bodies whose text had no escape that could spell a lone surrogate or NUL
 * (src/http/json-body.ts): none of their strings can hold one, so the walk looking for them is
 * skipped (on a 16 MiB post body it was the costliest step before it used isWellFormed below).
 */
const textChecked = new WeakSet<object>();

export function markTextChecked(body: object): void {
  textChecked.add(body);
}

/** Items of an array, or unknown fields of an object, kept for the schema check: one more than can be listed. */
const KEPT = MAX_DETAILS + 1;

interface SchemaShape {
  properties?: Record<string, unknown>;
  additionalProperties?: unknown;
  items?: unknown;
}

/**
 * `data`, itself when it is small enough, else a copy (following the schema's properties and
 * items) in which each object keeps its known fields and at most KEPT unknown ones, and each
 * array its first KEPT items. Only an invalid body is ever cut: every array a body schema has
 * holds at most 100 items (maxItems), and unknown fields are refused. What is left still shows
 * more than MAX_DETAILS problems, so the answer still says more were found.
 */
function boundedView(data: unknown, schema: unknown): unknown {
  if (typeof data !== 'object' || data === null || typeof schema !== 'object' || schema === null) return data;
  const declared = schema as SchemaShape;
  if (Array.isArray(data)) {
    const items = data.length > KEPT ? data.slice(0, KEPT) : data;
    let trimmed: unknown[] | null = items === data ? null : items;
    for (let i = 0; i < items.length; i++) {
      const item = boundedView(items[i], declared.items);
      if (item !== items[i]) (trimmed ??= items.slice())[i] = item;
    }
    return trimmed ?? data;
  }
  const known = declared.properties ?? {};
  let unknown = 0;
  let trimmed: Record<string, unknown> | null = null;
  const record = data as Record<string, unknown>;
  for (const key in record) {
    if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
    const isKnown = Object.prototype.hasOwnProperty.call(known, key);
    if (!isKnown && ++unknown > KEPT) {
      trimmed ??= copyUpTo(record, key);
      continue;
    }
    const value = isKnown ? boundedView(record[key], known[key]) : record[key];
    if (trimmed) trimmed[key] = value;
    else if (value !== record[key]) {
      trimmed = copyUpTo(record, key);
      trimmed[key] = value;
    }
  }
  return trimmed ?? data;
}

/** A copy of the fields of `record` that come before `stop`. */
function copyUpTo(record: Record<string, unknown>, stop: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key in record) {
    if (key === stop) break;
    if (Object.prototype.hasOwnProperty.call(record, key)) fields[key] = record[key];
  }
  return fields;
}

/** Top-level fields of a path, query or header schema whose value is an integer. */
function integerFields(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.keys(properties).filter((name) => properties[name].type === 'integer');
}

// Ajv's coercion reads text the way Number() does, so `+1`, `0x1`, `1e0`, `1.0` and ` 1` would
// all be the id 1. An integer in a path or query string is written in decimal digits only.
const DECIMAL_INTEGER = /^-?[0-9]+$/;

function looseIntegerErrors(data: unknown, fields: string[]): ErrorObject[] {
  if (fields.length === 0 || typeof data !== 'object' || data === null) return [];
  const values = data as Record<string, unknown>;
  return fields
    .filter((name) => typeof values[name] === 'string' && !DECIMAL_INTEGER.test(values[name] as string))
    .map((name) => ({
      keyword: 'type',
      instancePath: pointer('', name),
      schemaPath: '',
      params: { type: 'integer' },
      message: 'must be integer',
    }));
}

// A UTF-16 code unit of a surrogate pair without its partner. JSON can spell one (`"\ud800"`),
// but it is not text: PostgreSQL refuses it and SQLite stores U+FFFD in its place, so what was
// stored would differ from what was answered.
// isWellFormed() (ES2024, native) finds one an order of magnitude faster than a regular
// expression with look-arounds did on a 16 MiB string.
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();
const NOT_TEXT_ISSUE = 'must be valid Unicode text (it contains a lone UTF-16 surrogate)';
// U+0000 is Unicode but no database text type holds it (PostgreSQL refuses it outright), and no
// title, HTML body, name or id needs it.
const hasNul = (text: string): boolean => text.includes('\u0000');
const NUL_ISSUE = 'must not contain the NUL character (U+0000)';
const NOT_UTF8_ISSUE = 'must be valid UTF-8 once percent-decoded';

function textError(instancePath: string, message: string): ErrorObject {
  return { keyword: 'unicode', instancePath, schemaPath: '', params: {}, message };
}

const pointer = (path: string, key: string | number) => {
  const name = String(key);
  return name.includes('~') || name.includes('/')
    ? `${path}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`
    : `${path}/${name}`;
};

/** What is wrong with a string as text, or null. */
const textIssue = (text: string): string | null =>
  !isWellFormed(text) ? NOT_TEXT_ISSUE : hasNul(text) ? NUL_ISSUE : null;

/**
 * Every string (values and field names, at any depth) that is not well-formed Unicode, and every
 * query field the query-string parser found not to be UTF-8. Checked here, once for every body,
 * query string, path and header, so no route can store such text.
 */
function invalidTextErrors(data: unknown): ErrorObject[] {
  const errors: ErrorObject[] = [];
  collectTextErrors(data, '', errors);
  return errors;
}

/** Stops once KEPT errors are found: no more can be listed. Bodies nest at most MAX_JSON_DEPTH deep. */
function collectTextErrors(data: unknown, path: string, errors: ErrorObject[]): void {
  if (errors.length >= KEPT) return;
  if (typeof data === 'string') {
    const issue = textIssue(data);
    if (issue) errors.push(textError(path, issue));
    return;
  }
  if (typeof data !== 'object' || data === null) return;
  // A value's path is spelled only for an error or a nested object: every request's headers
  // and parameters pass here, almost always without one.
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length && errors.length < KEPT; i++) collectValue(data[i], path, i, errors);
    return;
  }
  const record = data as Record<string, unknown>;
  for (const key in record) {
    if (errors.length >= KEPT) return;
    if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
    const keyIssue = textIssue(key);
    if (keyIssue) errors.push(textError(pointer(path, key), keyIssue));
    else collectValue(record[key], path, key, errors);
  }
  const notUtf8 = (data as { [INVALID_QUERY_TEXT]?: string[] })[INVALID_QUERY_TEXT];
  for (const name of notUtf8 ?? [])
    if (errors.length < KEPT) errors.push(textError(pointer(path, name), NOT_UTF8_ISSUE));
}

function collectValue(value: unknown, path: string, key: string | number, errors: ErrorObject[]): void {
  if (typeof value === 'string') {
    const issue = textIssue(value);
    if (issue) errors.push(textError(pointer(path, key), issue));
  } else if (typeof value === 'object' && value !== null) collectTextErrors(value, pointer(path, key), errors);
}

/** Fields that are read-only in create and update bodies (docs/api-behaviour.md), with the way to change them. */
const READ_ONLY_HINTS: Record<string, string> = {
  status: 'is read-only: change it with POST /v1/blog/posts/{id}/publish or /unpublish',
  published_at: 'is read-only here: set it with POST /v1/blog/posts/{id}/publish',
};

function joinPath(instancePath: string, child?: string): string {
  const parts = instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

function issueFor(err: ErrorObject): string {
  switch (err.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a recognised field';
    case 'type': {
      const t = err.params.type as string | string[];
      return `must be ${Array.isArray(t) ? t.join(' or ') : t}`;
    }
    case 'format':
      return err.params.format === 'offset-date-time'
        ? 'must be an ISO 8601 date-time with a time-zone offset, e.g. 2026-09-14T10:00:00+08:00'
        : `must be a valid ${err.params.format}`;
    case 'uniqueItems':
      return 'must not contain duplicates';
    case 'minProperties':
      return 'must contain at least one field';
    default:
      return err.message ?? 'is invalid';
  }
}

/**
 * Converts Ajv errors to envelope details; `part` names where the value came from. Stops at one
 * more than MAX_DETAILS, enough for the envelope to say that more were found.
 */
export function detailsFromAjv(errors: ErrorObject[], part: string | undefined): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const err of errors) {
    if (details.length > MAX_DETAILS) break;
    let field: string;
    if (err.keyword === 'required') field = joinPath(err.instancePath, err.params.missingProperty as string);
    else if (err.keyword === 'additionalProperties')
      field = joinPath(err.instancePath, err.params.additionalProperty as string);
    else field = joinPath(err.instancePath);
    if (!field) field = part === 'body' || part === undefined ? 'body' : part;
    let issue = issueFor(err);
    // The hints are about post bodies; a query parameter of the same name is just unknown.
    if (
      err.keyword === 'additionalProperties' &&
      err.instancePath === '' &&
      (part === 'body' || part === undefined) &&
      READ_ONLY_HINTS[field]
    )
      issue = READ_ONLY_HINTS[field];
    if (field === 'body' && err.keyword === 'type') issue = 'must be a JSON object';
    const key = `${field}|${issue}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ field, issue });
  }
  return details;
}
