import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Webhook events to API clients: storing them after an import, signing and delivering them
 * (through the process's WebhookQueue, which CoreModule provides), retries and the delivery log.
 */
@Module({ imports: [RepositoriesModule], providers: [WebhooksService], exports: [WebhooksService] })
export class WebhooksModule {}
