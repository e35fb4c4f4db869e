import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { pinToPrimary } from '../../database/read-route.js';

const PRIMARY_READ = Symbol('PRIMARY_READ');

/**
 * The route reads from the primary even as a GET: it shows state that the change feed does not
 * carry and that must be current for its caller (an import's poll, written by a worker).
 */
export const PrimaryRead = () => SetMetadata(PRIMARY_READ, true);

/** Pins the request's reads to the primary on @PrimaryRead routes (a global guard; it lets every request through). */
@Injectable()
export class PrimaryReadGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean | undefined>(PRIMARY_READ, [context.getHandler(), context.getClass()])) pinToPrimary();
    return true;
  }
}
