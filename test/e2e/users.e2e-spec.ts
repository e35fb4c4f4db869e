import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PERMISSIONS } from '../../src/common/permissions.js';
import type { UserDocument } from '../../src/presenters/user.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { setLastSeen as storeLastSeen, storeProfiles, storeUser } from '../support/db-fixtures.js';
import { countRows } from '../support/stored.js';
import { bearer, issueToken, signUp, uniqueUsername, type SignedUpUser } from '../support/users.js';

const API = '/api/v1';
const MINUTE = 60_000;
/** A user's socialMedia before they set any. */
const NO_SOCIALS = { discord: null, twitter: null, github: null, steam: null, youtube: null, twitch: null };

describe('users', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Inserts users straight into the table (no credentials): enough for the public reads. */
  async function insertUsers(rows: { username: string; lastSeen: number }[]): Promise<number[]> {
    const ids: number[] = [];
    for (const r of rows) ids.push(await storeUser(t, r.username, { about: 'inserted', joinDate: r.lastSeen, lastSeen: r.lastSeen }));
    return ids;
  }

  const setLastSeen = (ids: number[], lastSeen: number) => storeLastSeen(t, ids, lastSeen);

  describe('GET /users', () => {
    it('returns at most 100 users, most recently seen first, without private fields', async () => {
      const now = Date.now();
      await insertUsers(Array.from({ length: 105 }, (_, i) => ({ username: `bulk_${i}`, lastSeen: now - 10 * MINUTE - i * 1000 })));
      const res = await t.http().get(`${API}/users`);
      expect(res.status).toBe(200);
      const list = res.body as UserDocument[];
      expect(list).toHaveLength(100);
      const seen = list.map((u) => u.lastSeen);
      expect(seen).toEqual([...seen].sort((a, b) => b - a));
      expect(Object.keys(list[0]).sort()).toEqual(
        [
          'about',
          'authLevel',
          'badges',
          'clan',
          'customBannerLocation',
          'customPfpLocation',
          'id',
          'joinDate',
          'lastSeen',
          'socialMedia',
          'status',
          'username',
          'usernameLowercase',
        ].sort(),
      );
    });

    it('with the online presence parameter keeps only users seen in the last 5 minutes', async () => {
      const [recent, borderline, stale] = await insertUsers([
        { username: 'online_recent', lastSeen: Date.now() - MINUTE },
        { username: 'online_border', lastSeen: Date.now() - 4 * MINUTE - 50_000 },
        { username: 'online_stale', lastSeen: Date.now() - 6 * MINUTE },
      ]);
      for (const query of ['online', 'online=', 'online=false']) {
        const res = await t.http().get(`${API}/users?${query}&search=online_`);
        expect(res.status).toBe(200);
        expect((res.body as UserDocument[]).map((u) => u.id)).toEqual([recent, borderline]);
      }
      const all = await t.http().get(`${API}/users?search=online_`);
      expect((all.body as UserDocument[]).map((u) => u.id)).toEqual([recent, borderline, stale]);
    });

    it('counts a user seen through their session as online', async () => {
      const u = await signUp(t);
      await setLastSeen([u.user.id], Date.now() - 60 * MINUTE);
      expect((await t.http().get(`${API}/users?online&search=${u.username}`)).body).toEqual([]);
      await u.agent.get(`${API}/status`);
      const res = await t.http().get(`${API}/users?online&search=${u.username}`);
      expect((res.body as UserDocument[]).map((x) => x.id)).toEqual([u.user.id]);
    });

    it('counts a user seen through an API token as online, writing lastSeen at most once a minute', async () => {
      const u = await signUp(t);
      const token = await issueToken(u, ['submit_score']);
      await setLastSeen([u.user.id], Date.now() - 60 * MINUTE);
      expect((await t.http().get(`${API}/users?online&search=${u.username}`)).body).toEqual([]);
      expect((await t.http().get(`${API}/status`).set(bearer(token))).body.whoami).toBe(u.user.id);
      const res = await t.http().get(`${API}/users?online&search=${u.username}`);
      expect((res.body as UserDocument[]).map((x) => x.id)).toEqual([u.user.id]);

      const recent = Date.now() - 30_000;
      await setLastSeen([u.user.id], recent);
      await t.http().get(`${API}/status`).set(bearer(token));
      expect(((await t.http().get(`${API}/users/${u.user.id}`)).body as UserDocument).lastSeen).toBe(recent);
    });

    it('searches a case-insensitive substring of the username', async () => {
      const [a, b] = await insertUsers([
        { username: 'Needle_Hay', lastSeen: Date.now() - 2000 },
        { username: 'hayNEEDLE', lastSeen: Date.now() - 1000 },
        { username: 'nothing_here', lastSeen: Date.now() },
      ]);
      for (const search of ['needle', 'NEEDLE', 'eEdL']) {
        const res = await t.http().get(`${API}/users`).query({ search });
        expect(res.status).toBe(200);
        expect((res.body as UserDocument[]).map((u) => u.id)).toEqual([b, a]);
      }
    });

    it('treats LIKE wildcards in the search as plain characters', async () => {
      const [underscored] = await insertUsers([
        { username: 'wild_card', lastSeen: Date.now() },
        { username: 'wildXcard', lastSeen: Date.now() },
      ]);
      expect(((await t.http().get(`${API}/users`).query({ search: 'wild_card' })).body as UserDocument[]).map((u) => u.id)).toEqual([underscored]);
      expect((await t.http().get(`${API}/users`).query({ search: 'wild%card' })).body).toEqual([]);
      expect((await t.http().get(`${API}/users`).query({ search: '%' })).body).toEqual([]);
      expect((await t.http().get(`${API}/users`).query({ search: '\\' })).body).toEqual([]);
    });

    it('refuses a repeated, over-long or unknown query parameter (400)', async () => {
      expect((await t.http().get(`${API}/users?search=a&search=b`)).status).toBe(400);
      expect((await t.http().get(`${API}/users?online=1&online=2`)).status).toBe(400);
      expect(
        (
          await t
            .http()
            .get(`${API}/users`)
            .query({ search: 'x'.repeat(101) })
        ).status,
      ).toBe(400);
      expect((await t.http().get(`${API}/users?limit=5`)).status).toBe(400);
    });
  });

  describe('GET /users/:userID', () => {
    it('finds a user by id, by username in any case, and as `me`', async () => {
      const u = await signUp(t);
      const expected = (await t.http().get(`${API}/users/${u.user.id}`)).body as UserDocument;
      expect(expected.id).toBe(u.user.id);
      expect(expected.username).toBe(u.username);
      for (const param of [u.username, u.username.toUpperCase(), u.username.toLowerCase()]) {
        const res = await t.http().get(`${API}/users/${encodeURIComponent(param)}`);
        expect(res.status).toBe(200);
        expect(res.body.id).toBe(u.user.id);
      }
      const me = await u.agent.get(`${API}/users/me`);
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(u.user.id);
      const token = await issueToken(u, []);
      expect((await t.http().get(`${API}/users/me`).set(bearer(token))).body.id).toBe(u.user.id);
    });

    it('answers `me` as a guest with 401 and an unknown user with 404', async () => {
      const me = await t.http().get(`${API}/users/me`);
      expect(me.status).toBe(401);
      expect(me.body.message).toMatch(/'me'/);
      for (const param of ['no_such_user', '999999', '99999999999999999999', 'ab']) {
        const res = await t.http().get(`${API}/users/${param}`);
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(`The user ${param} does not exist.`);
      }
    });
  });

  describe('PATCH /users/:userID', () => {
    let u: SignedUpUser;
    beforeAll(async () => {
      u = await signUp(t);
    });
    const patch = (body: unknown, who: SignedUpUser = u) => who.agent.patch(`${API}/users/${u.user.id}`).send(body as object);

    it('updates about, status and socials and returns the fresh UserDocument', async () => {
      const res = await patch({ about: 'Plays **everything**.', status: 'grinding', discord: 'someone#1234', github: 'octocat' });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(u.user.id);
      expect(res.body.about).toBe('Plays **everything**.');
      expect(res.body.status).toBe('grinding');
      expect(res.body.socialMedia).toEqual({ ...NO_SOCIALS, discord: 'someone#1234', github: 'octocat' });
      expect((await t.http().get(`${API}/users/${u.user.id}`)).body).toEqual(res.body);
    });

    it('leaves absent keys unchanged and unsets keys sent as null', async () => {
      await patch({ status: 'busy', twitter: 'tweeter', twitch: 'streamer' });
      const res = await patch({ twitter: null });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('busy');
      expect(res.body.socialMedia.twitter).toBeNull();
      expect(res.body.socialMedia.twitch).toBe('streamer');
      const unset = await patch({ status: null });
      expect(unset.body.status).toBeNull();
      expect(unset.body.socialMedia.twitch).toBe('streamer');
    });

    it('accepts about of 0 and 2000 characters and refuses 2001 or null', async () => {
      expect((await patch({ about: '' })).body.about).toBe('');
      expect((await patch({ about: 'a'.repeat(2000) })).status).toBe(200);
      const long = await patch({ about: 'a'.repeat(2001) });
      expect(long.status).toBe(400);
      expect(long.body.message).toMatch(/about/);
      const nul = await patch({ about: null });
      expect(nul.status).toBe(400);
      expect(nul.body.message).toMatch(/about must be a string/);
    });

    it.each(['status', 'discord', 'twitter', 'github', 'steam', 'youtube', 'twitch'])('%s takes 3 to 140 characters', async (field) => {
      expect((await patch({ [field]: 'abc' })).status).toBe(200);
      expect((await patch({ [field]: 'b'.repeat(140) })).status).toBe(200);
      for (const bad of ['ab', 'c'.repeat(141), 5, true, ['abc'], {}]) {
        const res = await patch({ [field]: bad });
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(new RegExp(field));
      }
    });

    it.each([
      ['twitter', 'https://twitter.com/Someone', 'Someone'],
      ['twitter', 'https://x.com/someone?s=20', 'someone'],
      ['twitter', 'twitter.com/someone', 'someone'],
      ['github', 'https://github.com/octocat/', 'octocat'],
      ['github', 'https://www.github.com/octocat/repo', 'octocat'],
      ['steam', 'https://steamcommunity.com/id/gabe/', 'gabe'],
      ['steam', 'https://steamcommunity.com/profiles/76561197960287930', '76561197960287930'],
      ['youtube', 'https://www.youtube.com/@creator', 'creator'],
      ['youtube', 'https://youtube.com/channel/UC1234567', 'UC1234567'],
      ['twitch', 'https://www.twitch.tv/streamer', 'streamer'],
      ['twitter', 'https://twitter.com/%E6%97%A5%E6%9C%AC%E8%AA%9E', '日本語'],
      ['discord', 'name.with.dots', 'name.with.dots'],
    ])('stores %s given as %s as the handle %s', async (field, url, handle) => {
      const res = await patch({ [field]: url });
      expect(res.status).toBe(200);
      expect(res.body.socialMedia[field]).toBe(handle);
    });

    it.each([
      ['github', 'https://gitlab.com/octocat'],
      ['github', 'https://notgithub.com/octocat'],
      ['github', 'https://evil.example/github.com/octocat'],
      ['twitter', 'https://max.com/someone'],
      ['twitter', 'https://github.com/someone'],
      ['youtube', 'https://youtube.com.evil.example/@creator'],
      ['discord', 'https://discord.com/users/123'],
      ['steam', 'https://steamcommunity.com/groups/somegroup'],
      ['github', 'https://github.com/'],
      ['github', 'https://github.com/%E0%A4%A'],
      ['twitch', 'https://twitch.tv:bad/streamer'],
      ['twitch', '     '],
    ])('refuses a %s value %s that is not a profile URL of that site (400)', async (field, url) => {
      const before = (await t.http().get(`${API}/users/${u.user.id}`)).body.socialMedia[field];
      const res = await patch({ [field]: url });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(new RegExp(field));
      expect((await t.http().get(`${API}/users/${u.user.id}`)).body.socialMedia[field]).toBe(before);
    });

    it.each([
      ['github', 'https://github.com/ab'],
      ['twitter', 'https://x.com/%E6%97%A5%E6%9C%AC'],
      ['youtube', 'youtube.com/@yt/videos'],
      ['discord', '  ab  '],
    ])('refuses a %s value %s whose handle is shorter than 3 characters (400)', async (field, value) => {
      const before = (await t.http().get(`${API}/users/${u.user.id}`)).body.socialMedia[field];
      const res = await patch({ [field]: value });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`${field}: the handle .* must be 3 to 140 characters long`));
      expect((await t.http().get(`${API}/users/${u.user.id}`)).body.socialMedia[field]).toBe(before);
    });

    it('refuses an empty body, an unknown key and a non-object body (400)', async () => {
      const empty = await patch({});
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe('Nothing was provided to modify.');
      const unknown = await patch({ about: 'fine', username: 'renamed' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toMatch(/username should not exist/);
      expect((await patch({ socialMedia: { github: 'x' } })).status).toBe(400);
      expect((await patch([{ about: 'x' }])).status).toBe(400);
      expect((await t.http().get(`${API}/users/${u.user.id}`)).body.about).not.toBe('fine');
    });

    it('is self-key only: an API token gets 403 even with customise_profile or every permission', async () => {
      for (const permissions of [['customise_profile'], [...PERMISSIONS]] as const) {
        const token = await issueToken(u, [...permissions]);
        const res = await t.http().patch(`${API}/users/${u.user.id}`).set(bearer(token)).send({ status: 'via token' });
        expect(res.status).toBe(403);
        expect(res.body.message).toMatch(/API keys cannot use it/);
      }
      expect((await t.http().get(`${API}/users/${u.user.id}`)).body.status).not.toBe('via token');
    });

    it("refuses another user's session (403) and a guest (401)", async () => {
      const other = await signUp(t);
      const res = await patch({ status: 'hijacked' }, other);
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/not authorised as this user/);
      expect((await t.http().patch(`${API}/users/${u.user.id}`).send({ status: 'hijacked' })).status).toBe(401);
      expect((await t.http().get(`${API}/users/${u.user.id}`)).body.status).not.toBe('hijacked');
    });

    it('works through `me` and the username, and 404s for an unknown user', async () => {
      expect((await u.agent.patch(`${API}/users/me`).send({ status: 'via me' })).body.status).toBe('via me');
      expect((await u.agent.patch(`${API}/users/${u.username.toUpperCase()}`).send({ status: 'via name' })).body.status).toBe('via name');
      expect((await u.agent.patch(`${API}/users/no_such_user`).send({ status: 'whatever' })).status).toBe(404);
    });
  });

  describe('GET /users/:userID/game-stats', () => {
    it('is an empty array for a user who has played nothing', async () => {
      const u = await signUp(t);
      const res = await t.http().get(`${API}/users/${u.user.id}/game-stats`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it('404s for an unknown user', async () => {
      expect((await t.http().get(`${API}/users/no_such_user/game-stats`)).status).toBe(404);
    });

    it('returns every GPT with __rankingData for each profile algorithm: 1 + players strictly better, ties sharing a rank, out of all players', async () => {
      const ids = await insertUsers(
        ['gs_low', 'gs_top1', 'gs_top2', 'gs_unrated', 'gs_other'].map((username) => ({ username: uniqueUsername(username), lastSeen: Date.now() })),
      );
      const [low, top1, top2, unrated, other] = ids;
      const row = (userID: number, game: string, playtype: string, ratings: Record<string, number | null>, classes: Record<string, string> = {}) => ({
        userID,
        game,
        playtype,
        ratings,
        classes,
      });
      const rows = [
        row(low, 'iidx', 'SP', { ktLampRating: 10, BPI: 50 }, { dan: 'KAIDEN' }),
        row(top1, 'iidx', 'SP', { ktLampRating: 20, BPI: 40 }),
        row(top2, 'iidx', 'SP', { ktLampRating: 20 }),
        row(unrated, 'iidx', 'SP', { ktLampRating: null }),
        row(low, 'chunithm', 'Single', { naiveRating: 15.5 }),
        row(other, 'chunithm', 'Single', { naiveRating: 16 }),
      ];
      // With the profile_ratings row the service keeps per numeric rating beside the stats.
      await storeProfiles(t, rows);

      const res = await t.http().get(`${API}/users/${low}/game-stats`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        {
          userID: low,
          game: 'chunithm',
          playtype: 'Single',
          ratings: { naiveRating: 15.5 },
          classes: {},
          __rankingData: { naiveRating: { ranking: 2, outOf: 2 } },
        },
        {
          userID: low,
          game: 'iidx',
          playtype: 'SP',
          ratings: { ktLampRating: 10, BPI: 50 },
          classes: { dan: 'KAIDEN' },
          __rankingData: { ktLampRating: { ranking: 3, outOf: 4 }, BPI: { ranking: 1, outOf: 4 } },
        },
      ]);

      for (const id of [top1, top2]) {
        const [stats] = (await t.http().get(`${API}/users/${id}/game-stats`)).body;
        expect(stats.__rankingData.ktLampRating).toEqual({ ranking: 1, outOf: 4 });
      }
      // top2 has no BPI: after the two players who have one
      expect((await t.http().get(`${API}/users/${top2}/game-stats`)).body[0].__rankingData.BPI).toEqual({ ranking: 3, outOf: 4 });
      // without a value, a player ranks after every player who has one
      const [unratedStats] = (await t.http().get(`${API}/users/${unrated}/game-stats`)).body;
      expect(unratedStats.ratings).toEqual({ ktLampRating: null });
      expect(unratedStats.__rankingData).toEqual({ ktLampRating: { ranking: 4, outOf: 4 }, BPI: { ranking: 3, outOf: 4 } });
    });

    it('does not count other users rows as the requested user', async () => {
      const [solo] = await insertUsers([{ username: uniqueUsername('gs_solo'), lastSeen: Date.now() }]);
      expect((await t.http().get(`${API}/users/${solo}/game-stats`)).body).toEqual([]);
      expect(await countRows(t, 'profiles', { userID: solo })).toBe(0);
    });
  });
});
