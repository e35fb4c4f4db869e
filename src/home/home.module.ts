import { Module } from '@nestjs/common';
import { ApiIndexController } from './api-index.controller.js';

/** The API's index at /api/v1 (the page at / is served by app.factory.ts, outside the API prefix). */
@Module({ controllers: [ApiIndexController] })
export class HomeModule {}
