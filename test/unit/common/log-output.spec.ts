import { describe, expect, it } from '@jest/globals';
import { prettyFactory } from 'pino-pretty';
import { isNestStartupLine, logDestination, prettyLogOptions } from '../../../src/common/log-output.js';

describe('log output', () => {
  const format = prettyFactory(prettyLogOptions(false));
  const time = new Date(2026, 10, 27, 15, 4, 5, 60).getTime(); // local time: translateTime 'SYS:' prints the machine's zone

  it('writes a request as one line: method, url, status and time', () => {
    const line = format({
      level: 30,
      time,
      pid: 1,
      hostname: 'h',
      req: { id: 'x', method: 'GET', url: '/api/v1/status' },
      res: { statusCode: 200 },
      responseTime: 7,
      msg: 'request completed',
    });
    expect(line).toBe('[15:04:05.060] INFO: GET /api/v1/status → 200 (7 ms)\n');
  });

  it("writes a service's line with its context, without pid or hostname", () => {
    const line = format({ level: 40, time, pid: 1, hostname: 'h', context: 'CaptchaService', msg: 'CAPTCHA_VERIFY_URL is not set' });
    expect(line).toBe('[15:04:05.060] WARN: CaptchaService: CAPTCHA_VERIFY_URL is not set\n');
  });

  it('json gives no destination (pino writes JSON lines to stdout); auto does the same when stdout is not a terminal', () => {
    expect(logDestination('json')).toBeUndefined();
    if (!process.stdout.isTTY) expect(logDestination('auto')).toBeUndefined();
    expect(logDestination('pretty')).toBeDefined();
  });

  it("tells Nest's start-up lines (module initialised, route mapped) from the others by their context", () => {
    expect(isNestStartupLine(['RoutesResolver'])).toBe(true);
    expect(isNestStartupLine(['InstanceLoader'])).toBe(true);
    expect(isNestStartupLine(['CaptchaService'])).toBe(false);
    expect(isNestStartupLine([])).toBe(false);
  });
});
