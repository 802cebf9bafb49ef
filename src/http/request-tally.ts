// The two metrics every request adds to (http_requests_total and
// http_request_duration_seconds), counted without prom-client's per-call work: its counter and
// histogram build a labels object, check it and spell a key string from it on every call, a
// visible share of a cached read. Here a request finds its series through maps keyed by strings
// the route table already holds (method, route template) and the status number, and adds to
// plain numbers; the exposition text is made when /metrics is scraped. The objects below have
// the shape a prom-client Registry takes as a metric (name, help, type and get()).

/** One series: a method, a route template and a status. */
interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Answers per bucket, not cumulative: index i counts durations in (bounds[i-1], bounds[i]]. */
  perBucket: Float64Array;
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** What a prom-client Registry reads from a metric. */
export interface RegistryMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: MetricValue[] }>;
  reset(): void;
}

export class RequestTally {
  private readonly byRoute = new Map<string, Map<string, Map<number, Series>>>();
  private readonly all: Series[] = [];

  /** `bounds`: the histogram's upper bounds in seconds, ascending. */
  constructor(private readonly bounds: readonly number[]) {}

  record(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map<string, Map<number, Series>>()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map<number, Series>()));
    let series = byStatus.get(status);
    if (!series) {
      series = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        perBucket: new Float64Array(this.bounds.length),
      };
      byStatus.set(status, series);
      this.all.push(series);
    }
    series.count++;
    series.sum += seconds;
    const { bounds } = this;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]!) {
        series.perBucket[i]!++;
        break;
      }
    }
  }

  /** http_requests_total-style counter of the answers of each series. */
  counter(name: string, help: string): RegistryMetric {
    return this.metric(name, help, 'counter', () =>
      this.all.map((series) => ({ labels: series.labels, value: series.count })),
    );
  }

  /** The histogram of the series' durations, as prom-client's own histogram exposes one. */
  histogram(name: string, help: string): RegistryMetric {
    return this.metric(name, help, 'histogram', () => {
      const values: MetricValue[] = [];
      for (const series of this.all) {
        let cumulative = 0;
        this.bounds.forEach((bound, i) => {
          cumulative += series.perBucket[i]!;
          values.push({ labels: { le: bound, ...series.labels }, value: cumulative, metricName: `${name}_bucket` });
        });
        values.push({ labels: { le: '+Inf', ...series.labels }, value: series.count, metricName: `${name}_bucket` });
        values.push({ labels: series.labels, value: series.sum, metricName: `${name}_sum` });
        values.push({ labels: series.labels, value: series.count, metricName: `${name}_count` });
      }
      return values;
    });
  }

  private metric(
    name: string,
    help: string,
    type: 'counter' | 'histogram',
    values: () => MetricValue[],
  ): RegistryMetric {
    return {
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
      reset: () => {
        this.byRoute.clear();
        this.all.length = 0;
      },
    };
  }
}
