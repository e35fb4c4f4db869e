import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';

/** A route id that must be a 32-bit integer of at least `min` (1 by default); anything else is a 400, never a database error. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  constructor(
    private readonly name = 'id',
    private readonly min = 1,
  ) {}

  transform(value: string): number {
    if (!/^[0-9]{1,10}$/.test(value) || Number(value) < this.min || Number(value) > 2147483647) {
      throw new BadRequestException(`${this.name} must be ${this.min === 0 ? 'a non-negative' : 'a positive'} integer (received '${value}').`);
    }
    return Number(value);
  }
}
