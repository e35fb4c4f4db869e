import { BadRequestException } from '@nestjs/common';
import express, { type RequestHandler } from 'express';

/** Deepest nesting of arrays and objects accepted in a JSON body or uploaded JSON file. */
export const MAX_JSON_DEPTH = 64;

interface Frame {
  value: object;
  depth: number;
  parent: Frame | undefined;
  key: string;
}

function pathOf(frame: Frame | undefined, key?: string): string {
  const parts: string[] = key === undefined ? [] : [key];
  for (let f = frame; f?.parent; f = f.parent) parts.push(f.key);
  const path = parts
    .reverse()
    .map((k) => (/^\d+$/.test(k) ? `[${k}]` : `.${k}`))
    .join('');
  return path ? path.replace(/^\./, '') : 'the top level';
}

/** Whether a string holds no lone surrogate (String.prototype.isWellFormed, Node 20+). */
const wellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** What is wrong with a string PostgreSQL's text cannot hold: a lone surrogate or a NUL. */
function textProblemOf(s: string): string | undefined {
  if (!wellFormed(s)) return 'contains a lone surrogate (an unpaired \\uD800-\\uDFFF escape), which is not valid Unicode text';
  if (s.includes('\u0000')) return 'contains a NUL character (\\u0000), which text cannot hold';
  return undefined;
}

/**
 * The first reason a parsed JSON value cannot be accepted, or undefined: nesting deeper than
 * maxDepth (the validators and writers downstream recurse), or a key or string that is not
 * well-formed UTF-16 (a lone surrogate from a `\ud800` escape) or holds a NUL (`\u0000`), both of
 * which PostgreSQL refuses. Walks
 * with its own stack, so no input can overflow the call stack.
 */
export function jsonProblem(value: unknown, maxDepth = MAX_JSON_DEPTH, options: JsonProblemOptions = {}): string | undefined {
  const textProblem = options.nulIsItsFieldsProblem ? (s: string) => (wellFormed(s) ? undefined : textProblemOf(s)) : textProblemOf;
  const badString = (frame: Frame | undefined, key: string | undefined, why: string) => `${pathOf(frame, key)}: ${why}.`;
  if (typeof value === 'string') {
    const why = textProblem(value);
    return why && badString(undefined, undefined, why);
  }
  if (value === null || typeof value !== 'object') return undefined;
  const stack: Frame[] = [{ value, depth: 1, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > maxDepth) return `The JSON is nested more than ${maxDepth} levels deep (at ${pathOf(frame)}).`;
    const isArray = Array.isArray(frame.value);
    for (const key of Object.keys(frame.value)) {
      const keyWhy = isArray ? undefined : textProblem(key);
      if (keyWhy) return `${pathOf(frame)}: a key ${keyWhy}.`;
      const child: unknown = (frame.value as Record<string, unknown>)[key];
      if (typeof child === 'string') {
        const why = textProblem(child);
        if (why) return badString(frame, key, why);
      } else if (child !== null && typeof child === 'object') {
        stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
      }
    }
  }
  return undefined;
}

export interface JsonProblemOptions {
  /**
   * true for an imported file: a NUL is left to the format's own checks, which make it that score's
   * error (or the file's, in its meta) instead of refusing every score of the file.
   */
  nulIsItsFieldsProblem?: boolean;
}

/** Throws a 400 naming the problem when jsonProblem finds one; `what` names the input ("The request body"). */
export function assertAcceptableJson(value: unknown, what: string, options: JsonProblemOptions = {}): void {
  const problem = jsonProblem(value, MAX_JSON_DEPTH, options);
  if (problem) throw new BadRequestException(`${what} cannot be accepted: ${problem}`);
}

/** A JSON value in words, for messages: "nothing", "null", "an array", "a string", "the number 5", "true". */
export function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value === 'number' ? 'the number ' : ''}${String(value)}`;
  return `a JSON ${typeof value}`;
}

/** Set on a body parser's 413 error: the setting whose limit the body went over, which the message names. */
export const LIMIT_SETTING = Symbol('LIMIT_SETTING');

/** Marks a body parser's 413 with the setting of its limit. */
function namingLimit(setting: string | undefined, next: (err?: unknown) => void) {
  return (err?: unknown) => {
    if (setting && err !== null && typeof err === 'object' && (err as { type?: unknown }).type === 'entity.too.large')
      (err as Record<symbol, unknown>)[LIMIT_SETTING] = setting;
    next(err);
  };
}

/** express.urlencoded (flat keys), whose 413 names `setting`. */
export function formBodyParser(options: { limit: number; setting?: string }): RequestHandler {
  const parse = express.urlencoded({ extended: false, limit: options.limit });
  return (req, res, next) => parse(req, res, namingLimit(options.setting, next));
}

/** Bodies already checked (a route with its own size limit runs two parsers; the second one reuses the body). */
const checked = new WeakSet<object>();

/** express.json, then assertAcceptableJson on what it parsed: every JSON body passes through this. Its 413 names `setting`. */
export function jsonBodyParser(options: { limit: number; setting?: string }): RequestHandler {
  const parse = express.json({ limit: options.limit });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (err) return namingLimit(options.setting, next)(err);
      const body: unknown = req.body;
      if (body === null || typeof body !== 'object' || checked.has(body)) return next();
      try {
        assertAcceptableJson(body, 'The request body');
        checked.add(body);
      } catch (problem) {
        // The logger still reads the body when the response ends; it must not hold the hostile one.
        req.body = undefined;
        return next(problem);
      }
      next();
    });
}
