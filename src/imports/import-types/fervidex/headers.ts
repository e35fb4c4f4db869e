import { ImportRejectedError } from '../../import-errors.js';

/**
 * The request headers Fervidex sends and its routes check before the body: which hook build
 * (User-Agent) and which game build (X-Software-Model, whose version chooses the charts).
 */
export interface FervidexHeaders {
  userAgent: string | null;
  softwareModel: string | null;
}

const UA_PREFIX = 'fervidex/';

/** Fervidex 1.x before 1.3.0 sent payloads this import does not read; other majors are accepted. */
export function checkUserAgent(userAgent: string | null): void {
  if (userAgent === null || !userAgent.startsWith(UA_PREFIX)) throw new ImportRejectedError('Invalid User-Agent: expected fervidex/<version>.');
  const version = userAgent.slice(UA_PREFIX.length);
  const parts = version.split('.');
  if (parts.length < 3 || !parts.every((p) => /^\d+$/.test(p)))
    throw new ImportRejectedError(`Invalid fervidex version '${version}': expected numbers such as 1.3.0.`);
  if (Number(parts[0]) === 1 && Number(parts[1]) < 3) throw new ImportRejectedError('Versions of fervidex < 1.3.0 are not supported.');
}

/** An EA3 software id: MODEL:DEST:SPEC:REV:EXT. */
const SOFTWARE_MODEL = /^([A-Z0-9]{3}):([A-Z]):([A-Z]):([A-Z]):([0-9]{10})$/;

/** The arcade models (LDJ, TDJ) by date code: the version for rev A (normal), X (omnimix) and E (2dxtra), where that build exists. */
const ARCADE_BUILDS: readonly { exts: readonly string[]; A: string; X?: string; E?: string }[] = [
  { exts: ['2018091900'], A: '25' },
  { exts: ['2019090200', '2019100700'], A: '26', X: '26-omni' },
  { exts: ['2020092900'], A: '27', X: '27-omni', E: '27-2dxtra' },
  { exts: ['2021091500'], A: '28', X: '28-omni', E: '28-2dxtra' },
  { exts: ['2022082400'], A: '29', X: '29-omni' },
  { exts: ['2022103100', '2022120800', '2023022000', '2023040400', '2023090500'], A: '30', X: '30-omni', E: '30-2dxtra' },
  { exts: ['2023101800', '2023103000', '2023121800', '2024021300', '2024082600'], A: '31', X: '31-omni', E: '31-2dxtra' },
  { exts: ['2025011400', '2025032500', '2025041500', '2025072900', '2025082500'], A: '32', X: '32-omni' },
];
const BUILD_BY_EXT = new Map(ARCADE_BUILDS.flatMap((b) => b.exts.map((ext) => [ext, b] as const)));
const ARCADE_MODELS = ['LDJ', 'TDJ'];
const INFINITAS = 'P2D';

export interface GameBuild {
  /** The IIDX version whose charts the scores are matched against. */
  version: string;
  infinitas: boolean;
}

/** The game version an X-Software-Model names; any other model or build is refused (400). */
export function gameBuildOf(softwareModel: string | null): GameBuild {
  if (softwareModel === null) throw new ImportRejectedError('The X-Software-Model header is required.');
  const m = SOFTWARE_MODEL.exec(softwareModel);
  if (!m)
    throw new ImportRejectedError(`Invalid X-Software-Model '${softwareModel.slice(0, 40)}': expected MODEL:DEST:SPEC:REV:EXT, e.g. LDJ:J:B:A:2021091500.`);
  const [, model, , , rev, ext] = m;
  if (rev === 'Z') throw new ImportRejectedError('2DX_BMS is not supported.');
  if (model === INFINITAS) return { version: 'inf', infinitas: true };
  if (!ARCADE_MODELS.includes(model))
    throw new ImportRejectedError(`Unsupported Software Model ${softwareModel}: ${model} is not an IIDX model (LDJ, TDJ or P2D).`);
  const build = BUILD_BY_EXT.get(ext);
  if (!build) throw new ImportRejectedError(`Invalid extension ${ext}: no supported IIDX version has this date code.`);
  const version = rev === 'A' ? build.A : rev === 'X' ? build.X : rev === 'E' ? build.E : undefined;
  if (!version) throw new ImportRejectedError(`Unsupported Software Model ${softwareModel}.`);
  return { version, infinitas: false };
}

/** Both header checks, in the order Fervidex's routes make them. */
export function checkHeaders(headers: FervidexHeaders): GameBuild {
  checkUserAgent(headers.userAgent);
  return gameBuildOf(headers.softwareModel);
}
