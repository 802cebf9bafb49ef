// Imported first by every entry point (server and CLI), so an unsupported Node stops with one
// clear line before any dependency loads: better-sqlite3 13 aborts on Node 20, and the AWS SDK
// prints a multi-line deprecation warning there. Supported lines: README and docs/deployment.md.

/** The oldest Node major this release runs on (package.json `engines`). */
export const MIN_NODE_MAJOR = 22;

/** The refusal for `version` (`process.version`), or null when it is supported. */
export function unsupportedNodeMessage(version: string): string | null {
  const major = Number.parseInt(version.replace(/^v/, '').split('.')[0] ?? '', 10);
  if (Number.isInteger(major) && major >= MIN_NODE_MAJOR) return null;
  return (
    `blog-api: Node.js ${version} is not supported; this release needs Node.js ${MIN_NODE_MAJOR} or newer ` +
    `(24 LTS recommended). Run "scripts/node.sh 24" for a copy from the npm registry.`
  );
}

const refusal = unsupportedNodeMessage(process.version);
if (refusal !== null) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
