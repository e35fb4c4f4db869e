import { Controller, Delete, Get, HttpCode, Put, Res, StreamableFile, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiConsumes, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { OwnerOnly, RequirePermissions, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import type { ImageKind } from '../repositories/users.repository.js';
import { UserImagesService } from './user-images.service.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { ImageLocationResponse } from './dto/user.responses.js';

const IMAGE_TYPES = ['image/jpeg', 'image/png'];
const IMAGE = { description: 'The stored JPG or PNG.', schema: { type: 'string', format: 'binary' } };

@ApiTags('users')
@Controller('users/:userID')
export class UserImagesController {
  constructor(private readonly images: UserImagesService) {}

  @Put('pfp')
  @RequirePermissions('customise_profile')
  @OwnerOnly()
  @ApiConsumes('multipart/form-data')
  @UseInterceptors(FileInterceptor('pfp'))
  @ApiOkResponse({ type: ImageLocationResponse })
  putPfp(@TargetUser() user: UserRow, @UploadedFile() file?: Express.Multer.File): Promise<ImageLocationResponse> {
    return this.images.put(user, 'pfp', file);
  }

  @Get('pfp')
  @ApiProduces(...IMAGE_TYPES)
  @ApiOkResponse(IMAGE)
  getPfp(@TargetUser() user: UserRow, @Res({ passthrough: true }) res: Response): Promise<StreamableFile> {
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
  @ApiConsumes('multipart/form-data')
  @UseInterceptors(FileInterceptor('banner'))
  @ApiOkResponse({ type: ImageLocationResponse })
  putBanner(@TargetUser() user: UserRow, @UploadedFile() file?: Express.Multer.File): Promise<ImageLocationResponse> {
    return this.images.put(user, 'banner', file);
  }

  @Get('banner')
  @ApiProduces(...IMAGE_TYPES)
  @ApiOkResponse(IMAGE)
  getBanner(@TargetUser() user: UserRow, @Res({ passthrough: true }) res: Response): Promise<StreamableFile> {
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

  private async serve(user: UserRow, kind: ImageKind, res: Response): Promise<StreamableFile> {
    const image = await this.images.get(user, kind);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('ETag', image.etag);
    return new StreamableFile(image.data, { type: image.contentType, length: image.data.length });
  }
}
