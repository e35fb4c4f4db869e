import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { findGpt, GAMES } from '../../src/game-support/registry.js';
import { SERVER_VERSION } from '../../src/status/version.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { METHODS, type OpenApiDocument } from '../support/openapi-schema.js';

/** How the snippet below reads an answer's document: as it is under spec, inside Tachi's envelope under tachi. */
const ANSWER = {
  spec: `function answer<T>({ data, response }: { data?: T; response: Response }): T {
  if (data === undefined) throw new Error(\`\${response.url} answered \${response.status}\`);
  return data;
}`,
  tachi: `function answer<T>({ data, response }: { data?: { success: true; description: string; body: T }; response: Response }): T {
  if (data === undefined) throw new Error(\`\${response.url} answered \${response.status}\`);
  return data.body;
}`,
};

/**
 * A client of the generated types, as an application would write it: it must type-check against
 * them, and then runs against the server. misuses is never called: each of its calls must fail to
 * type-check, which shows that path parameters are required and typed.
 */
const snippet = (profile: keyof typeof ANSWER) => `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

${ANSWER[profile]}

export async function walk(baseUrl: string, username: string) {
  const client = createClient<paths>({ baseUrl });
  const guest = answer(await client.GET('/api/v1/status'));
  const registered = await client.POST('/api/v1/auth/register', {
    body: { username, '!password': 'correct horse battery', email: \`\${username}@example.com\` },
  });
  const user = answer(registered);
  const cookie = registered.response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const byName = answer(await client.GET('/api/v1/users/{userID}', { params: { path: { userID: username.toUpperCase() } } }));
  const me = answer(await client.GET('/api/v1/users/{userID}', { params: { path: { userID: 'me' } }, headers: { cookie } }));
  const gpt = answer(await client.GET('/api/v1/games/{game}/{playtype}', { params: { path: { game: 'sdvx', playtype: 'Single' } } }));
  const key = answer(
    await client.POST('/api/v1/users/{userID}/api-tokens/create', {
      params: { path: { userID: String(user.id) } },
      body: { permissions: ['submit_score'] },
      headers: { cookie },
    }),
  );
  const withToken = answer(await client.GET('/api/v1/status', { headers: { authorization: \`Bearer \${key.token}\` } }));
  return {
    version: guest.version,
    guest: guest.whoami,
    userID: user.id,
    byName: byName.id,
    me: me.username,
    defaultProfileRatingAlg: gpt.config.defaultProfileRatingAlg,
    token: key.token,
    withToken: { whoami: withToken.whoami, permissions: withToken.permissions },
  };
}

export async function misuses(baseUrl: string) {
  const client = createClient<paths>({ baseUrl });
  // @ts-expect-error the route's path parameters are required
  await client.GET('/api/v1/users/{userID}/games/{game}/{playtype}');
  // @ts-expect-error game is one of the registered games
  await client.GET('/api/v1/games/{game}/{playtype}', { params: { path: { game: 'not-a-game', playtype: 'Single' } } });
  // @ts-expect-error playtype is a playtype
  await client.GET('/api/v1/games/{game}/{playtype}/charts', { params: { path: { game: 'sdvx', playtype: 'Double' } } });
}
`;

describe.each(['spec', 'tachi'] as const)('API_PROFILE=%s: an OpenAPI document clients can use', (profile) => {
  let t: TestApp;
  let baseUrl: string;
  let doc: OpenApiDocument;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp({ API_PROFILE: profile });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const res = await fetch(`${baseUrl}/api/v1/docs.json`);
    expect(res.status).toBe(200);
    doc = (await res.json()) as OpenApiDocument;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-openapi-client-'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([route, item]) => METHODS.filter((m) => item[m]).map((method) => ({ route, method, operation: item[method] })));

  it('gives every operation each path parameter of its route: required, with a schema and a description', () => {
    expect(operations().length).toBeGreaterThan(100);
    const found = operations().flatMap(({ route, method, operation }) => {
      const names = [...route.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const declared = (operation.parameters ?? []).filter((p) => p.in === 'path');
      const at = `${method.toUpperCase()} ${route}`;
      return [
        ...names.filter((name) => !declared.some((p) => p.name === name)).map((name) => `${at}: no {${name}}`),
        ...declared.filter((p) => !names.includes(p.name)).map((p) => `${at}: ${p.name} is not in the path`),
        ...declared.filter((p) => p.required !== true || !p.schema || !p.description).map((p) => `${at}: ${p.name} is not required, typed and described`),
      ];
    });
    expect(found).toEqual([]);
  });

  it('types userID, game and playtype as the server resolves them', () => {
    const parameter = (route: string, name: string) => doc.paths[route].get.parameters!.find((p) => p.name === name)!;
    const ugpt = '/api/v1/users/{userID}/games/{game}/{playtype}';
    expect(parameter(ugpt, 'userID').schema).toEqual({ type: 'string' });
    expect(parameter(ugpt, 'userID').description).toMatch(/username.*`me`/);
    expect(parameter(ugpt, 'game').schema!.enum).toEqual(GAMES.map((g) => g.game));
    expect(parameter(ugpt, 'playtype').schema!.enum).toEqual(expect.arrayContaining(['SP', 'DP', 'Single', '7K', '14K', 'Controller', 'Keyboard']));
    // The same on routes whose handlers read them with @Param.
    expect(parameter('/api/v1/games/{game}', 'game').schema).toEqual(parameter(ugpt, 'game').schema);
    expect(parameter('/api/v1/games/{game}/{playtype}/songs/{songID}', 'songID').schema).toEqual({ type: 'integer', minimum: 0 });
    // USC's IR takes only USC's playtypes.
    expect(parameter('/api/v1/ir/usc/{playtype}', 'playtype').schema!.enum).toEqual(['Controller', 'Keyboard']);
    // The path parameters make 400 and 404 answers possible.
    expect(Object.keys(doc.paths[`${ugpt}/pbs`].get.responses)).toEqual(expect.arrayContaining(['400', '404']));
  });

  it('describes the bearer token and the session cookie as they are', () => {
    const { bearer, cookie } = doc.components.securitySchemes ?? {};
    expect(bearer).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: '40 hex characters', description: expect.stringContaining('api-tokens/create') });
    expect(cookie).toEqual({ type: 'apiKey', in: 'cookie', name: 'score_tracker_session', description: expect.stringContaining('/auth/login') });
  });

  it('describes the server, its authentication and its error body', () => {
    const description = doc.info.description ?? '';
    expect(description).toContain('(/api/v1/status)');
    expect(description).toContain('Authorization: Bearer <token>');
    expect(description).toContain('score_tracker_session');
    expect(description).toContain(profile === 'spec' ? '`{statusCode, error, message}`' : '`{success: false, description}`');
  });

  it('documents the multipart uploads: the file as binary, with the other fields', () => {
    const multipart = Object.fromEntries(
      operations().flatMap(({ route, method, operation }) => {
        const schema = operation.requestBody?.content['multipart/form-data']?.schema;
        return schema
          ? [[`${method.toUpperCase()} ${route}`, schema.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema]]
          : [];
      }),
    );
    const binary = { type: 'string', format: 'binary', description: expect.any(String) };
    expect(Object.keys(multipart).sort()).toEqual([
      'POST /api/v1/import/file',
      'POST /api/v1/ir/usc/{playtype}/replays',
      'PUT /api/v1/users/{userID}/banner',
      'PUT /api/v1/users/{userID}/pfp',
    ]);
    expect(multipart['PUT /api/v1/users/{userID}/pfp']).toEqual({ type: 'object', required: ['pfp'], properties: { pfp: binary } });
    expect(multipart['PUT /api/v1/users/{userID}/banner']).toEqual({ type: 'object', required: ['banner'], properties: { banner: binary } });
    expect(multipart['POST /api/v1/import/file']).toMatchObject({ required: ['importType', 'scoreData'], properties: { scoreData: binary } });
    expect(Object.keys(multipart['POST /api/v1/import/file'].properties!)).toEqual(['importType', 'scoreData', 'playtype', 'assertPlaytypeCorrect']);
    expect(multipart['POST /api/v1/ir/usc/{playtype}/replays']).toMatchObject({ required: ['identifier', 'replay'], properties: { replay: binary } });
  });

  it('generates a typed client (openapi-typescript) that type-checks, and works against the server (openapi-fetch)', async () => {
    fs.writeFileSync(path.join(dir, 'api.d.ts'), astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0])));
    fs.writeFileSync(path.join(dir, 'client.ts'), snippet(profile));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    // The client resolves openapi-fetch as an application would, from its own node_modules.
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(path.resolve('node_modules/openapi-fetch'), path.join(dir, 'node_modules', 'openapi-fetch'), 'dir');

    const program = ts.createProgram([path.join(dir, 'client.ts')], {
      strict: true,
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts'],
      types: ['node'],
      typeRoots: [path.resolve('node_modules/@types')],
      outDir: dir,
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(errors).toEqual([]);
    program.emit();

    const { walk } = (await import(pathToFileURL(path.join(dir, 'client.js')).href)) as {
      walk: (baseUrl: string, username: string) => Promise<{ userID: number }>;
    };
    const answers = await walk(baseUrl, `client_${profile}`);
    expect(answers).toEqual({
      version: SERVER_VERSION,
      guest: null,
      userID: expect.any(Number),
      byName: answers.userID,
      me: `client_${profile}`,
      defaultProfileRatingAlg: findGpt('sdvx', 'Single')!.defaultProfileRatingAlg,
      token: expect.stringMatching(/^[0-9a-f]{40}$/),
      withToken: { whoami: answers.userID, permissions: ['submit_score'] },
    });
  });
});
