import type { NextFunction, Request, Response } from 'express';
import type { Socket } from 'node:net';

/** A request body left unread up to this size is read and discarded, and the connection stays open for the next request. */
export const DRAIN_LIMIT_BYTES = 1024 * 1024;
/** After an early answer on a closing connection, what the client still sends is read (and discarded) for at most this long… */
export const LINGER_MS = 10_000;
/** …and at most this much, before the connection is dropped. */
export const LINGER_LIMIT_BYTES = 64 * 1024 * 1024;

type LingeringSocket = Socket & { destroySoon?: () => void; lingering?: true };

/**
 * Replaces Node's close after the last response (end, then destroy at once) with a lingering
 * close (RFC 9112 9.6): the response and a FIN go out, and what the client is still sending is
 * read and discarded until it stops, up to LINGER_MS and LINGER_LIMIT_BYTES. Closing with unread
 * data makes the kernel send a RST, which can reach the client before it reads the answer, so it
 * sees ECONNRESET or EPIPE instead of the status.
 */
function lingerOnClose(req: Request, socket: LingeringSocket): void {
  if (socket.lingering) return;
  socket.lingering = true;
  socket.destroySoon = () => {
    const start = socket.bytesRead;
    const stop = () => {
      clearInterval(watch);
      clearTimeout(deadline);
      socket.destroy();
    };
    const deadline = setTimeout(stop, LINGER_MS);
    const watch = setInterval(() => socket.bytesRead - start > LINGER_LIMIT_BYTES && stop(), 50);
    deadline.unref();
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
 * so every client receives the status. Registered before anything else that can answer.
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
