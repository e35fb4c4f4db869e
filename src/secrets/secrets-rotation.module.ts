import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { SecretsRotationService } from './secrets-rotation.service.js';

/** `secrets rotate` (the CLI's): re-encrypting the stored secrets with the current key. SecretsService comes from CoreModule. */
@Module({ imports: [RepositoriesModule], providers: [SecretsRotationService], exports: [SecretsRotationService] })
export class SecretsRotationModule {}
