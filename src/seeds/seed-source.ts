import fs from 'node:fs/promises';
import path from 'node:path';

/** The public Tachi repository's seed collections, used when no --from is given. */
export const DEFAULT_SEED_URL = 'https://raw.githubusercontent.com/zkrising/Tachi/main/seeds/collections';

export class SeedSourceError extends Error {}

/** Reads collection files from a directory or from a base URL. A missing file is `undefined`, not an error. */
export class SeedSource {
  constructor(readonly location: string) {}

  get isUrl(): boolean {
    return /^https?:\/\//.test(this.location);
  }

  async read(file: string): Promise<string | undefined> {
    if (this.isUrl) {
      const url = `${this.location.replace(/\/$/, '')}/${file}`;
      let res: Response;
      try {
        res = await fetch(url, { signal: AbortSignal.timeout(120_000) });
      } catch (err) {
        // fetch says only "fetch failed"; the reason (DNS, refused, TLS, timeout) is its cause.
        const cause = (err as Error).cause as { code?: string; message?: string } | undefined;
        const reason = [(err as Error).message, cause?.code ?? cause?.message].filter(Boolean).join(': ');
        throw new SeedSourceError(`Could not fetch ${url} (${reason}). Check the network, or load from a local copy with --from <dir>.`);
      }
      if (res.status === 404) return undefined;
      if (!res.ok) throw new SeedSourceError(`Fetching ${url} failed with HTTP ${res.status}.`);
      return res.text();
    }
    try {
      return await fs.readFile(path.join(this.location, file), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new SeedSourceError(`Could not read ${path.join(this.location, file)}: ${(err as Error).message}`);
    }
  }

  async assertReachable(): Promise<void> {
    if (this.isUrl) return;
    const stat = await fs.stat(this.location).catch(() => undefined);
    if (!stat?.isDirectory()) throw new SeedSourceError(`${this.location} is not a directory.`);
  }
}
