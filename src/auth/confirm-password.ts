import { UnauthorizedException } from '@nestjs/common';
import type { UsersRepository } from '../repositories/users.repository.js';
import { verifyPassword } from './password.js';

/** Throws 401, as a failed login does, unless the password is the user's. */
export async function confirmPassword(users: UsersRepository, userID: number, password: string): Promise<void> {
  const credentials = await users.findCredentials(userID);
  if (!(await verifyPassword(credentials?.passwordHash, password))) throw new UnauthorizedException('The password is wrong.');
}
