/** S3's chart codes → playtype and difficulty. `5` (5KEY) has no chart here. */
export const DIFFS: Readonly<Record<string, { playtype: 'SP' | 'DP'; difficulty: string }>> = {
  L7: { playtype: 'SP', difficulty: 'NORMAL' },
  '7': { playtype: 'SP', difficulty: 'HYPER' },
  A: { playtype: 'SP', difficulty: 'ANOTHER' },
  B: { playtype: 'SP', difficulty: 'LEGGENDARIA' },
  L14: { playtype: 'DP', difficulty: 'NORMAL' },
  '14': { playtype: 'DP', difficulty: 'HYPER' },
  A14: { playtype: 'DP', difficulty: 'ANOTHER' },
  B14: { playtype: 'DP', difficulty: 'LEGGENDARIA' },
};
export const FIVE_KEY = '5';

/** S3's style names → iidx versions. The last style a score lists is the one it was played on. */
export const STYLES: Readonly<Record<string, string>> = {
  '3rd': '3-cs',
  '4th': '4-cs',
  '5th': '5-cs',
  '6th': '6-cs',
  '7th': '7-cs',
  '8th': '8-cs',
  '9th': '9-cs',
  '10th': '10-cs',
  red: '11-cs',
  hs: '12-cs',
  dd: '13-cs',
  gold: '14-cs',
  djt: '15-cs',
  emp: '16-cs',
  pb: '16-cs',
  us: 'bmus',
};

/** The version of a score's `styles` list (its last entry), or undefined for an unknown style. */
export function versionOfStyles(styles: string): { style: string; version: string | undefined } {
  const list = styles.split(',');
  const style = list[list.length - 1].trim();
  return { style, version: Object.hasOwn(STYLES, style) ? STYLES[style] : undefined };
}
