import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createTestApp, type TestApp } from './app.js';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on a random local port that keeps every message it receives. */
export class TestSmtpServer {
  readonly messages: ReceivedMail[] = [];
  private readonly waiters: (() => void)[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        this.messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        this.waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  /** Waits for the next mail to `to` that arrives after `since` messages (default: any not yet seen). */
  async waitFor(to: string, timeoutMs = 5000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find((m) => m.to.includes(to.toLowerCase()) || m.to.includes(to));
      if (found) {
        this.messages.splice(this.messages.indexOf(found), 1);
        return found;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A mail's raw text with quoted-printable undone when used: soft line breaks, then =XX escapes (a link's `code=` arrives as `code=3D`). */
export function decodedMail(mail: ReceivedMail): string {
  return /Content-Transfer-Encoding: quoted-printable/i.test(mail.raw)
    ? mail.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : mail.raw;
}

/** The 40-hex code a mail carries after "code" (the verify and reset mails both send one). */
export function codeFrom(mail: ReceivedMail): string {
  const match = /code[^0-9a-f]*([0-9a-f]{40})/i.exec(decodedMail(mail));
  if (!match) throw new Error(`no code in mail:\n${mail.raw}`);
  return match[1];
}

/** A test app whose mail goes to its own real SMTP server (`smtp`); `close` stops both. */
export interface TestAppWithMail extends TestApp {
  smtp: TestSmtpServer;
}

export async function createTestAppWithMail(env: Record<string, string> = {}, options?: Parameters<typeof createTestApp>[1]): Promise<TestAppWithMail> {
  const smtp = new TestSmtpServer();
  const t = await createTestApp({ ...env, SMTP_URL: await smtp.start() }, options);
  return {
    ...t,
    smtp,
    close: async () => {
      await t.close();
      await smtp.stop();
    },
  };
}
