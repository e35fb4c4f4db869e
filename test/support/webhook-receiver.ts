import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:<port> */
  url: string;
  received: ReceivedWebhook[];
  /** How the next requests are answered (status, and Location for a redirect); 200 by default. */
  respond: (answer: (req: ReceivedWebhook, index: number) => { status: number; location?: string }) => void;
  /** Resolves once `n` requests have arrived (the test's timeout bounds the wait). */
  waitFor: (n: number) => Promise<ReceivedWebhook[]>;
  close: () => Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records every request it gets, for webhook tests. */
export async function startWebhookReceiver(host = '127.0.0.1'): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let answer: (req: ReceivedWebhook, index: number) => { status: number; location?: string } = () => ({ status: 200 });
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const entry = { path: req.url ?? '/', headers: req.headers, body, at: Date.now() };
      received.push(entry);
      const { status, location } = answer(entry, received.length - 1);
      res.writeHead(status, location ? { Location: location } : {});
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    received,
    respond: (fn) => (answer = fn),
    waitFor: async (n) => {
      while (received.length < n) await new Promise((r) => setTimeout(r, 20));
      return received.slice(0, n);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
