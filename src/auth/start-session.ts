import type { ApiRequest } from '../http/request.js';
import { sessionStoreUnavailable } from '../http/session.js';

/** Starts a fresh session (new id, so a pre-login cookie cannot be fixated) for the user. */
export async function startSession(req: ApiRequest, userID: number): Promise<void> {
  if (!req.session) await req.openSession?.();
  return new Promise((resolve, reject) =>
    req.session.regenerate((err) => {
      if (err) return reject(sessionStoreUnavailable(err));
      req.session.userID = userID;
      req.session.authAt = Date.now();
      req.session.save((saveErr) => (saveErr ? reject(sessionStoreUnavailable(saveErr)) : resolve()));
    }),
  );
}

/** Ends the request's session, if it has one (logout, and "switch account" on the authorization page). */
export async function endSession(req: ApiRequest): Promise<void> {
  if (req.session) await new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(sessionStoreUnavailable(err)) : resolve())));
}

/** Keeps the request's session valid across a change that ends the account's older sessions (a password change at `authAt`). */
export async function restampSession(req: ApiRequest, authAt: number): Promise<void> {
  if (!req.session) return;
  req.session.authAt = authAt;
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(sessionStoreUnavailable(err)) : resolve())));
}
