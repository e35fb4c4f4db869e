import { z } from 'zod';

/** A HEAD GRAPH: every point present (NULLABLE_GRAPH, which allows missing points, is metrics.ts graphOf). */
export const fullGraphOf = (min: number, max: number) => z.array(z.number().min(min).max(max)).nullable().optional();
