// The SDK's types come from this service's own OpenAPI document, so the SDK cannot drift from
// the API. The app is built in-process on an empty in-memory database (no server, no key: the
// document is the keyless /docs/openapi.json, the same as /v1/openapi.json) and its document
// goes through openapi-typescript into sdk/src/generated/openapi.ts.
//   npm run sdk:types          regenerate (after changing a route or schema)
// test/sdk/generated-types.test.ts fails while the committed file is stale.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { createContext } from '../src/context.js';

export const GENERATED_TYPES_FILE = resolve(import.meta.dirname, '../sdk/src/generated/openapi.ts');

const HEADER = `// Generated from the service's OpenAPI document by scripts/sdk-types.ts (openapi-typescript).
// Do not edit: run \`npm run sdk:types\` after changing a route or schema.
`;

export async function serviceOpenApiDocument(): Promise<Record<string, unknown>> {
  const mediaDir = mkdtempSync(join(tmpdir(), 'sdk-types-'));
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    PUBLIC_BASE_URL: 'https://blog.example.com',
    MEDIA_DIR: mediaDir,
    LOG_LEVEL: 'silent',
  });
  const ctx = await createContext(config);
  try {
    const app = await buildApp(ctx, { logLevel: 'silent' });
    try {
      const res = await app.inject({ method: 'GET', url: '/docs/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`GET /docs/openapi.json answered ${res.statusCode}`);
      return res.json();
    } finally {
      await app.close();
    }
  } finally {
    await ctx.close();
    rmSync(mediaDir, { recursive: true, force: true });
  }
}

/** The contents of sdk/src/generated/openapi.ts for this document. */
export async function sdkTypesSource(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(document as never, { alphabetize: true });
  return HEADER + astToString(ast);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(GENERATED_TYPES_FILE, await sdkTypesSource(await serviceOpenApiDocument()));
  console.log(`wrote ${GENERATED_TYPES_FILE}`);
}
