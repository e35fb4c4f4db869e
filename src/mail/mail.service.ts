import { Injectable, Logger } from '@nestjs/common';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { AppConfig } from '../config/app-config.js';
import { randomHex } from '../common/crypto.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail through SMTP_URL, or writes it as .eml files to DATA_DIR/outbox when SMTP is not configured. */
@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: Transporter;
  private readonly outbox?: string;

  constructor(private readonly config: AppConfig) {
    if (config.SMTP_URL) {
      this.transport = nodemailer.createTransport(config.SMTP_URL);
    } else {
      this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      this.outbox = path.join(config.dataDir, 'outbox');
    }
  }

  async send(mail: Mail): Promise<void> {
    const info = (await this.transport.sendMail({ from: this.config.MAIL_FROM, ...mail })) as { message?: Buffer };
    if (this.outbox) {
      await fs.mkdir(this.outbox, { recursive: true });
      const file = path.join(this.outbox, `${Date.now()}-${randomHex(4)}.eml`);
      await fs.writeFile(file, info.message ?? '', { mode: 0o600 });
      this.logger.log(`SMTP_URL is not set: wrote "${mail.subject}" for ${mail.to} to ${file}`);
    }
  }
}
