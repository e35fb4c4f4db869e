import { ApiProperty, type ReferenceObject, type SchemaObject } from '@nestjs/swagger';

/** A value an algorithm or metric may lack: null then. */
export const NULLABLE_NUMBER: SchemaObject = { type: 'number', nullable: true };

/** A player's place under a profile rating algorithm: 1 + the players strictly better, out of every player of the GPT. */
export const RANKING: SchemaObject = {
  type: 'object',
  required: ['ranking', 'outOf'],
  properties: { ranking: { type: 'integer' }, outOf: { type: 'integer' } },
};

/** An object whose keys are open (algorithm names, class sets, a game's metrics); each value matches `values` (true: anything). */
export function ApiMapProperty(values: SchemaObject | ReferenceObject | true, description?: string) {
  return ApiProperty({ type: 'object', additionalProperties: values, description });
}
