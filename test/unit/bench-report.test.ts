// The benchmark's table, the bound the machine's CPU puts on a row's ratio to its ceiling
// (bench/lib/report.ts) and the /proc readers behind them (bench/lib/processes.ts): what
// docs/performance.md quotes has to be computed right.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTable, machineBound } from '../../bench/lib/report.js';
import { readFileSync } from 'node:fs';
import { cpuGrowth, readMachineCpu, readProcessesCpu } from '../../bench/lib/processes.js';
import type { Measurement } from '../../bench/lib/scenarios.js';

const measured = (over: Partial<Measurement>): Measurement => ({
  rps: 1000,
  p50: 1,
  p99: 2,
  peakRssMb: 100,
  cpuUsPerRequest: 900,
  queriesPerRequest: null,
  redisCommandsPerRequest: null,
  non2xx: 0,
  errors: 0,
  statusCodes: { 201: 8000 },
  ...over,
});

describe('the machine-CPU bound of a row', () => {
  test('ceiling µs ÷ (row µs × the ceiling’s busy share), and the row µs the target allows', () => {
    const ceiling = measured({
      machineCpuUsPerRequest: 400,
      machineIdle: 0.2,
      cpuUsPerRequest: 150,
      postgresCpuUsPerRequest: 120.4,
      loadGeneratorCpuUsPerRequest: 80,
    });
    const row = measured({
      machineCpuUsPerRequest: 2000,
      machineIdle: 0.4,
      cpuUsPerRequest: 900,
      postgresCpuUsPerRequest: 950,
      loadGeneratorCpuUsPerRequest: 90.6,
    });
    // 400 ÷ (2000 × 0.8) = 0.25; the target 0.275 needs 400 ÷ (0.275 × 0.8) = 1,818 µs.
    assert.deepEqual(machineBound(row, ceiling, 0.275, 'create', 'postgres'), [
      "  the machine's CPU a create (every process): 2000 µs (the server 900, PostgreSQL 950, the load generator 91), 40 % idle; " +
        "the ceiling's 400 µs (the server 150, PostgreSQL 120, the load generator 80), 20 % idle; " +
        'at 2000 µs the ratio can reach 0.25 at most; 0.275 needs ≤ 1818 µs',
    ]);
    // On SQLite the database is the server's own work: no PostgreSQL part.
    assert.match(
      machineBound(row, ceiling, 0.275, 'create', 'sqlite')[0],
      /: 2000 µs \(the server 900, the load generator 91\), 40 % idle; the ceiling's 400 µs \(the server 150, the load generator 80\)/,
    );
  });

  test('the same for a read against the Fastify ceiling', () => {
    const ceiling = measured({ machineCpuUsPerRequest: 140, machineIdle: 0.08 });
    const [line] = machineBound(
      measured({ machineCpuUsPerRequest: 301, machineIdle: 0.2 }),
      ceiling,
      0.55,
      'read',
      'sqlite',
    );
    // 140 ÷ (301 × 0.92) = 0.506; 140 ÷ (0.55 × 0.92) = 277.
    assert.match(
      line,
      /^ {2}the machine's CPU a read \(every process\): 301 µs \(.*\), 20 % idle; .* can reach 0\.51 at most; 0\.550 needs ≤ 277 µs$/,
    );
  });

  test('nothing when either row has no machine figure (not Linux)', () => {
    const ceiling = measured({ machineCpuUsPerRequest: 400, machineIdle: 0.2 });
    assert.deepEqual(machineBound(measured({}), ceiling, 0.275, 'create', 'postgres'), []);
    assert.deepEqual(
      machineBound(measured({ machineCpuUsPerRequest: 2000, machineIdle: 0 }), measured({}), 0.275, 'read', 'sqlite'),
      [],
    );
    assert.deepEqual(
      machineBound(measured({ machineCpuUsPerRequest: NaN }), ceiling, 0.275, 'create', 'sqlite'),
      [],
      'a row with no answers',
    );
  });
});

describe('the table', () => {
  test('every row has as many cells as the header, the machine’s columns included', () => {
    const table = formatTable([
      {
        label: 'create',
        connections: 32,
        m: measured({ machineCpuUsPerRequest: 2654.4, machineIdle: 0.43 }),
        ratio: null,
      },
      { label: 'upload', connections: null, m: null, ratio: null, note: 'n/a (not available)' },
    ]);
    const [header, , row, missing] = table.split('\n').map((line) => line.split('|').map((cell) => cell.trim()));
    assert.equal(row.length, header.length);
    assert.equal(missing.length, header.length);
    assert.equal(row[header.indexOf('machine CPU µs/req')], '2,654');
    assert.equal(row[header.indexOf('idle %')], '43');
    assert.equal(missing[header.indexOf('req/s')], 'n/a (not available)');
  });
});

describe('the machine’s CPU time', { skip: process.platform !== 'linux' && 'reads /proc (Linux only)' }, () => {
  test('busy and idle seconds are read and only grow', () => {
    const before = readMachineCpu();
    let spin = 0;
    for (const end = Date.now() + 50; Date.now() < end;) spin++;
    const after = readMachineCpu();
    assert.ok(spin > 0);
    assert.ok(Number.isFinite(before.busy) && Number.isFinite(before.idle), JSON.stringify(before));
    assert.ok(after.busy > before.busy, `busy ${before.busy} → ${after.busy}`);
    assert.ok(after.idle >= before.idle);
  });

  test('the CPU of the processes of one name: this one’s own, and none of a name no process has', () => {
    const name = readFileSync('/proc/self/stat', 'utf8').match(/\((.*)\)/)![1];
    const before = readProcessesCpu(name);
    assert.ok(before.has(process.pid), `pid ${process.pid} among the processes named ${name}`);
    for (const end = Date.now() + 50; Date.now() < end;);
    assert.ok(cpuGrowth(before, readProcessesCpu(name)) > 0);
    assert.equal(readProcessesCpu('no-such-process-name').size, 0);
  });

  test('growth counts a process started in between whole, and one that ended in between as nothing', () => {
    const before = new Map([
      [10, 5],
      [11, 7],
    ]);
    const after = new Map([
      [10, 5.5],
      [12, 0.25],
    ]);
    assert.equal(cpuGrowth(before, after), 0.75);
  });
});
