import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppConfig } from '../config/app-config.js';

/** The directory of stored files: DATA_DIR/uploads. */
export function uploadsDir(config: AppConfig): string {
  return path.join(config.dataDir, 'uploads');
}

/** Files (profile pictures, banners, import uploads) under DATA_DIR/uploads, addressed by relative keys. */
@Injectable()
export class StorageService {
  private readonly root: string;

  constructor(config: AppConfig) {
    this.root = uploadsDir(config);
  }

  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`Storage key escapes the uploads directory: ${key}`);
    return full;
  }

  /** Writes atomically: a reader never sees a half-written file, and simultaneous writes of one key each use their own temporary file. */
  async put(key: string, data: Buffer): Promise<void> {
    const file = this.resolve(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.writeFile(tmp, data);
      await fs.rename(tmp, file);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.resolve(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.resolve(key), { force: true });
  }
}
