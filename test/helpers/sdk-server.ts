// What the SDK suites share: a real server on a loopback port with a real webhook receiver, a
// PNG to upload and a way to walk the SDK's paging iterators.
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { startTestApp, type TestApp } from './test-app.js';
import type { EngineTarget } from './engines.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

export interface SdkServer {
  t: TestApp;
  baseUrl: string;
  rx: Receiver;
  close(): Promise<void>;
}

/** The app listening on 127.0.0.1 (webhooks may target loopback) and a receiver for its deliveries. */
export async function startSdkServer(target: EngineTarget): Promise<SdkServer> {
  const t = await startTestApp(target, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const rx = await startReceiver();
  return {
    t,
    baseUrl,
    rx,
    close: async () => {
      await rx.close();
      await t.close();
    },
  };
}

/** A PNG of one colour, as the bytes an SDK user would upload. */
export async function png(width: number, height: number, red = 200): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: { r: red, g: 120, b: 40 } } })
      .png()
      .toBuffer(),
  );
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
