import { Global, Module } from '@nestjs/common';
import { SecretsService } from './secrets.service.js';

/** The process's SecretsService (its keyring is read, or the embedded key file made, at its first use). Every process has it through CoreModule. */
@Global()
@Module({ providers: [SecretsService], exports: [SecretsService] })
export class SecretsModule {}
