import { describe, expect, it } from '@jest/globals';
import { definePresenter, presentAs, tachiOf } from '../../../src/presenters/profile.js';

interface Row {
  id: number;
  flag: boolean;
}

const present = definePresenter('unit-test-thing', {
  spec: (row: Row) => ({ id: row.id, flagged: row.flag }),
  tachi: (row: Row, spec: { id: number; flagged: boolean }) => ({ id: spec.id, flag: row.flag }),
});

const presentWrapper = definePresenter('unit-test-wrapper', {
  spec: (row: Row) => ({ ...present(row), extra: 1 }),
  tachi: (row: Row) => ({ ...tachiOf<object>(present(row)), extra: 1 }),
});

/** A list document: the spec's array; Tachi's object around it. */
const presentList = definePresenter('unit-test-list', {
  spec: (rows: Row[]) => rows.map(present),
  tachi: (rows: Row[]) => ({ things: rows.map(present), count: rows.length }),
});

/** A document Tachi answers as a bare string. */
const presentName = definePresenter('unit-test-name', {
  spec: (name: string) => ({ name }),
  tachi: (name: string) => name,
});

/** A list whose tachi variant differs as a whole (Tachi puts a live entry first). */
const presentHistory = definePresenter('unit-test-history', {
  spec: ({ rows }: { rows: Row[]; first: Row }) => rows.map(present),
  tachi: ({ first }: { rows: Row[]; first: Row }, spec: object[]) => [present(first), ...spec],
});

describe('presentAs', () => {
  it('serves the spec document itself under spec', () => {
    const answer = { things: [present({ id: 1, flag: true })] };
    expect(presentAs('spec', answer)).toBe(answer);
  });

  it('replaces every presented document, at any depth, by its tachi variant, without changing the answer it was given', () => {
    const doc = present({ id: 1, flag: true });
    const answer = { things: [doc, { nested: present({ id: 2, flag: false }) }], count: 2, none: null };
    expect(presentAs('tachi', answer)).toEqual({ things: [{ id: 1, flag: true }, { nested: { id: 2, flag: false } }], count: 2, none: null });
    expect(answer.things[0]).toEqual({ id: 1, flagged: true });
    expect(presentAs('tachi', doc)).toEqual({ id: 1, flag: true });
  });

  it('leaves a copy made with a spread unpresented: the wrapper presenter is how to add fields', () => {
    expect(presentAs('tachi', { ...present({ id: 3, flag: true }) })).toEqual({ id: 3, flagged: true });
    expect(presentAs('tachi', presentWrapper({ id: 3, flag: true }))).toEqual({ id: 3, flag: true, extra: 1 });
  });

  it('presents an array a presenter built as a whole (its tachi variant may be an object), and a tachi variant that is a string', () => {
    const list = presentList([
      { id: 1, flag: true },
      { id: 2, flag: false },
    ]);
    expect(presentAs('spec', { list })).toEqual({
      list: [
        { id: 1, flagged: true },
        { id: 2, flagged: false },
      ],
    });
    expect(presentAs('tachi', list)).toEqual({
      things: [
        { id: 1, flag: true },
        { id: 2, flag: false },
      ],
      count: 2,
    });
    // an array no presenter built is still presented element by element
    expect(presentAs('tachi', [...list])).toEqual([
      { id: 1, flag: true },
      { id: 2, flag: false },
    ]);
    expect(presentAs('spec', presentName('HARD CLEAR A'))).toEqual({ name: 'HARD CLEAR A' });
    expect(presentAs('tachi', presentName('HARD CLEAR A'))).toBe('HARD CLEAR A');
    expect(presentAs('tachi', { body: presentName('B') })).toEqual({ body: 'B' });
  });

  it('keeps what is not a plain object or array', () => {
    const buffer = Buffer.from('x');
    const date = new Date(0);
    expect(presentAs('tachi', { buffer, date, text: 'a' })).toEqual({ buffer, date, text: 'a' });
    expect((presentAs('tachi', { buffer }) as { buffer: Buffer }).buffer).toBe(buffer);
  });

  it('serves an array a presenter built by its tachi variant (whose documents are presented in turn)', () => {
    const list = presentHistory({ rows: [{ id: 1, flag: true }], first: { id: 0, flag: false } });
    expect(presentAs('spec', list)).toEqual([{ id: 1, flagged: true }]);
    expect(presentAs('tachi', list)).toEqual([
      { id: 0, flag: false },
      { id: 1, flag: true },
    ]);
    expect(presentAs('tachi', { list })).toEqual({
      list: [
        { id: 0, flag: false },
        { id: 1, flag: true },
      ],
    });
  });
});
