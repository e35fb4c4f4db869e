import type { OpenAPIObject, OperationObject, ParameterObject } from '@nestjs/swagger';
import { GAMES } from '../game-support/registry.js';

type Documented = Pick<ParameterObject, 'description' | 'schema'>;

const textID = (description: string): Documented => ({ description, schema: { type: 'string' } });

/**
 * What each path parameter name means, wherever a route uses it. The access guard resolves
 * :userID on every route, and the GPT decorators resolve :game and :playtype, so these hold for
 * all routes alike.
 */
const PATH_PARAMETERS: Record<string, Documented> = {
  userID: {
    description: 'A user: their numeric id, their username (case-insensitive), or `me` for the requester (401 without authentication).',
    schema: { type: 'string' },
  },
  game: { description: 'A game id (GET /api/v1/games lists them).', schema: { type: 'string', enum: GAMES.map((g) => g.game) } },
  playtype: {
    description: `One of the game's playtypes: ${GAMES.map((g) => `${g.game} ${g.playtypes.join(', ')}`).join('; ')}.`,
    schema: { type: 'string', enum: [...new Set(GAMES.flatMap((g) => g.playtypes))] },
  },
  songID: { description: "A song's id in its game.", schema: { type: 'integer', minimum: 0 } },
  keyID: { description: "An API key's keyID (from GET /api/v1/users/{userID}/api-tokens).", schema: { type: 'integer', minimum: 1 } },
  chartID: textID("A chart's chartID."),
  scoreID: textID("A score's scoreID."),
  sessionID: textID("A session's sessionID."),
  importID: textID("An import's importID."),
  clientID: textID("An API client's clientID (CI…)."),
  folderID: textID("A folder's folderID."),
  tableID: textID("A table's tableID."),
  goalID: textID("A goal's goalID."),
  questID: textID("A quest's questID."),
  questlineID: textID("A questline's questlineID."),
  chartHash: textID("The chart's SHA-1 hash, as USC sends it (a USC chart's data.hashSHA1)."),
  sha256: textID("The chart's SHA-256 hash, as beatoraja sends it (a BMS or PMS chart's data.hashSHA256)."),
  iidxPlaytype: {
    description: "One of beatmania IIDX's playtypes.",
    schema: { type: 'string', enum: [...(GAMES.find((g) => g.game === 'iidx')?.playtypes ?? [])] },
  },
  bmsPlaytype: { description: "One of BMS's playtypes.", schema: { type: 'string', enum: [...(GAMES.find((g) => g.game === 'bms')?.playtypes ?? [])] } },
  playlistID: textID('A playlist set (GET /api/v1/games/iidx/{iidxPlaytype}/playlists lists them).'),
  checksum: textID("A BMS chart's MD5 (32 hex digits) or SHA-256 (64 hex digits)."),
  urlName: textID("A custom table's urlName (GET /api/v1/games/bms/{bmsPlaytype}/custom-tables lists them)."),
};

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/**
 * Gives every operation each path parameter of its route. Nest documents only those read with
 * @Param, and most routes read :userID, :game and :playtype through guards and custom
 * decorators (TargetUser, Gpt, Ugpt), which document nothing: without this, clients would send
 * the literal `{userID}`. A parameter the route documents itself (with a description) is kept;
 * the others take the meaning above, or a plain string for a name it does not know. Path
 * parameters come first, in the path's order.
 */
export function documentPathParameters(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    for (const method of METHODS) {
      const operation: OperationObject | undefined = item[method];
      if (!operation) continue;
      const parameters = (operation.parameters ?? []) as ParameterObject[];
      const own = new Map(parameters.filter((p) => p.in === 'path').map((p) => [p.name, p]));
      const pathParameters = names.map((name): ParameterObject => {
        const declared = own.get(name);
        if (declared?.description) return { ...declared, required: true };
        return { name, in: 'path', required: true, ...(PATH_PARAMETERS[name] ?? { schema: declared?.schema ?? { type: 'string' } }) };
      });
      operation.parameters = [...pathParameters, ...parameters.filter((p) => p.in !== 'path')];
    }
  }
  return document;
}
