// Commands some tests run (promtool, docker-compose, the load balancers): a machine without one
// skips those tests with the reason and how to install it; CI (REQUIRE_TOOLS=1, .ci/run installs
// them) fails instead, so a skip never hides a failure there.
import { spawnSync } from 'node:child_process';

/** Why a test needing `command` cannot run here, or undefined when it is installed. */
export function missingTool(command: string, debianPackage: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  if (found.status === 0) return undefined;
  const reason = `${command} is not installed (Debian package ${debianPackage})`;
  if (process.env.REQUIRE_TOOLS === '1') throw new Error(`REQUIRE_TOOLS=1 but ${reason}`);
  return reason;
}
