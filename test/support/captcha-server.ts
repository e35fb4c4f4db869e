import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for a captcha siteverify endpoint (reCAPTCHA, hCaptcha and Turnstile share the
 * form): POST secret + response (+ remoteip), answer {success}. Accepts exactly one token.
 */
export class TestCaptchaServer {
  readonly requests: URLSearchParams[] = [];
  private readonly server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      this.requests.push(form);
      const ok = req.method === 'POST' && form.get('secret') === this.secret && form.get('response') === this.validToken;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(ok ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }));
    });
  });

  constructor(
    readonly secret = 'test-captcha-secret',
    readonly validToken = 'human-token',
  ) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/siteverify`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
