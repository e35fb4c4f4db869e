// `npm run dev:services`: starts the local fakes of the from-api services (KAI: FLO, EAG and MIN,
// with a few plays each) and prints the environment to run the server against them. Ctrl-C stops them.
import { kaiEnv, startFakeKaiServer } from '../test/support/fake-kai-server.js';

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
console.log('\nRun the server with:\n');
console.log(
  Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' \\\n') + ' \\\nnpm start\n',
);
process.on('SIGINT', () => void Promise.all(closers.map((c) => c())).then(() => process.exit(0)));
