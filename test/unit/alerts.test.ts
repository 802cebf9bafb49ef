// deploy/alerts.yml and deploy/grafana-dashboard.json: the rules pass their unit tests
// (`promtool test rules`, Debian package `prometheus`), every alert has a test, and every metric
// they name is one the service exposes (or Prometheus's `up`, the balancer's, or Redis errors).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { missingTool } from '../helpers/tools.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describeTenantApp } from '../helpers/tenant-app.js';

/** Series the service does not expose itself: Prometheus's own and the balancer's. */
const FROM_ELSEWHERE = /^(up|caddy_\w+)$/;
/** Redis error counts: exposed only when REDIS_URL is set (docs/operations.md). */
const REDIS_ERRORS = 'blog_api_redis_errors_total';
const PROMQL_WORDS = new Set([
  'sum',
  'by',
  'rate',
  'increase',
  'max',
  'min_over_time',
  'histogram_quantile',
  'le',
  'job',
  'route',
  'status',
  'instance',
  'outcome',
  'code',
  'handler',
  'store',
  'kind',
  'and',
  'or',
  'on',
  'without',
]);

function metricNames(expr: string): string[] {
  const withoutStrings = expr
    .replace(/"[^"]*"/g, '""')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\[[^\]]*\]/g, '');
  return [...withoutStrings.matchAll(/[a-z_][a-z0-9_]*/g)]
    .map((m) => m[0])
    .filter((w) => (!PROMQL_WORDS.has(w) && w.includes('_')) || w === 'up');
}

const rules = parse(readFileSync('deploy/alerts.yml', 'utf8')).groups.flatMap((g: any) => g.rules) as {
  alert: string;
  expr: string;
}[];
const dashboard = JSON.parse(readFileSync('deploy/grafana-dashboard.json', 'utf8'));
const dashboardExprs: string[] = dashboard.panels.flatMap((p: any) => p.targets.map((t: any) => t.expr));

it('promtool: the rules are valid and pass their unit tests', { skip: missingTool('promtool', 'prometheus') }, () => {
  for (const args of [
    ['check', 'rules', 'deploy/alerts.yml'],
    ['test', 'rules', 'deploy/alerts.test.yml'],
    ['check', 'config', 'deploy/prometheus.yml'],
  ]) {
    const run = spawnSync('promtool', args, { encoding: 'utf8' });
    assert.equal(run.error, undefined, 'promtool is installed (Debian package prometheus)');
    assert.equal(run.status, 0, `promtool ${args.join(' ')}\n${run.stdout}${run.stderr}`);
  }
});

it('every alert has a unit test, and each operational situation has an alert', () => {
  const tested = new Set(
    parse(readFileSync('deploy/alerts.test.yml', 'utf8')).tests.flatMap((t: any) =>
      (t.alert_rule_test ?? []).filter((a: any) => (a.exp_alerts ?? []).length > 0).map((a: any) => a.alertname),
    ),
  );
  for (const rule of rules) assert.ok(tested.has(rule.alert), `${rule.alert} fires in a test`);
  const names = rules.map((r) => r.alert);
  for (const name of [
    'BlogApiHighErrorRate',
    'BlogApiSlowRoute',
    'BlogApiNotReady',
    'BlogApiEventLoopLag',
    'BlogApiDatabasePoolSaturated',
    'BlogApiWebhookBacklog',
    'BlogApiWebhookFailures',
    'BlogApiRedisErrors',
    'BlogApiKeysExpiringSoon',
    'BlogApiDatabaseErrors',
    'BlogApiCircuitOpen',
  ]) {
    assert.ok(names.includes(name), name);
  }
});

describeTenantApp('alerts and dashboard name metrics the service exposes', { tenant: false }, (suite) => {
  it('every metric in deploy/alerts.yml and deploy/grafana-dashboard.json is in /metrics (pool gauges on PostgreSQL)', async () => {
    const exposed = new Set(
      [...(await suite.t.request({ method: 'GET', url: '/metrics' })).body.matchAll(/^# TYPE (\S+) (\S+)/gm)].flatMap(
        ([, name, type]) => (type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name]),
      ),
    );
    const named = new Set([...rules.map((r) => r.expr), ...dashboardExprs].flatMap(metricNames));
    assert.ok(named.size >= 10);
    for (const name of named) {
      if (FROM_ELSEWHERE.test(name) || name === REDIS_ERRORS) continue;
      // PostgreSQL's pool, link failures and breakers have no SQLite counterpart.
      if (/^blog_api_(db_pool_|database_errors|circuit_)/.test(name) && suite.target.name === 'sqlite') continue;
      assert.ok(exposed.has(name), `${name} is exposed`);
    }
  });
});

it("the dashboard has a panel for each alert's signal", () => {
  for (const rule of rules) {
    const signals = metricNames(rule.expr);
    assert.ok(
      signals.some((name) => dashboardExprs.some((expr) => expr.includes(name.replace(/_(bucket|count)$/, '')))),
      `${rule.alert} has a panel`,
    );
  }
});
