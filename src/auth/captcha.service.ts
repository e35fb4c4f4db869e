import { BadRequestException, Injectable, Logger, ServiceUnavailableException, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';

/**
 * Checks a captcha token with the configured siteverify endpoint (reCAPTCHA, hCaptcha and
 * Turnstile share its form: POST secret, response, remoteip; answer {success}).
 * Without CAPTCHA_VERIFY_URL nothing is checked, and boot logs a warning.
 */
@Injectable()
export class CaptchaService implements OnModuleInit {
  private readonly logger = new Logger(CaptchaService.name);

  constructor(private readonly config: AppConfig) {}

  onModuleInit() {
    if (!this.config.captchaEnabled) this.logger.warn('CAPTCHA_VERIFY_URL is not set: captchas on login and register are not checked.');
  }

  async verify(token: string | undefined, remoteIp: string | undefined): Promise<void> {
    const url = this.config.CAPTCHA_VERIFY_URL;
    if (!url) return;
    if (!token) throw new BadRequestException('captcha is required.');
    const form = new URLSearchParams({ secret: this.config.CAPTCHA_SECRET ?? '', response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    let result: { success?: unknown };
    try {
      const res = await fetch(url, { method: 'POST', body: form, signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`siteverify answered HTTP ${res.status}`);
      result = (await res.json()) as { success?: unknown };
    } catch (err) {
      this.logger.error(`Captcha verification failed: ${(err as Error).message}`);
      throw new ServiceUnavailableException('The captcha could not be verified right now. Try again shortly.');
    }
    if (result.success !== true) throw new BadRequestException('Captcha verification failed.');
  }
}
