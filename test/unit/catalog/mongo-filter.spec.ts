import { describe, expect, it } from '@jest/globals';
import { assertValidFilter, decodeFilter, FilterError, matchesFilter, type Filter } from '../../../src/seeds/mongo-filter.js';

/** Filters are written as the seeds store them (¬ for ., ~ for $) and decoded first, as the loader does. */
const matches = (doc: Record<string, unknown>, stored: Record<string, unknown>) => matchesFilter(doc, decodeFilter(stored) as Filter);

// Documents shaped like the real seed charts.
const sdvxChart = {
  chartID: 'a'.repeat(40),
  songID: 1,
  level: '19',
  levelNum: 19,
  isPrimary: true,
  difficulty: 'MXM',
  playtype: 'Single',
  versions: ['vivid', 'exceed', 'konaste'],
  data: { inGameID: 1234 },
};
const bmsChart = {
  chartID: 'b'.repeat(40),
  songID: 2,
  level: '5',
  levelNum: 5,
  isPrimary: true,
  difficulty: 'CHART',
  playtype: '7K',
  versions: [],
  data: {
    notecount: 1500,
    hashMD5: 'x',
    tableFolders: [
      { table: '★', level: '5' },
      { table: 'st', level: '3' },
    ],
    sglEC: 13.4,
  },
};
const ongekiChart = (inGameID: number) => ({ level: '1', versions: ['brightMemory2Omni'], difficulty: 'BASIC', data: { inGameID } });

describe('decodeFilter', () => {
  it('turns ¬ into . and ~ into $ in every key, recursively, leaving values alone', () => {
    expect(decodeFilter({ 'data¬tableFolders': { '~elemMatch': { table: '★', level: '5' } } })).toEqual({
      'data.tableFolders': { $elemMatch: { table: '★', level: '5' } },
    });
    expect(decodeFilter({ 'data¬inGameID': { '~not': { '~gte': 7000, '~lt': 8000 } } })).toEqual({ 'data.inGameID': { $not: { $gte: 7000, $lt: 8000 } } });
    expect(decodeFilter({ difficulty: { '~in': ['BSC', 'ADV', 'EXT'] } })).toEqual({ difficulty: { $in: ['BSC', 'ADV', 'EXT'] } });
    expect(decodeFilter({ '~or': [{ 'a¬b': 1 }, { c: '¬~' }] })).toEqual({ $or: [{ 'a.b': 1 }, { c: '¬~' }] });
    expect(decodeFilter({ 'tierlistInfo¬sgl-EC¬value': { '~gte': 13 } })).toEqual({ 'tierlistInfo.sgl-EC.value': { $gte: 13 } });
  });
});

describe('equality', () => {
  it('compares a scalar field exactly, without type coercion', () => {
    expect(matches(sdvxChart, { level: '19' })).toBe(true);
    expect(matches(sdvxChart, { level: '18' })).toBe(false);
    expect(matches(sdvxChart, { level: 19 })).toBe(false);
    expect(matches(sdvxChart, { levelNum: 19 })).toBe(true);
    expect(matches(sdvxChart, { levelNum: '19' })).toBe(false);
    expect(matches(sdvxChart, { isPrimary: true })).toBe(true);
    expect(matches(sdvxChart, { isPrimary: false })).toBe(false);
  });

  it('reads a dotted path into sub-documents', () => {
    expect(matches(sdvxChart, { 'data¬inGameID': 1234 })).toBe(true);
    expect(matches(sdvxChart, { 'data¬inGameID': 1235 })).toBe(false);
    expect(matches(sdvxChart, { 'data¬missing¬deeper': 1 })).toBe(false);
  });

  it('treats equality with an array field as "contains"', () => {
    expect(matches(sdvxChart, { level: '19', versions: 'exceed' })).toBe(true);
    expect(matches(sdvxChart, { level: '19', versions: 'heaven' })).toBe(false);
    expect(matches(sdvxChart, { level: '18', versions: 'exceed' })).toBe(false);
    // the whole array also equals itself, in order only
    expect(matches(sdvxChart, { versions: ['vivid', 'exceed', 'konaste'] })).toBe(true);
    expect(matches(sdvxChart, { versions: ['exceed', 'vivid', 'konaste'] })).toBe(false);
    expect(matches({ versions: [] }, { versions: 'exceed' })).toBe(false);
  });

  it('matches a dotted path through an array of sub-documents when any element matches', () => {
    expect(matches(bmsChart, { 'data¬tableFolders¬table': '★' })).toBe(true);
    expect(matches(bmsChart, { 'data¬tableFolders¬table': 'st' })).toBe(true);
    expect(matches(bmsChart, { 'data¬tableFolders¬table': 'sl' })).toBe(false);
    expect(matches(bmsChart, { 'data¬tableFolders¬level': '3' })).toBe(true);
    expect(matches({ data: { tableFolders: [] } }, { 'data¬tableFolders¬table': '★' })).toBe(false);
    // a numeric segment indexes the array
    expect(matches(bmsChart, { 'data¬tableFolders¬1¬table': 'st' })).toBe(true);
    expect(matches(bmsChart, { 'data¬tableFolders¬0¬table': 'st' })).toBe(false);
  });

  it('needs a plain-object value to equal the whole sub-document (same fields, same values)', () => {
    expect(matches(bmsChart, { 'data¬tableFolders': { table: '★', level: '5' } })).toBe(true);
    // key order does not matter (jsonb does not keep it)
    expect(matches(bmsChart, { 'data¬tableFolders': { level: '5', table: '★' } })).toBe(true);
    // a subset of the fields is not equal
    expect(matches(bmsChart, { 'data¬tableFolders': { table: '★' } })).toBe(false);
    // nor are the fields of two different elements
    expect(matches(bmsChart, { 'data¬tableFolders': { table: '★', level: '3' } })).toBe(false);
    // a songs folder of the real seeds: {data: {genre}} only matches a data of exactly that
    expect(matches({ data: { genre: 'LUNATIC' } }, { data: { genre: 'LUNATIC' } })).toBe(true);
    expect(matches({ data: { genre: 'LUNATIC', duration: 120 } }, { data: { genre: 'LUNATIC' } })).toBe(false);
  });

  it('lets null match a missing field', () => {
    expect(matches(sdvxChart, { 'data¬arcChartID': null })).toBe(true);
    expect(matches(sdvxChart, { 'data¬inGameID': null })).toBe(false);
  });

  it('needs every top-level key to match (implicit $and)', () => {
    expect(matches(sdvxChart, { level: '19', versions: 'exceed', difficulty: 'MXM' })).toBe(true);
    expect(matches(sdvxChart, { level: '19', versions: 'exceed', difficulty: 'EXH' })).toBe(false);
    expect(matches(sdvxChart, {})).toBe(true);
  });
});

describe('$elemMatch', () => {
  it('needs one single element to satisfy every sub-condition', () => {
    expect(matches(bmsChart, { 'data¬tableFolders': { '~elemMatch': { table: '★', level: '5' } } })).toBe(true);
    expect(matches(bmsChart, { 'data¬tableFolders': { '~elemMatch': { table: 'st', level: '3' } } })).toBe(true);
    // ★ is in one element and level 3 in the other: no single element has both
    expect(matches(bmsChart, { 'data¬tableFolders': { '~elemMatch': { table: '★', level: '3' } } })).toBe(false);
    // ...whereas the two dotted paths, tested separately, each find an element
    expect(matches(bmsChart, { 'data¬tableFolders¬table': '★', 'data¬tableFolders¬level': '3' })).toBe(true);
  });

  it('accepts operators inside the element conditions (usc "level in" folders)', () => {
    const usc = { data: { tableFolders: [{ table: 'os', level: '0*' }] } };
    expect(matches(usc, { 'data¬tableFolders': { '~elemMatch': { level: { '~in': ['0', '0*'] }, table: 'os' } } })).toBe(true);
    expect(matches(usc, { 'data¬tableFolders': { '~elemMatch': { level: { '~in': ['1', '1*'] }, table: 'os' } } })).toBe(false);
  });

  it('applies operator-only conditions to scalar elements', () => {
    const doc = { scores: [3, 12] };
    expect(matches(doc, { scores: { '~elemMatch': { '~gte': 5, '~lt': 10 } } })).toBe(false);
    expect(matches({ scores: [3, 7] }, { scores: { '~elemMatch': { '~gte': 5, '~lt': 10 } } })).toBe(true);
  });

  it('accepts logical operators over element documents', () => {
    expect(matches(bmsChart, { 'data¬tableFolders': { '~elemMatch': { '~or': [{ table: 'sl' }, { level: '3' }] } } })).toBe(true);
    expect(matches(bmsChart, { 'data¬tableFolders': { '~elemMatch': { '~or': [{ table: 'sl' }, { level: '9' }] } } })).toBe(false);
  });

  it('never matches a field that is not an array', () => {
    expect(matches(sdvxChart, { data: { '~elemMatch': { inGameID: 1234 } } })).toBe(false);
    expect(matches(sdvxChart, { 'data¬nothing': { '~elemMatch': { a: 1 } } })).toBe(false);
  });
});

describe('comparisons', () => {
  it('implements $gte, $gt, $lt and $lte at and around the edges (levelNum ranges)', () => {
    const at = (levelNum: number) => ({ levelNum, versions: ['konaste'] });
    const range = { levelNum: { '~gte': 5, '~lt': 5.5 }, versions: 'konaste' };
    expect(matches(at(4.99), range)).toBe(false);
    expect(matches(at(5), range)).toBe(true);
    expect(matches(at(5.45), range)).toBe(true);
    expect(matches(at(5.5), range)).toBe(false);
    const closed = { levelNum: { '~gt': 1, '~lte': 9 } };
    expect(matches(at(1), closed)).toBe(false);
    expect(matches(at(1.01), closed)).toBe(true);
    expect(matches(at(9), closed)).toBe(true);
    expect(matches(at(9.01), closed)).toBe(false);
  });

  it('is type-bracketed: a number never compares with a string, nor with a missing field', () => {
    expect(matches({ level: '19' }, { level: { '~gte': 10 } })).toBe(false);
    expect(matches({ level: '19' }, { level: { '~lt': 100 } })).toBe(false);
    expect(matches({ levelNum: 19 }, { levelNum: { '~gte': '10' } })).toBe(false);
    expect(matches({ levelNum: 19 }, { levelNum: { '~lte': '99' } })).toBe(false);
    expect(matches({}, { levelNum: { '~gte': 0 } })).toBe(false);
    expect(matches({ levelNum: null }, { levelNum: { '~lt': 100 } })).toBe(false);
  });

  it('compares strings with strings in code-unit order', () => {
    expect(matches({ level: '19' }, { level: { '~gte': '10' } })).toBe(true);
    // string order, not numeric: "9" > "10"
    expect(matches({ level: '9' }, { level: { '~gte': '10' } })).toBe(true);
    expect(matches({ level: '10' }, { level: { '~lt': '9' } })).toBe(true);
  });

  it('matches an array field when any element satisfies the comparison', () => {
    expect(matches({ data: { inGameID: [100, 7500] } }, { 'data¬inGameID': { '~gte': 7000 } })).toBe(true);
    expect(matches({ data: { inGameID: [100, 200] } }, { 'data¬inGameID': { '~gte': 7000 } })).toBe(false);
  });

  it('tests each operator of a condition on its own through an array path, as MongoDB does', () => {
    // one tier is >= 13 and another < 14 ... but no single one is in [13, 14)
    const doc = { tiers: [{ value: 12 }, { value: 15 }] };
    expect(matches(doc, { 'tiers¬value': { '~gte': 13, '~lt': 14 } })).toBe(true);
    expect(matches(doc, { tiers: { '~elemMatch': { value: { '~gte': 13, '~lt': 14 } } } })).toBe(false);
    expect(matches(doc, { 'tiers¬value': { '~gte': 16 } })).toBe(false);
  });

  it('matches the real tierlist folders (tierlistInfo¬sgl-EC¬value, data¬sglEC)', () => {
    expect(matches(bmsChart, { 'data¬sglEC': { '~gte': 13, '~lt': 14 } })).toBe(true);
    expect(matches(bmsChart, { 'data¬sglEC': { '~gte': 14, '~lt': 15 } })).toBe(false);
    const old = { tierlistInfo: { 'sgl-EC': { text: '13.4', value: 13.4 } } };
    expect(matches(old, { 'tierlistInfo¬sgl-EC¬value': { '~gte': 13, '~lt': 14 } })).toBe(true);
    expect(matches(old, { 'tierlistInfo¬sgl-HC¬value': { '~gte': 13, '~lt': 14 } })).toBe(false);
  });
});

describe('$in and $nin', () => {
  it('$in matches a scalar equal to any listed value (jubeat difficulty folders)', () => {
    const filter = { difficulty: { '~in': ['BSC', 'ADV', 'EXT'] }, level: '1', versions: 'ave' };
    expect(matches({ difficulty: 'ADV', level: '1', versions: ['ave'] }, filter)).toBe(true);
    expect(matches({ difficulty: 'HARD ADV', level: '1', versions: ['ave'] }, filter)).toBe(false);
  });

  it('$in on an array field matches when any element is listed; null in the list matches a missing field', () => {
    expect(matches(sdvxChart, { versions: { '~in': ['heaven', 'exceed'] } })).toBe(true);
    expect(matches(sdvxChart, { versions: { '~in': ['heaven', 'gw'] } })).toBe(false);
    expect(matches(sdvxChart, { 'data¬arcChartID': { '~in': [null, 'x'] } })).toBe(true);
    expect(matches(sdvxChart, { level: { '~in': [] } })).toBe(false);
  });

  it('$nin needs no listed value and matches a missing field', () => {
    expect(matches(sdvxChart, { difficulty: { '~nin': ['NOV', 'ADV'] } })).toBe(true);
    expect(matches(sdvxChart, { difficulty: { '~nin': ['MXM'] } })).toBe(false);
    expect(matches(sdvxChart, { versions: { '~nin': ['konaste'] } })).toBe(false);
    expect(matches(sdvxChart, { 'data¬missing': { '~nin': ['x'] } })).toBe(true);
    // through an array path: no element may be listed
    expect(matches(bmsChart, { 'data¬tableFolders¬table': { '~nin': ['st'] } })).toBe(false);
    expect(matches(bmsChart, { 'data¬tableFolders¬table': { '~nin': ['sl'] } })).toBe(true);
  });
});

describe('negations: $not, $ne, $exists', () => {
  const notEvent = { 'data¬inGameID': { '~not': { '~gte': 7000, '~lt': 8000 } }, level: '1', versions: 'brightMemory2Omni' };

  it('$not inverts an operator expression (the ongeki "not an event chart" folders)', () => {
    expect(matches(ongekiChart(6999), notEvent)).toBe(true);
    expect(matches(ongekiChart(7000), notEvent)).toBe(false);
    expect(matches(ongekiChart(7999), notEvent)).toBe(false);
    expect(matches(ongekiChart(8000), notEvent)).toBe(true);
  });

  it('$not also matches a missing field, and a value of another type', () => {
    expect(matches({ level: '1', versions: ['brightMemory2Omni'], data: {} }, notEvent)).toBe(true);
    expect(matches({ level: '1', versions: ['brightMemory2Omni'], data: { inGameID: null } }, notEvent)).toBe(true);
    expect(matches({ level: '1', versions: ['brightMemory2Omni'], data: { inGameID: '7500' } }, notEvent)).toBe(true);
  });

  it('$not over an array path holds only when no element matches', () => {
    expect(matches({ data: { inGameID: [100, 7500] } }, { 'data¬inGameID': { '~not': { '~gte': 7000, '~lt': 8000 } } })).toBe(false);
    expect(matches({ data: { inGameID: [100, 200] } }, { 'data¬inGameID': { '~not': { '~gte': 7000, '~lt': 8000 } } })).toBe(true);
    // MongoDB's array rule: 9000 satisfies $gte and 100 satisfies $lt, so the inner expression matches and $not fails
    expect(matches({ data: { inGameID: [100, 9000] } }, { 'data¬inGameID': { '~not': { '~gte': 7000, '~lt': 8000 } } })).toBe(false);
  });

  it('$ne matches a different value or a missing field, and fails when an array contains the value', () => {
    expect(matches(sdvxChart, { difficulty: { '~ne': 'EXH' } })).toBe(true);
    expect(matches(sdvxChart, { difficulty: { '~ne': 'MXM' } })).toBe(false);
    expect(matches(sdvxChart, { 'data¬missing': { '~ne': 1 } })).toBe(true);
    expect(matches(sdvxChart, { versions: { '~ne': 'exceed' } })).toBe(false);
    expect(matches(bmsChart, { 'data¬tableFolders¬table': { '~ne': '★' } })).toBe(false);
    expect(matches(bmsChart, { 'data¬tableFolders¬table': { '~ne': 'sl' } })).toBe(true);
  });

  it('$exists tests presence, through arrays too', () => {
    expect(matches(sdvxChart, { 'data¬inGameID': { '~exists': true } })).toBe(true);
    expect(matches(sdvxChart, { 'data¬inGameID': { '~exists': false } })).toBe(false);
    expect(matches(sdvxChart, { 'data¬arcChartID': { '~exists': true } })).toBe(false);
    expect(matches(sdvxChart, { 'data¬arcChartID': { '~exists': false } })).toBe(true);
    // a null value exists
    expect(matches({ data: { aiLevel: null } }, { 'data¬aiLevel': { '~exists': true } })).toBe(true);
    expect(matches(bmsChart, { 'data¬tableFolders¬table': { '~exists': true } })).toBe(true);
    expect(matches(bmsChart, { 'data¬tableFolders¬table': { '~exists': false } })).toBe(false);
    expect(matches({ data: { tableFolders: [] } }, { 'data¬tableFolders¬table': { '~exists': false } })).toBe(true);
  });
});

describe('$size and $all', () => {
  it('$size counts an array field', () => {
    expect(matches(sdvxChart, { versions: { '~size': 3 } })).toBe(true);
    expect(matches(sdvxChart, { versions: { '~size': 2 } })).toBe(false);
    expect(matches(sdvxChart, { level: { '~size': 2 } })).toBe(false);
  });

  it('$all needs every listed value in the array', () => {
    expect(matches(sdvxChart, { versions: { '~all': ['exceed', 'konaste'] } })).toBe(true);
    expect(matches(sdvxChart, { versions: { '~all': ['exceed', 'heaven'] } })).toBe(false);
    expect(matches(bmsChart, { 'data¬tableFolders¬table': { '~all': ['★', 'st'] } })).toBe(true);
  });
});

describe('$and, $or and $nor', () => {
  it('combine sub-filters', () => {
    const exh = { '~or': [{ difficulty: 'EXH' }, { levelNum: { '~gte': 19 } }] };
    expect(matches(sdvxChart, exh)).toBe(true);
    expect(matches({ ...sdvxChart, levelNum: 18 }, exh)).toBe(false);
    expect(matches(sdvxChart, { '~and': [{ level: '19' }, { versions: 'exceed' }] })).toBe(true);
    expect(matches(sdvxChart, { '~and': [{ level: '19' }, { versions: 'gw' }] })).toBe(false);
    expect(matches(sdvxChart, { '~nor': [{ level: '18' }, { versions: 'gw' }] })).toBe(true);
    expect(matches(sdvxChart, { '~nor': [{ level: '18' }, { versions: 'exceed' }] })).toBe(false);
    // combined with field conditions
    expect(matches(sdvxChart, { level: '19', '~or': [{ difficulty: 'NOV' }, { difficulty: 'MXM' }] })).toBe(true);
  });
});

describe('unsupported filters', () => {
  it('throw a FilterError for an operator the matcher does not know', () => {
    expect(() => matches(sdvxChart, { level: { '~regex': '^1' } })).toThrow(FilterError);
    expect(() => matches(sdvxChart, { '~where': 'this.level > 1' })).toThrow(FilterError);
    expect(() => matches(sdvxChart, { '~or': { level: '19' } })).toThrow(FilterError);
    expect(() => matches(sdvxChart, { level: { '~in': '19' } })).toThrow(FilterError);
    expect(() => matches(sdvxChart, { level: { '~not': '19' } })).toThrow(FilterError);
  });

  it('are caught by assertValidFilter however deep they sit, without needing a document to reach them', () => {
    // matchesFilter stops at the first key that fails, so it would not notice these on an empty document
    const deep = decodeFilter({ level: '1', versions: { '~in': 'exceed' } }) as Filter;
    expect(matchesFilter({}, deep)).toBe(false);
    expect(() => assertValidFilter(deep)).toThrow('$in needs an array');
    expect(() => assertValidFilter(decodeFilter({ level: '1', 'data¬tableFolders': { '~elemMatch': { level: { '~regex': 'x' } } } }))).toThrow(
      'Unsupported operator $regex',
    );
    expect(() => assertValidFilter(decodeFilter({ a: { '~not': { '~foo': 1 } } }))).toThrow('Unsupported operator $foo');
    expect(() => assertValidFilter(decodeFilter({ a: { '~gte': 1, b: 2 } }))).toThrow(FilterError);
    expect(() => assertValidFilter(decodeFilter({ '~or': [] }))).toThrow(FilterError);
    expect(() => assertValidFilter(decodeFilter({ '~text': { search: 'x' } }))).toThrow(FilterError);
    expect(() => assertValidFilter(decodeFilter({ a: { '~size': -1 } }))).toThrow(FilterError);
    expect(() => assertValidFilter(['chart1'])).toThrow(FilterError);
  });

  it('assertValidFilter accepts every filter shape of the real seeds', () => {
    for (const stored of [
      { level: '12', versions: '28-omni' },
      { 'data¬tableFolders': { '~elemMatch': { table: '★', level: '5' } } },
      { 'data¬tableFolders¬table': '★' },
      { difficulty: { '~in': ['BSC', 'ADV', 'EXT'] }, levelNum: { '~gte': 10, '~lt': 11 }, versions: 'ave' },
      { 'data¬tableFolders': { '~elemMatch': { level: { '~in': ['0', '0*'] }, table: 'os' } } },
      { 'data¬inGameID': { '~not': { '~gte': 7000, '~lt': 8000 } }, level: '1', versions: 'brightMemory2Omni' },
      { levelNum: { '~gte': 1, '~lte': 9 }, versions: 'kaimei' },
      { 'data¬isReMaster': false, difficulty: 'LUNATIC', versions: 'brightMemory3Omni' },
      { data: { genre: 'LUNATIC' } },
    ]) {
      expect(() => assertValidFilter(decodeFilter(stored))).not.toThrow();
    }
  });
});
