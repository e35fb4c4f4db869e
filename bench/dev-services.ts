// `npm run dev:services`: starts the local fakes of the from-api services (KAI: FLO, EAG and MIN;
// CG: DEV, NAG and GAN; MYT over gRPC+TLS), each with a card or account holding a few plays, and
// prints the environment to run the server against them (MYT's CA written to a file). Ctrl-C stops them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cgPlays, startFakeCgServer } from '../test/support/fake-cg-server.js';
import { kaiEnv, startFakeKaiServer } from '../test/support/fake-kai-server.js';
import { mytPlays, startFakeMytServer } from '../test/support/fake-myt-server.js';

const play = (minute: number) => ({
  music_id: 28001,
  play_style: 'SINGLE',
  difficulty: 'ANOTHER',
  version_played: 28,
  lamp: 4,
  ex_score: 1500 + minute,
  miss_count: 10,
  fast_count: 20,
  slow_count: 30,
  timestamp: new Date(Date.now() - (60 - minute) * 60_000).toISOString(),
});

const env: Record<string, string> = {};
const closers: (() => Promise<void>)[] = [];
for (const prefix of ['FLO', 'EAG', 'MIN'] as const) {
  const fake = await startFakeKaiServer();
  fake.addPlays('iidx', [play(1), play(2), play(3)]);
  fake.profile.iidx = { sp: 16, dp: 12 };
  Object.assign(env, kaiEnv(prefix, fake, `${process.env.PUBLIC_URL ?? 'http://localhost:3000'}/oauth2-callback`));
  closers.push(() => fake.close());
  console.log(
    `${prefix}: ${fake.url} (link: ${fake.url}/oauth/authorize?client_id=${fake.clientId}&response_type=code&redirectUri=${env[`${prefix}_REDIRECT_URI`]})`,
  );
}
const CG_CARD = 'E004010000000001';
const CG_PIN = '1234';
for (const prefix of ['DEV', 'NAG', 'GAN'] as const) {
  const fake = await startFakeCgServer();
  fake.addCard(CG_CARD, CG_PIN, 'PLAYER');
  fake.addPlay('sdvx', CG_CARD, cgPlays.sdvx(), cgPlays.sdvx({ difficulty: 3, score: 9_800_000 }));
  env[`CG_${prefix}_URL`] = fake.url;
  env[`CG_${prefix}_API_KEY`] = fake.apiKey;
  closers.push(() => fake.close());
  console.log(`CG_${prefix}: ${fake.url} (link with cardID ${CG_CARD}, pin ${CG_PIN})`);
}

const MYT_CARD = '01234567890123456789';
const myt = await startFakeMytServer();
myt.addCard(MYT_CARD, { chunithm: 'chu-1', maimai: 'mai-1', ongeki: 'ong-1', wacca: 'wac-1' });
myt.addPlays('chunithm', 'chu-1', [mytPlays.chunithm('dev-chu-1')]);
myt.addPlays('maimai', 'mai-1', [mytPlays.maimai('dev-mai-1')]);
myt.addPlays('ongeki', 'ong-1', [mytPlays.ongeki('dev-ong-1')]);
myt.addPlays('wacca', 'wac-1', [mytPlays.wacca('dev-wac-1')]);
const caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'myt-ca-')), 'ca.pem');
fs.writeFileSync(caFile, myt.tlsCa, { mode: 0o600 });
Object.assign(env, { MYT_API_HOST: myt.host, MYT_AUTH_TOKEN: myt.authToken, MYT_TLS_CA: caFile });
closers.push(() => myt.close());
console.log(`MYT: ${myt.host} (gRPC over TLS; link with cardAccessCode ${MYT_CARD}; CA in ${caFile})`);

console.log('\nRun the server with:\n');
console.log(
  Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' \\\n') + ' \\\nnpm start\n',
);
process.on('SIGINT', () => void Promise.all(closers.map((c) => c())).then(() => process.exit(0)));
