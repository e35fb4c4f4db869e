/** Keys whose values are credentials or one-time codes: logged as REDACTED. */
const SENSITIVE_KEY = /secret|password|token|code|captcha/i;

export const REDACTED = '[redacted]';
export const TOO_DEEP = '[nested too deeply]';
export const TOO_MANY = '[more entries omitted]';

const MAX_DEPTH = 6;
const MAX_ENTRIES = 50;
const MAX_STRING = 200;

type Container = Record<string, unknown> | unknown[];

function leaf(value: unknown): unknown {
  return typeof value === 'string' && value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} characters)` : value;
}

/** Adds to an array, or defines an own key (a body's "__proto__" key must not set the copy's prototype). */
function put(to: Container, key: string, value: unknown) {
  if (Array.isArray(to)) to.push(value);
  else Object.defineProperty(to, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A copy of a request body that is safe to log. Spec convention 6: keys that start with `!` are
 * dropped. Values of keys that look like credentials or codes (secret, password, token, code,
 * captcha) become REDACTED. Subtrees deeper than MAX_DEPTH become TOO_DEEP, and long strings and
 * containers are cut, so a hostile body cannot make the log line large. Walks with its own stack,
 * so any nesting depth is safe.
 */
export function redactForLog(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return leaf(value);
  const root: Container = Array.isArray(value) ? [] : {};
  const stack: { from: object; to: Container; depth: number }[] = [{ from: value, to: root, depth: 1 }];
  while (stack.length > 0) {
    const { from, to, depth } = stack.pop()!;
    const isArray = Array.isArray(from);
    const keys = isArray ? Array.from({ length: Math.min(from.length, MAX_ENTRIES + 1) }, (_, i) => String(i)) : Object.keys(from);
    let kept = 0;
    for (const key of keys) {
      if (!isArray && key.startsWith('!')) continue;
      if (kept++ === MAX_ENTRIES) {
        put(to, '…', TOO_MANY);
        break;
      }
      const v: unknown = (from as Record<string, unknown>)[key];
      let out: unknown;
      if (!isArray && SENSITIVE_KEY.test(key)) out = REDACTED;
      else if (v === null || typeof v !== 'object') out = leaf(v);
      else if (depth >= MAX_DEPTH) out = TOO_DEEP;
      else {
        out = Array.isArray(v) ? [] : {};
        stack.push({ from: v, to: out as Container, depth: depth + 1 });
      }
      put(to, key, out);
    }
  }
  return root;
}
