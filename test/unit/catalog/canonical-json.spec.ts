import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { describeWithTachiSeeds, readTachiSeed } from '../../support/tachi-seeds.js';
import { canonicalJson, computeFolderID, computeGoalID, seedHash } from '../../../src/common/canonical-json.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('canonicalJson', () => {
  it('sorts object keys with the default string order, at every depth, and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 2], c: 'x' } })).toBe('{"a":{"c":"x","d":[1,2]},"b":1}');
    // default sort is by UTF-16 code units: upper case before lower case, "10" before "9"
    expect(canonicalJson({ b: 1, B: 2, a: 3, '10': 4, '9': 5 })).toBe('{"10":4,"9":5,"B":2,"a":3,"b":1}');
    expect(canonicalJson({ 'data¬tableFolders': 1, data: 2, '~elemMatch': 3 })).toBe('{"data":2,"data¬tableFolders":1,"~elemMatch":3}');
    expect(canonicalJson({})).toBe('{}');
  });

  it('keeps arrays in order', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalJson([{ b: 1, a: 2 }, []])).toBe('[{"a":2,"b":1},[]]');
  });

  it('JSON-escapes strings but leaves non-ASCII characters raw', () => {
    expect(canonicalJson('★')).toBe('"★"');
    expect(canonicalJson('無力P')).toBe('"無力P"');
    expect(canonicalJson('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"');
    expect(canonicalJson({ table: '★', level: '5' })).toBe('{"level":"5","table":"★"}');
  });

  it('writes numbers, booleans and null in JavaScript default form', () => {
    expect(canonicalJson(5)).toBe('5');
    expect(canonicalJson(5.0)).toBe('5');
    expect(canonicalJson(0.8)).toBe('0.8');
    expect(canonicalJson(-12.5)).toBe('-12.5');
    expect(canonicalJson(1e21)).toBe('1e+21');
    expect(canonicalJson(1e-7)).toBe('1e-7');
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson(true)).toBe('true');
    expect(canonicalJson(false)).toBe('false');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson({ n: null })).toBe('{"n":null}');
  });

  it('throws on undefined, at the top or inside objects and arrays', () => {
    expect(() => canonicalJson(undefined)).toThrow();
    expect(() => canonicalJson({ a: undefined })).toThrow();
    expect(() => canonicalJson([1, undefined])).toThrow();
  });
});

describe('computeFolderID', () => {
  it('hashes {game, playtype, ...data} with the stored (escaped) keys', () => {
    const folder = { game: 'sdvx', playtype: 'Single', data: { level: '19', versions: 'exceed' } };
    expect(computeFolderID(folder)).toBe(`F${sha256('{"game":"sdvx","level":"19","playtype":"Single","versions":"exceed"}')}`);

    const bms = { game: 'bms', playtype: '7K', data: { 'data¬tableFolders': { '~elemMatch': { table: '★', level: '5' } } } };
    expect(computeFolderID(bms)).toBe(`F${sha256('{"data¬tableFolders":{"~elemMatch":{"level":"5","table":"★"}},"game":"bms","playtype":"7K"}')}`);
  });

  it("lets data's own game and playtype win over the folder's", () => {
    const folder = { game: 'sdvx', playtype: 'Single', data: { playtype: 'X', level: '1' } };
    expect(computeFolderID(folder)).toBe(`F${sha256('{"game":"sdvx","level":"1","playtype":"X"}')}`);
  });

  it("turns a static folder's array into index keys", () => {
    const folder = { game: 'sdvx', playtype: 'Single', data: ['c1', 'c2'] };
    expect(computeFolderID(folder)).toBe(`F${sha256('{"0":"c1","1":"c2","game":"sdvx","playtype":"Single"}')}`);
  });

  it('is "F" and 64 lowercase hex characters, independent of key order', () => {
    const a = computeFolderID({ game: 'sdvx', playtype: 'Single', data: { level: '19', versions: 'exceed' } });
    const b = computeFolderID({ playtype: 'Single', data: { versions: 'exceed', level: '19' }, game: 'sdvx' });
    expect(a).toMatch(/^F[0-9a-f]{64}$/);
    expect(a).toBe(b);
  });
});

describe('computeGoalID', () => {
  it('hashes {charts, criteria, game, playtype} only (name does not count)', () => {
    const goal = {
      name: 'anything',
      game: 'sdvx',
      playtype: 'Single',
      charts: { type: 'single', data: 'c'.repeat(40) },
      criteria: { key: 'lamp', value: 2, mode: 'single' },
    };
    const canonical = `{"charts":{"data":"${'c'.repeat(40)}","type":"single"},"criteria":{"key":"lamp","mode":"single","value":2},"game":"sdvx","playtype":"Single"}`;
    expect(computeGoalID(goal)).toBe(`G${sha256(canonical)}`);
    const renamed = { ...goal, name: 'something else' };
    expect(computeGoalID(renamed)).toBe(computeGoalID(goal));
  });

  it('includes countNum when present, and keeps multi-chart order significant', () => {
    const goal = {
      game: 'sdvx',
      playtype: 'Single',
      charts: { type: 'multi', data: ['x', 'y'] },
      criteria: { key: 'score', value: 9800000, mode: 'absolute', countNum: 2 },
    };
    const canonical =
      '{"charts":{"data":["x","y"],"type":"multi"},"criteria":{"countNum":2,"key":"score","mode":"absolute","value":9800000},"game":"sdvx","playtype":"Single"}';
    expect(computeGoalID(goal)).toBe(`G${sha256(canonical)}`);
    expect(computeGoalID({ ...goal, charts: { type: 'multi', data: ['y', 'x'] } })).not.toBe(computeGoalID(goal));
  });

  it('formats a fractional countNum in default number form', () => {
    const goal = {
      game: 'iidx',
      playtype: 'SP',
      charts: { type: 'folder', data: 'Fabc' },
      criteria: { key: 'grade', value: 7, mode: 'proportion', countNum: 0.5 },
    };
    expect(computeGoalID(goal)).toBe(
      `G${sha256('{"charts":{"data":"Fabc","type":"folder"},"criteria":{"countNum":0.5,"key":"grade","mode":"proportion","value":7},"game":"iidx","playtype":"SP"}')}`,
    );
  });
});

describe('seedHash', () => {
  it('identifies content regardless of key order and changes with any value', () => {
    expect(seedHash({ a: 1, b: [1, 2] })).toBe(seedHash({ b: [1, 2], a: 1 }));
    expect(seedHash({ a: 1, b: [1, 2] })).not.toBe(seedHash({ a: 1, b: [2, 1] }));
    expect(seedHash({ a: 1 })).not.toBe(seedHash({ a: 2 }));
  });
});

describeWithTachiSeeds(['folders.json', 'goals.json'], 'the real Tachi seeds', () => {
  const read = readTachiSeed;

  it('every folderID in folders.json recomputes exactly', () => {
    const folders = read<{ folderID: string; game: string; playtype: string; data: unknown }>('folders.json');
    expect(folders.length).toBeGreaterThan(1000);
    const wrong = folders.filter((f) => computeFolderID(f) !== f.folderID).map((f) => f.folderID);
    expect(wrong).toEqual([]);
  });

  it('every goalID in goals.json recomputes exactly', () => {
    const goals = read<{ goalID: string; game: string; playtype: string; charts: unknown; criteria: unknown }>('goals.json');
    expect(goals.length).toBeGreaterThan(100);
    const wrong = goals.filter((g) => computeGoalID(g) !== g.goalID).map((g) => g.goalID);
    expect(wrong).toEqual([]);
  });
});
