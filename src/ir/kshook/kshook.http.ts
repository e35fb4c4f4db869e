import { BadRequestException } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { ErrorShape } from '../../http/response-shapes.js';
import { ImportDocument } from '../../presenters/import.presenter.js';

// The HTTP side kshook-sv6c and kshook-sv6c-static share: the hook's headers, its error key and its answer.

const EA3_ID = /^([A-Z0-9]{3}):[A-Z]:[A-Z]:[A-Z]:[0-9]{10}$/;

/** The hook identifies itself by User-Agent and names the game by X-Software-Model (an EA3 software id of Konaste SDVX, QCV). */
export function assertKshookHeaders(userAgent: string | undefined, softwareModel: string | undefined): void {
  if (!userAgent?.startsWith('kshook/')) throw new BadRequestException("This endpoint is for kshook: the User-Agent must start with 'kshook/'.");
  if (!softwareModel) throw new BadRequestException('The X-Software-Model header is required.');
  const id = EA3_ID.exec(softwareModel);
  if (!id) throw new BadRequestException(`Invalid X-Software-Model '${softwareModel.slice(0, 50)}': expected an EA3 software id such as QCV:J:B:A:2023010100.`);
  if (id[1] !== 'QCV') throw new BadRequestException(`Unsupported software model ${id[1]}: only SOUND VOLTEX EXCEED GEAR Konaste (QCV) is supported.`);
}

/** kshook reads errors from an `error` key. */
export const kshookErrorShape = (pathPrefix: string): ErrorShape => ({
  pathPrefix,
  render: (status, message) => ({ status, body: { success: false, error: message } }),
});

/** Tachi's import answer, which kshook reads. */
export class KshookImportResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty({ example: 'Import successful.' }) description!: string;
  @ApiProperty({ type: ImportDocument }) body!: ImportDocument;
}

/** An export sent while the player's forceStaticImport is off: nothing is imported. */
export class KshookIgnoredResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty({ example: 'Static importing is disabled. Ignoring static import request.' }) description!: string;
  @ApiProperty({ type: 'object', properties: {}, description: 'Empty: nothing was imported.' }) body!: Record<string, never>;
}
