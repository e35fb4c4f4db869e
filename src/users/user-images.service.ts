import { BadRequestException, Injectable, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import sharp from 'sharp';
import { AppConfig } from '../config/app-config.js';
import { sha256Hex } from '../common/crypto.js';
import { StorageService } from '../storage/storage.service.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { UsersRepository, type ImageKind } from '../repositories/users.repository.js';

/** Larger images are shrunk to fit. */
export const IMAGE_MAX_SIZE: Record<ImageKind, { width: number; height: number }> = {
  pfp: { width: 1024, height: 1024 },
  banner: { width: 3000, height: 1500 },
};
const CONTENT_TYPES = { jpeg: 'image/jpeg', png: 'image/png' } as const;
type ImageFormat = keyof typeof CONTENT_TYPES;
const LABEL: Record<ImageKind, string> = { pfp: 'profile picture', banner: 'banner' };
/** Decoding cap, so a small file that claims huge dimensions cannot exhaust memory. */
const MAX_INPUT_PIXELS = 50_000_000;

function tooManyPixels(err: unknown): PayloadTooLargeException | undefined {
  if (!(err instanceof Error) || !err.message.includes('pixel limit')) return undefined;
  return new PayloadTooLargeException(`The image has too many pixels: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels are accepted.`);
}

/**
 * Profile pictures and banners. The bytes are decoded to learn the real format (the declared
 * MIME type is ignored), then re-encoded, which drops EXIF and other metadata.
 */
@Injectable()
export class UserImagesService {
  constructor(
    private readonly users: UsersRepository,
    private readonly storage: StorageService,
    private readonly config: AppConfig,
  ) {}

  async put(user: UserRow, kind: ImageKind, file: Express.Multer.File | undefined): Promise<{ get: string }> {
    if (!file) throw new BadRequestException(`Expected a JPG or PNG file in the multipart field '${kind}'.`);
    const { data, format } = await this.reencode(file.buffer, kind);
    const key = `users/${user.id}/${kind}-${sha256Hex(data.toString('base64')).slice(0, 32)}.${format === 'jpeg' ? 'jpg' : 'png'}`;
    await this.storage.put(key, data);
    let previous: string | null;
    try {
      previous = await this.users.swapImageLocation(user.id, kind, key);
    } catch (err) {
      await this.discardUnused(user.id, kind, key);
      throw err;
    }
    if (previous && previous !== key) await this.storage.delete(previous);
    return { get: `${this.config.PUBLIC_URL.replace(/\/$/, '')}/api/v1/users/${user.id}/${kind}` };
  }

  /** The user's stored picture, or undefined when they have set none (or its file is gone): they get the default picture. */
  async get(user: UserRow, kind: ImageKind): Promise<{ data: Buffer; contentType: string; etag: string } | undefined> {
    const key = kind === 'pfp' ? user.customPfpLocation : user.customBannerLocation;
    const data = key ? await this.storage.get(key) : undefined;
    if (!key || !data) return undefined;
    const contentType = key.endsWith('.png') ? CONTENT_TYPES.png : CONTENT_TYPES.jpeg;
    return { data, contentType, etag: `"${key.split('/').pop()}"` };
  }

  async delete(user: UserRow, kind: ImageKind): Promise<void> {
    const previous = await this.users.swapImageLocation(user.id, kind, null);
    if (!previous) throw new NotFoundException(`You do not have a custom ${LABEL[kind]} to delete.`);
    await this.storage.delete(previous);
  }

  /**
   * Deletes a file just stored whose location could not be recorded, unless the user's image is
   * that very file (the same image uploaded before, or by a simultaneous request that succeeded).
   */
  private async discardUnused(userID: number, kind: ImageKind, key: string): Promise<void> {
    try {
      if ((await this.users.findImageLocation(userID, kind)) !== key) await this.storage.delete(key);
    } catch {
      // The database is failing: keeping an orphan file beats deleting the one in use.
    }
  }

  private async reencode(input: Buffer, kind: ImageKind): Promise<{ data: Buffer; format: ImageFormat }> {
    let format: string | undefined;
    try {
      format = (await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
    } catch (err) {
      throw tooManyPixels(err) ?? new BadRequestException('The file is not a readable image: only JPG and PNG files are supported.');
    }
    if (format !== 'jpeg' && format !== 'png')
      throw new BadRequestException(`Only JPG and PNG files are supported (this file is ${format ?? 'of an unknown format'}).`);
    try {
      const pipeline = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize({ ...IMAGE_MAX_SIZE[kind], fit: 'inside', withoutEnlargement: true });
      const data = await (format === 'png' ? pipeline.png() : pipeline.jpeg({ quality: 90, mozjpeg: true })).toBuffer();
      return { data, format };
    } catch (err) {
      throw tooManyPixels(err) ?? new BadRequestException('The image could not be decoded: the file is corrupt or truncated.');
    }
  }
}
