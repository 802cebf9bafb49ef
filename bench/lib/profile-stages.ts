// Splits a V8 CPU profile (.cpuprofile) into the stages of a request: each sample goes to the
// innermost frame that names a stage (the code it was running, or the code that called into a
// library), so a library's time counts for the stage that used it.

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/**
 * Keeps the samples of the `seconds` before the profile's last second: a row's steady state,
 * without the warm-up and first reads before it (a profiled server runs one row) nor the stop
 * after it.
 */
export function steadyState(profile: CpuProfile, seconds: number): CpuProfile {
  const at: number[] = [];
  let t = profile.startTime;
  for (const delta of profile.timeDeltas) at.push((t += delta));
  const end = at[at.length - 1] ?? t;
  const keep = (i: number) => at[i] >= end - (seconds + 1) * 1e6 && at[i] <= end - 1e6;
  return {
    ...profile,
    samples: profile.samples.filter((_, i) => keep(i)),
    timeDeltas: profile.timeDeltas.filter((_, i) => keep(i)),
  };
}

/** Stage → frames it owns, by function name or file; the first match from the sample up wins. */
const STAGES: Array<[string, RegExp]> = [
  ['access log', /pino|sonic-boom|redact|http\/logging/],
  ['metrics', /prom-client|http\/metrics/],
  ['authentication', /modules\/keys\/|table-version|cache\/versions|sqlite-statements|shared-versions/],
  ['limits', /src\/traffic\//],
  ['cache lookup + route', /http\/routes\/|modules\/|src\/cache\/|lru-cache|post-etag/],
  ['serialisation', /fast-json-stringify|send-cached|canonical-json/],
  ['pipeline (headers, gates)', /http\/pipeline|common-headers|request-id|route-policy/],
  ['connection tracking', /connection-guard|http\/shutdown/],
  ['input checks', /unexpected-input|http\/validation|query-string|ajv/],
  ['Fastify (routing, hooks, reply)', /fastify|find-my-way|light-my-request|avvio/],
  ['Node HTTP (parse, write)', /_http_|stream_base_commons|internal\/streams|^writev|^writeString|^writeBuffer/],
];

const nameOf = (frame: CallFrame) => `${frame.functionName} ${frame.url.replace(/^.*node_modules\//, '')}`;

/** Microseconds of CPU per stage (garbage collection and "other" included), idle left out. */
export function stagesOf(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, ProfileNode>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
  const out = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    let node = byId.get(profile.samples[i]);
    const delta = profile.timeDeltas[i] ?? 0;
    if (!node || node.callFrame.functionName === '(idle)') continue;
    let stage: string | null = node.callFrame.functionName === '(garbage collector)' ? 'garbage collection' : null;
    while (!stage && node) {
      const name = nameOf(node.callFrame);
      stage = STAGES.find(([, pattern]) => pattern.test(name))?.[0] ?? null;
      node = parent.get(node.id);
    }
    stage ??= 'other (promises, timers, runtime)';
    out.set(stage, (out.get(stage) ?? 0) + delta);
  }
  return out;
}
