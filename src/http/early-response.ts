import type { NextFunction, Request, Response } from 'express';
import type { Socket } from 'node:net';

/** A request body left unread up to this size is read and discarded, and the connection stays open for the next request. */
export const DRAIN_LIMIT_BYTES = 1024 * 1024;
/**
 * After an early answer on a closing connection, what the client still sends is read and discarded
 * until it has sent nothing for LINGER_IDLE_MS (it is done, or gone): a client sending a large body
 * slowly, and reading the answer only once it has sent it all (as many HTTP libraries do), still
 * receives it…
 */
export const LINGER_IDLE_MS = 10_000;
/** …for at most this long in all (Node's requestTimeout, 5 minutes, bounds a body that is read the same way)… */
export const LINGER_MAX_MS = 300_000;
/** …and at most this much, before the connection is dropped. */
export const LINGER_LIMIT_BYTES = 64 * 1024 * 1024;
/** How often a lingering connection's progress is looked at. */
const LINGER_CHECK_MS = 50;

type LingeringSocket = Socket & { destroySoon?: () => void; lingering?: true };

/**
 * Replaces Node's close after the last response (end, then destroy at once) with a lingering
 * close (RFC 9112 9.6): the response and a FIN go out, and what the client is still sending is
 * read and discarded until it stops (LINGER_IDLE_MS without a byte), up to LINGER_MAX_MS and
 * LINGER_LIMIT_BYTES. Closing with unread data makes the kernel send a RST, which can reach the
 * client before it reads the answer (the client's kernel then drops the answer), so it sees
 * ECONNRESET or EPIPE instead of the status. The wait is measured from the last byte received,
 * not from the answer: a fixed deadline reset every client still sending when it passed.
 */
function lingerOnClose(req: Request, socket: LingeringSocket): void {
  if (socket.lingering) return;
  socket.lingering = true;
  socket.destroySoon = () => {
    const start = socket.bytesRead;
    const began = Date.now();
    let seen = start;
    let lastByteAt = began;
    const stop = () => {
      clearInterval(watch);
      socket.destroy();
    };
    const watch = setInterval(() => {
      const now = Date.now();
      if (socket.bytesRead !== seen) {
        seen = socket.bytesRead;
        lastByteAt = now;
      }
      if (now - lastByteAt >= LINGER_IDLE_MS || now - began >= LINGER_MAX_MS || seen - start > LINGER_LIMIT_BYTES) stop();
    }, LINGER_CHECK_MS);
    watch.unref();
    socket.once('end', stop);
    socket.once('close', stop);
    socket.once('error', stop);
    // The parser pushes the rest of the body into the request: discard it, whoever stopped reading it.
    req.removeAllListeners('data');
    req.unpipe();
    req.resume();
    socket.resume();
    socket.end();
  };
}

/**
 * Early answers (401/403/404 from guards or routing, 413) with the body still unread: a small
 * rest is drained on the kept-alive connection (Node does that once the answer is sent); a large
 * or unknown rest, or a client that asked to close, gets `Connection: close` and a lingering close,
 * so every client receives the status, however slowly it sends. Registered before anything else that can answer.
 */
export function earlyResponseHandling() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      if (!req.complete) {
        const length = Number(req.headers['content-length']);
        const small = Number.isFinite(length) && length <= DRAIN_LIMIT_BYTES;
        const closing = /\bclose\b/i.test(String(req.headers.connection ?? '')) || req.httpVersion === '1.0';
        if (!small || closing) {
          if (!small && !res.headersSent) res.setHeader('Connection', 'close');
          lingerOnClose(req, req.socket as LingeringSocket);
        }
      }
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as typeof res.writeHead;
    next();
  };
}
