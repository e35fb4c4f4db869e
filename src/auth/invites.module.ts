import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { InvitesService } from './invites.service.js';

/** Invite codes: registration consumes them (AuthModule), the CLI creates and lists them. */
@Module({ imports: [RepositoriesModule], providers: [InvitesService], exports: [InvitesService] })
export class InvitesModule {}
