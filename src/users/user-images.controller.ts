import { Controller, Delete, Get, HttpCode, Put, Res, StreamableFile, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { OwnerOnly, RequirePermissions, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import type { ImageKind } from '../repositories/users.repository.js';
import { UserImagesService } from './user-images.service.js';

@ApiTags('users')
@Controller('users/:userID')
export class UserImagesController {
  constructor(private readonly images: UserImagesService) {}

  @Put('pfp')
  @RequirePermissions('customise_profile')
  @OwnerOnly()
  @ApiConsumes('multipart/form-data')
  @UseInterceptors(FileInterceptor('pfp'))
  putPfp(@TargetUser() user: UserRow, @UploadedFile() file?: Express.Multer.File) {
    return this.images.put(user, 'pfp', file);
  }

  @Get('pfp')
  getPfp(@TargetUser() user: UserRow, @Res({ passthrough: true }) res: Response) {
    return this.serve(user, 'pfp', res);
  }

  @Delete('pfp')
  @HttpCode(200)
  @RequirePermissions('customise_profile')
  @OwnerOnly()
  async deletePfp(@TargetUser() user: UserRow) {
    await this.images.delete(user, 'pfp');
    return {};
  }

  @Put('banner')
  @RequirePermissions('customise_profile')
  @OwnerOnly()
  @ApiConsumes('multipart/form-data')
  @UseInterceptors(FileInterceptor('banner'))
  putBanner(@TargetUser() user: UserRow, @UploadedFile() file?: Express.Multer.File) {
    return this.images.put(user, 'banner', file);
  }

  @Get('banner')
  getBanner(@TargetUser() user: UserRow, @Res({ passthrough: true }) res: Response) {
    return this.serve(user, 'banner', res);
  }

  @Delete('banner')
  @HttpCode(200)
  @RequirePermissions('customise_profile')
  @OwnerOnly()
  async deleteBanner(@TargetUser() user: UserRow) {
    await this.images.delete(user, 'banner');
    return {};
  }

  private async serve(user: UserRow, kind: ImageKind, res: Response) {
    const image = await this.images.get(user, kind);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('ETag', image.etag);
    return new StreamableFile(image.data, { type: image.contentType, length: image.data.length });
  }
}
