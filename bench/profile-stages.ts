// Splits the API server's CPU profile into the stages of a request, for docs/performance.md:
//
//   npm run bench -- --only get --repeats 1 --cpu-prof /tmp/prof     # the API runs under --cpu-prof
//   node --import tsx bench/profile-stages.ts /tmp/prof/<file>.cpuprofile --cpu-us 150
//
// --cpu-us: the row's "CPU µs/req" from the same run; each stage's share of the profile's busy
// time is applied to it (the profiler samples wall time, so its own totals include time the
// process waited for a CPU on a busy machine).
// --steady S: only the S seconds before the profile's last second (the row's steady state, not
// the warm-up and the first read of every post before it).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { stagesOf, steadyState, type CpuProfile } from './lib/profile-stages.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'cpu-us': { type: 'string' }, steady: { type: 'string' } },
});
if (positionals.length !== 1) {
  console.error('usage: node --import tsx bench/profile-stages.ts FILE.cpuprofile [--cpu-us N] [--steady SECONDS]');
  process.exit(2);
}
const whole = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as CpuProfile;
const profile = values.steady === undefined ? whole : steadyState(whole, Number(values.steady));
const stages = [...stagesOf(profile)].sort((a, b) => b[1] - a[1]);
const total = stages.reduce((sum, [, us]) => sum + us, 0);
const cpuUs = values['cpu-us'] === undefined ? null : Number(values['cpu-us']);
console.log(`| stage | share |${cpuUs === null ? '' : ' µs/request |'}`);
console.log(`|---|---:|${cpuUs === null ? '' : '---:|'}`);
for (const [stage, us] of stages) {
  const share = us / total;
  console.log(
    `| ${stage} | ${(100 * share).toFixed(1)} % |${cpuUs === null ? '' : ` ${(share * cpuUs).toFixed(1)} |`}`,
  );
}
