import { applyDecorators, Controller, Delete, Get, HttpCode, Put, Res, UploadedFile } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiFoundResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { OwnerOnly, RequirePermissions, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import type { ImageKind } from '../repositories/users.repository.js';
import { IMAGE_MAX_SIZE, UserImagesService } from './user-images.service.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { FileUpload, type UploadLimit } from '../http/file-upload.js';
import { ImageLocationResponse } from './dto/user.responses.js';
import { DEFAULT_PICTURE_PATH } from '../cdn/default-images.js';

const IMAGE_TYPES = ['image/jpeg', 'image/png'];
const IMAGE = { description: 'The stored JPG or PNG.', schema: { type: 'string', format: 'binary' } };
const DEFAULT_IMAGE = { description: 'The user has set none: a redirect to the default picture (a PNG under /cdn/users/default/).' };
const IMAGE_LIMIT: UploadLimit = { bytes: (config) => config.IMAGE_UPLOAD_LIMIT_BYTES, setting: 'IMAGE_UPLOAD_LIMIT_BYTES' };

/** The multipart form of an upload: the image in the field named after its kind. */
const ApiImageUpload = (kind: ImageKind) =>
  applyDecorators(
    ApiConsumes('multipart/form-data'),
    ApiBody({
      schema: {
        type: 'object',
        required: [kind],
        properties: {
          [kind]: {
            type: 'string',
            format: 'binary',
            description: `A JPG or PNG of at most IMAGE_UPLOAD_LIMIT_BYTES (4 MiB by default). It is re-encoded without its metadata and shrunk to fit ${IMAGE_MAX_SIZE[kind].width}×${IMAGE_MAX_SIZE[kind].height}.`,
          },
        },
      },
    }),
  );

@ApiTags('users')
@Controller('users/:userID')
export class UserImagesController {
  constructor(private readonly images: UserImagesService) {}

  @Put('pfp')
  @RequirePermissions('customise_profile')
  @OwnerOnly()
  @ApiImageUpload('pfp')
  @FileUpload('pfp', IMAGE_LIMIT)
  @ApiOkResponse({ type: ImageLocationResponse })
  putPfp(@TargetUser() user: UserRow, @UploadedFile() file?: Express.Multer.File): Promise<ImageLocationResponse> {
    return this.images.put(user, 'pfp', file);
  }

  @Get('pfp')
  @ApiProduces(...IMAGE_TYPES)
  @ApiOkResponse(IMAGE)
  @ApiFoundResponse(DEFAULT_IMAGE)
  getPfp(@TargetUser() user: UserRow, @Res() res: Response): Promise<void> {
    return this.serve(user, 'pfp', res);
  }

  @Delete('pfp')
  @HttpCode(200)
  @RequirePermissions('customise_profile')
  @OwnerOnly()
  @ApiEmptyObjectResponse()
  async deletePfp(@TargetUser() user: UserRow): Promise<EmptyObject> {
    await this.images.delete(user, 'pfp');
    return {};
  }

  @Put('banner')
  @RequirePermissions('customise_profile')
  @OwnerOnly()
  @ApiImageUpload('banner')
  @FileUpload('banner', IMAGE_LIMIT)
  @ApiOkResponse({ type: ImageLocationResponse })
  putBanner(@TargetUser() user: UserRow, @UploadedFile() file?: Express.Multer.File): Promise<ImageLocationResponse> {
    return this.images.put(user, 'banner', file);
  }

  @Get('banner')
  @ApiProduces(...IMAGE_TYPES)
  @ApiOkResponse(IMAGE)
  @ApiFoundResponse(DEFAULT_IMAGE)
  getBanner(@TargetUser() user: UserRow, @Res() res: Response): Promise<void> {
    return this.serve(user, 'banner', res);
  }

  @Delete('banner')
  @HttpCode(200)
  @RequirePermissions('customise_profile')
  @OwnerOnly()
  @ApiEmptyObjectResponse()
  async deleteBanner(@TargetUser() user: UserRow): Promise<EmptyObject> {
    await this.images.delete(user, 'banner');
    return {};
  }

  /** The stored picture, or a redirect to the default one (never a 404: browsers log a failed image, and Tachi's client shows the default). */
  private async serve(user: UserRow, kind: ImageKind, res: Response): Promise<void> {
    const image = await this.images.get(user, kind);
    if (!image) {
      // Not cached: the user may set a picture at any moment.
      res.setHeader('Cache-Control', 'no-cache');
      res.redirect(302, DEFAULT_PICTURE_PATH[kind]);
      return;
    }
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('ETag', image.etag);
    res.type(image.contentType).send(image.data);
  }
}
