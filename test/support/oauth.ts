import { createHash, randomBytes } from 'node:crypto';

/** A PKCE pair (RFC 7636): a random verifier and its S256 challenge, computed here independently of the server's code. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function unescapeHtml(value: string): string {
  return value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}

/** The hidden fields of the form whose action ends with `action` on the authorization page. */
export function formFields(page: string, action: string): Record<string, string> {
  const forms = [...page.matchAll(/<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = forms.find((f) => f[1].endsWith(action));
  if (!form) throw new Error(`no form posting to ${action} on the page:\n${page}`);
  const fields: Record<string, string> = {};
  for (const input of form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)) fields[input[1]] = unescapeHtml(input[2]);
  return fields;
}

/** The query of a redirect's Location as a plain object. */
export function locationQuery(location: string | undefined): { url: URL; query: Record<string, string> } {
  if (!location) throw new Error('no Location header');
  const url = new URL(location);
  return { url, query: Object.fromEntries(url.searchParams) };
}
