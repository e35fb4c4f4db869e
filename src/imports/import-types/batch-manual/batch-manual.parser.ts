import { HttpStatus } from '@nestjs/common';
import { findGame, GAMES } from '../../../game-support/registry.js';
import type { GptSupport } from '../../../game-support/types.js';
import { describeJson } from '../../../http/json-body.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ParsedImport } from '../types.js';

const TOP_LEVEL_KEYS = ['meta', 'scores', 'classes', 'head', 'body'];
const META_KEYS = ['game', 'playtype', 'service', 'version'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks the document's structure (spec part 2, batch-manual). Any problem here rejects the whole
 * import with a 400 that says where; problems with single scores are left to the converter.
 * The older top-level names `head` and `body` are read as `meta` and `scores`. `source` names
 * where the document came from in the message for one that is no object ("The scoreData file").
 */
export function parseBatchManual(document: unknown, maxScores: number, source = 'The document'): ParsedImport {
  if (!isObject(document))
    throw new ImportRejectedError(`${source} must be a batch-manual JSON object with meta and scores; received ${describeJson(document)}.`);
  const unknown = Object.keys(document).filter((k) => !TOP_LEVEL_KEYS.includes(k));
  if (unknown.length)
    throw new ImportRejectedError(
      `Unknown top-level key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')}: expected meta, scores and optionally classes.`,
    );
  if ('meta' in document && 'head' in document) throw new ImportRejectedError("Give 'meta' or its older name 'head', not both.");
  if ('scores' in document && 'body' in document) throw new ImportRejectedError("Give 'scores' or its older name 'body', not both.");
  const meta = document.meta ?? document.head;
  const scores = document.scores ?? document.body;

  if (!isObject(meta)) throw new ImportRejectedError('meta must be an object with game, playtype and service.');
  const unknownMeta = Object.keys(meta).filter((k) => !META_KEYS.includes(k));
  if (unknownMeta.length) throw new ImportRejectedError(`Unknown key${unknownMeta.length > 1 ? 's' : ''} in meta: ${unknownMeta.join(', ')}.`);
  if (typeof meta.game !== 'string') throw new ImportRejectedError('meta.game is required and must be a string.');
  const game = findGame(meta.game);
  if (!game) throw new ImportRejectedError(`meta.game '${meta.game}' is not a supported game. Expected one of: ${GAMES.map((g) => g.game).join(', ')}.`);
  if (typeof meta.playtype !== 'string') throw new ImportRejectedError('meta.playtype is required and must be a string.');
  // Own keys only: an inherited name such as 'constructor' is no playtype.
  const gpt = game.playtypes.includes(meta.playtype) ? game.gpts[meta.playtype] : undefined;
  if (!gpt) throw new ImportRejectedError(`meta.playtype '${meta.playtype}' is not a playtype of ${game.game}. Expected one of: ${game.playtypes.join(', ')}.`);
  if (typeof meta.service !== 'string' || meta.service.length < 2 || meta.service.length > 15 || meta.service.includes('\u0000')) {
    throw new ImportRejectedError('meta.service is required: a string of 2 to 15 characters naming where the scores come from.');
  }
  if (meta.version !== undefined && meta.version !== null) {
    if (typeof meta.version !== 'string') throw new ImportRejectedError('meta.version must be a string.');
    if (!Object.hasOwn(gpt.versions, meta.version))
      throw new ImportRejectedError(
        `meta.version '${meta.version}' is not a version of ${gpt.game} ${gpt.playtype}. Expected one of: ${Object.keys(gpt.versions).join(', ')}.`,
      );
  }

  if (!Array.isArray(scores)) throw new ImportRejectedError('scores must be an array of score objects.');
  if (scores.length > maxScores)
    throw new ImportRejectedError(
      `This import has ${scores.length} scores; the limit is ${maxScores} per import. Split it into several imports.`,
      HttpStatus.PAYLOAD_TOO_LARGE,
    );

  return {
    gpt,
    context: { service: meta.service, version: (meta.version as string | undefined) ?? null },
    classes: parseClasses(document.classes, gpt),
    items: scores,
  };
}

/** The optional `classes` block: provided class sets only, by value id. */
function parseClasses(value: unknown, gpt: GptSupport): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new ImportRejectedError('classes must be an object of class set to value.');
  const provided = Object.entries(gpt.classes).filter(([, set]) => set.type === 'PROVIDED');
  const result: Record<string, string> = {};
  for (const [name, id] of Object.entries(value)) {
    const set = Object.hasOwn(gpt.classes, name) ? gpt.classes[name] : undefined;
    if (!set || set.type !== 'PROVIDED') {
      throw new ImportRejectedError(
        `classes.${name} is not a class an import can set for ${gpt.game} ${gpt.playtype}.${provided.length ? ` Expected: ${provided.map(([n]) => n).join(', ')}.` : ' It has none.'}`,
      );
    }
    if (id === null) continue;
    if (typeof id !== 'string' || !set.values.some((v) => v.id === id)) {
      throw new ImportRejectedError(`classes.${name} '${String(id)}' is not a value of ${name}. Expected one of: ${set.values.map((v) => v.id).join(', ')}.`);
    }
    result[name] = id;
  }
  return result;
}
