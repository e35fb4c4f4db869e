import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual } from '../support/imports.js';
import { issueTachiToken, signUpTachi } from '../support/tachi.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

/**
 * Messages that name the cause, under both API profiles: a body in a media type the route does
 * not take (415), direct-manual without a usable body, a limit said once, uploads that name their
 * field and limit.
 */

const API = '/api/v1';
const IMAGE_LIMIT = 2048;
const IMPORT_LIMIT = 4096;
const BODY_LIMIT = 3000;

const JSON_PLEASE = 'Send the body as JSON with Content-Type: application/json';
const CURL_FORM = "curl -d sends that unless you add -H 'Content-Type: application/json'";

interface Answer {
  status: number;
  body: unknown;
}

/** Raw HTTP (supertest always sets a Content-Type on a string body): the status and parsed body. */
function rawPost(port: number, path: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers: { 'Content-Length': Buffer.byteLength(body), ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(['spec', 'tachi'] as const)('API_PROFILE=%s', (profile) => {
  let t: TestApp;
  let port: number;
  let u: SignedUpUser;
  let token: string;

  /** The error's status and message, checking the profile's error shape. */
  function failure(res: Answer): [number, string] {
    const body = res.body as Record<string, unknown>;
    if (profile === 'tachi') {
      expect(body).toEqual({ success: false, description: expect.any(String) });
      return [res.status, body.description as string];
    }
    expect(body).toEqual({ statusCode: res.status, error: expect.any(String), message: expect.any(String) });
    return [res.status, body.message as string];
  }

  beforeAll(async () => {
    t = await createTestApp({
      API_PROFILE: profile,
      IMAGE_UPLOAD_LIMIT_BYTES: String(IMAGE_LIMIT),
      IMPORT_FILE_LIMIT_BYTES: String(IMPORT_LIMIT),
      BODY_LIMIT_BYTES: String(BODY_LIMIT),
    });
    await t.app.listen(0, '127.0.0.1');
    port = ((t.app.getHttpServer() as http.Server).address() as AddressInfo).port;
    u = profile === 'tachi' ? await signUpTachi(t) : await signUp(t);
    token = await (profile === 'tachi' ? issueTachiToken : issueToken)(u, ['submit_score', 'customise_profile']);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('a JSON body sent with another content type: 415 naming both', () => {
    const registration = JSON.stringify({ username: 'curl_user', '!password': 'long enough pw', email: 'curl@example.test', captcha: 'x' });

    it('as a form, as curl -d sends it (was: "property {…} should not exist; username must be a string; …")', async () => {
      const res = await t.http().post(`${API}/auth/register`).type('form').send(registration);
      expect(failure(res)).toEqual([415, `${JSON_PLEASE} (received application/x-www-form-urlencoded: ${CURL_FORM}).`]);
    });

    it('as text/plain, and with no Content-Type at all (was: "username must be a string; …")', async () => {
      const text = await t.http().post(`${API}/auth/register`).set('Content-Type', 'text/plain').send(registration);
      expect(failure(text)).toEqual([415, `${JSON_PLEASE} (received text/plain).`]);
      const none = await rawPost(port, `${API}/auth/register`, registration);
      expect(failure(none)).toEqual([415, `${JSON_PLEASE} (received a body without a Content-Type).`]);
    });

    it('to login, whose guard reads the body before the route', async () => {
      const res = await t.http().post(`${API}/auth/login`).set('Content-Type', 'text/plain').send(registration);
      expect(failure(res)).toEqual([415, `${JSON_PLEASE} (received text/plain).`]);
    });

    it('still answers 401 first to a guest', async () => {
      const res = await t.http().post(`${API}/ir/direct-manual/import`).set('Content-Type', 'text/plain').send('{"meta": {}}');
      expect(failure(res)[0]).toBe(401);
    });

    it('a request without a body says so when validation fails', async () => {
      const [status, message] = failure(await t.http().post(`${API}/auth/register`));
      expect(status).toBe(400);
      expect(message).toMatch(/username must be a string.*\(the request has no body: send the fields as JSON with Content-Type: application\/json\)$/);
    });

    it('a multipart route asks for multipart/form-data with its field', async () => {
      const res = await t.http().post(`${API}/import/file`).set(bearer(token)).send({ importType: 'file/batch-manual' });
      expect(failure(res)).toEqual([
        415,
        "Send the body as multipart/form-data with the file in field 'scoreData', e.g. curl -F 'scoreData=@<file>' (received application/json).",
      ]);
    });
  });

  describe('the OAuth2 token route, which takes forms too', () => {
    it('accepts a form: it reaches the route (an unknown client is its 404)', async () => {
      const form = 'client_id=CInone&client_secret=CSx&redirect_uri=https%3A%2F%2Fexample.com&code=abc&grant_type=authorization_code';
      const res = await t.http().post(`${API}/oauth/token`).type('form').send(form);
      expect(failure(res)[0]).toBe(404);
    });

    it('names the form when its validation fails, and a form that holds JSON as such', async () => {
      const [status, message] = failure(await t.http().post(`${API}/oauth/token`).type('form').send('client_id=CInone'));
      expect(status).toBe(400);
      expect(message).toMatch(/client_secret must be a string.*\(the body was sent as application\/x-www-form-urlencoded\)$/);
      const json = await t
        .http()
        .post(`${API}/oauth/token`)
        .type('form')
        .send(JSON.stringify({ client_id: 'CInone', client_secret: 'x' }));
      expect(failure(json)).toEqual([
        400,
        `The body is JSON but was sent as application/x-www-form-urlencoded (${CURL_FORM}): send it with Content-Type: application/json.`,
      ]);
    });

    it('refuses another media type with both it takes', async () => {
      const res = await t.http().post(`${API}/oauth/token`).set('Content-Type', 'text/plain').send('{"client_id": "x"}');
      expect(failure(res)).toEqual([
        415,
        'Send the body as JSON with Content-Type: application/json, or as a form (Content-Type: application/x-www-form-urlencoded) (received text/plain).',
      ]);
    });
  });

  describe('direct-manual without a usable body (was: "… must be a JSON object (received undefined)")', () => {
    const direct = (path = `${API}/ir/direct-manual/import`) => t.http().post(path).set(bearer(token));

    it('no body: says what is expected and that nothing came', async () => {
      for (const path of [`${API}/ir/direct-manual/import`, '/ir/direct-manual/import']) {
        expect(failure(await direct(path))).toEqual([
          400,
          'The body must be a batch-manual JSON object with meta and scores; received nothing (send the document as the request body, with Content-Type: application/json).',
        ]);
      }
    });

    it('a body of the wrong type: says which', async () => {
      expect(failure(await direct().send([batchManual('sdvx', 'Single', [])]))).toEqual([
        400,
        'The body must be a batch-manual JSON object with meta and scores; received an array.',
      ]);
      expect(failure(await direct().set('Content-Type', 'application/json').send('"scores"'))).toEqual([
        400,
        'The JSON body must be an object (or an array); received a string.',
      ]);
      expect(
        failure(
          await direct()
            .set('Content-Type', 'text/plain')
            .send(JSON.stringify(batchManual('sdvx', 'Single', []))),
        ),
      ).toEqual([415, `${JSON_PLEASE} (received text/plain).`]);
    });
  });

  it('says a limit once (was: "limit must be an integer from 1 to 500" three times)', async () => {
    for (const limit of ['abc', '-1']) {
      expect(failure(await t.http().get(`${API}/games/sdvx/Single/leaderboard?limit=${limit}`))).toEqual([400, 'limit must be an integer from 1 to 500']);
    }
  });

  it('names the limit of a body too large (was: "The request body is too large.")', async () => {
    const res = await t
      .http()
      .post(`${API}/status`)
      .send({ echo: 'x'.repeat(4000) });
    expect(failure(res)).toEqual([413, `The request body is too large: it is 3.9 KiB; the limit is 2.9 KiB (BODY_LIMIT_BYTES=${BODY_LIMIT}).`]);
  });

  describe('uploads name the field and the limit', () => {
    const pfp = () => u.agent.put(`${API}/users/${u.user.id}/pfp`);

    it('a file over the limit (was: "File too large")', async () => {
      const [status, message] = failure(await pfp().attach('pfp', Buffer.alloc(IMAGE_LIMIT + 3000), 'big.png'));
      expect(status).toBe(413);
      expect(message).toMatch(/^The file in field 'pfp' is too large: the limit is 2 KiB \(IMAGE_UPLOAD_LIMIT_BYTES=2048\), and this upload is 5\.\d KiB\.$/);
      const file = await t
        .http()
        .post(`${API}/import/file`)
        .set(bearer(token))
        .field('importType', 'file/batch-manual')
        .attach('scoreData', Buffer.alloc(IMPORT_LIMIT + 1, 0x20), 'scores.json');
      expect(failure(file)[1]).toMatch(/^The file in field 'scoreData' is too large: the limit is 4 KiB \(IMPORT_FILE_LIMIT_BYTES=4096\), and this upload is /);
    });

    it('a file in another field (was: "Unexpected file field - banner"), or two files (was: "Too many files")', async () => {
      expect(failure(await pfp().attach('banner', Buffer.alloc(10), 'a.png'))).toEqual([400, "Unexpected file field 'banner': send one file, in field 'pfp'."]);
      expect(failure(await pfp().attach('pfp', Buffer.alloc(10), 'a.png').attach('pfp', Buffer.alloc(10), 'b.png'))).toEqual([
        400,
        "Too many files: send one file, in field 'pfp'.",
      ]);
    });

    it('no file, text where the file belongs, and a body that is not multipart', async () => {
      expect(failure(await pfp().field('note', 'no file'))).toEqual([400, "Expected a JPG or PNG file in the multipart field 'pfp'."]);
      expect(failure(await pfp().field('pfp', 'image.png'))).toEqual([
        400,
        "The field 'pfp' holds text, not a file: attach the file itself (with curl: -F 'pfp=@<file>', with the @).",
      ]);
      expect(failure(await pfp().send({ pfp: 'image.png' }))).toEqual([
        415,
        "Send the body as multipart/form-data with the file in field 'pfp', e.g. curl -F 'pfp=@<file>' (received application/json).",
      ]);
    });
  });
});
