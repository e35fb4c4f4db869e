import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { confirmPassword } from '../auth/confirm-password.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { UserBusyError } from '../scoring/import-lock.js';
import { ScoreRemovalService } from '../scoring/removal/score-removal.service.js';
import type { UgptContext } from './ugpt.guard.js';

/** A user deleting their own profile on a GPT, as the admin's destroy-ugpt does. */
@Injectable()
export class UgptRemovalService {
  constructor(
    private readonly users: UsersRepository,
    private readonly removal: ScoreRemovalService,
  ) {}

  async deleteProfile(ugpt: UgptContext, password: string): Promise<void> {
    const { user, gpt } = ugpt;
    await confirmPassword(this.users, user.id, password);
    const removed = await this.removal.destroyProfile(user.id, gpt).catch((err: unknown) => {
      if (err instanceof UserBusyError) throw new ConflictException('You have an import in progress; delete the profile once it has finished.');
      throw err;
    });
    if (!removed) throw new NotFoundException(`The user ${user.username} has not played ${gpt.game} ${gpt.playtype}.`);
  }
}
