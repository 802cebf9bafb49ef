// A bounded load through a load balancer: a few clients in parallel, each on its own kept-alive
// connection, sending reads, idempotent creates (with an Idempotency-Key) and image uploads
// (without one) in turn until told to stop.
// Every request is recorded with its outcome; a failure is a connection error, a 5xx, or any
// answer other than the one expected.
import { Agent, request } from 'node:https';
import { randomBytes } from 'node:crypto';
import { multipartBody } from '../api/media-support.js';

export interface Outcome {
  op: 'read' | 'create' | 'upload';
  /** Milliseconds since the load started. */
  at: number;
  status: number | null;
  error: string | null;
}

export interface Load {
  outcomes: Outcome[];
  /** The posts (ids) and images (public paths) whose creation was acknowledged. */
  created: { posts: string[]; images: string[] };
  failures(): Outcome[];
  /** Lets every client finish its current request, then resolves. */
  stop(): Promise<void>;
  /** Milliseconds since the load started. */
  now(): number;
}

export function startLoad(baseUrl: string, ca: string, key: string, jpeg: Buffer, clients = 6): Load {
  const started = Date.now();
  const now = () => Date.now() - started;
  const outcomes: Outcome[] = [];
  const created = { posts: [] as string[], images: [] as string[] };
  let running = true;
  const agents: Agent[] = [];

  const send = (agent: Agent, method: string, path: string, headers: Record<string, string>, body?: Buffer) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${baseUrl}${path}`,
        { method, agent, ca, headers: { authorization: `Bearer ${key}`, ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const once = async (agent: Agent, n: number): Promise<void> => {
    const op = (['read', 'create', 'read', 'upload'] as const)[n % 4];
    const at = now();
    try {
      let res: { status: number; body: string };
      if (op === 'read') {
        res = await send(agent, 'GET', '/v1/blog/posts', {});
      } else if (op === 'create') {
        const body = Buffer.from(
          JSON.stringify({ title: `Load ${n} ${randomBytes(6).toString('hex')}`, body_html: '<p>under load</p>' }),
        );
        res = await send(
          agent,
          'POST',
          '/v1/blog/posts',
          { 'content-type': 'application/json', 'idempotency-key': randomBytes(12).toString('hex') },
          body,
        );
      } else {
        // A comment segment after the JPEG's SOI makes each upload distinct content.
        const comment = Buffer.from(randomBytes(8).toString('hex'));
        const data = Buffer.concat([
          jpeg.subarray(0, 2),
          Buffer.from([0xff, 0xfe, 0, comment.length + 2]),
          comment,
          jpeg.subarray(2),
        ]);
        const form = multipartBody([{ name: 'file', filename: 'load.jpg', contentType: 'image/jpeg', data }]);
        // No Idempotency-Key: once sent, no balancer may send it again, so it is lost if the
        // connection it went on is closed under it.
        res = await send(agent, 'POST', '/v1/media/images', { 'content-type': form.contentType }, form.payload);
      }
      const expected = op === 'read' ? [200] : [201];
      outcomes.push({
        op,
        at,
        status: res.status,
        error: expected.includes(res.status) ? null : res.body.slice(0, 300),
      });
      if (op !== 'read' && res.status === 201) {
        const body = JSON.parse(res.body);
        if (op === 'create') created.posts.push(body.id);
        else created.images.push(body.path);
      }
    } catch (err) {
      outcomes.push({ op, at, status: null, error: (err as NodeJS.ErrnoException).code ?? (err as Error).message });
    }
  };

  const workers = Array.from({ length: clients }, async (_, i) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    for (let n = i; running; n += clients) await once(agent, n);
  });

  return {
    outcomes,
    created,
    now,
    failures: () => outcomes.filter((o) => o.error !== null),
    async stop() {
      running = false;
      await Promise.all(workers);
      for (const agent of agents) agent.destroy();
    },
  };
}

/** Resolves once `count` more requests have been answered: the load has moved on. */
export async function moreAnswers(load: Load, count: number): Promise<void> {
  const target = load.outcomes.length + count;
  while (load.outcomes.length < target) await new Promise((resolve) => setTimeout(resolve, 20));
}
