import type { DestinationStream } from 'pino';
import pretty, { type PrettyOptions } from 'pino-pretty';

export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * Where a process writes its logs. On a terminal (LOG_FORMAT=auto with a TTY on stdout, or
 * LOG_FORMAT=pretty) pino-pretty's one readable line per entry, a request as `GET /url → 200 (3 ms)`;
 * otherwise undefined: pino's JSON lines on stdout, for a log collector.
 */
export function logDestination(format: LogFormat): DestinationStream | undefined {
  const terminal = process.stdout.isTTY === true;
  if (format === 'json' || (format === 'auto' && !terminal)) return undefined;
  return pretty({ ...prettyLogOptions(terminal), sync: true });
}

/** pino-pretty's options for a person's terminal: time, level and one line of message. */
export function prettyLogOptions(colorize: boolean): PrettyOptions {
  return {
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res,responseTime,process',
    messageFormat: (entry, messageKey) => {
      const { req, res, responseTime, context } = entry as {
        req?: { method: string; url: string };
        res?: { statusCode: number };
        responseTime?: number;
        context?: unknown;
      };
      if (req && res) return `${req.method} ${req.url} → ${res.statusCode} (${responseTime} ms)`;
      const message = String(entry[messageKey]);
      return typeof context === 'string' ? `${context}: ${message}` : message;
    },
  };
}

/**
 * Nest's own start-up lines: one per module initialised and one per route mapped (about 200 in
 * all). They are logged at debug: a person starting the server reads the few lines that matter.
 */
export const NEST_STARTUP_CONTEXTS: ReadonlySet<string> = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** True when a Nest `log` call with these trailing parameters is one of the framework's start-up lines. */
export function isNestStartupLine(params: readonly unknown[]): boolean {
  const context = params.at(-1);
  return typeof context === 'string' && NEST_STARTUP_CONTEXTS.has(context);
}
