import { describe, expect, it } from '@jest/globals';
import { IIDX } from '../../../src/game-support/iidx/index.js';
import { ImportRejectedError } from '../../../src/imports/import-errors.js';
import { solidStateSquad } from '../../../src/imports/import-types/solid-state-squad/index.js';
import { readXmlSubset } from '../../../src/imports/import-types/solid-state-squad/s3-xml.js';
import { DIFFS, STYLES } from '../../../src/imports/import-types/solid-state-squad/s3.tables.js';
import type { S3Song } from '../../../src/imports/import-types/solid-state-squad/s3.parser.js';
import type { ParsedImport } from '../../../src/imports/import-types/types.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';

interface SongXml {
  id?: string;
  diff?: string;
  songname?: string;
  styles?: string;
  exscore?: string;
  mods?: string;
  cleartype?: string;
  date?: string;
  extra?: string;
}

/** One <song>: the reference's example unless overridden; a field given as null is left out. */
function song(o: { [K in keyof SongXml]?: string | null } = {}): string {
  const v = {
    id: '1',
    diff: 'A14',
    songname: '<![CDATA[Delta]]>',
    styles: '9th,10th',
    exscore: '1200',
    mods: '<mods/>',
    cleartype: 'cleared',
    date: '2008-05-01 20:00:00',
    ...o,
  };
  const el = (name: keyof SongXml) => (v[name] === null || v[name] === undefined ? '' : `<${name}>${v[name]}</${name}>`);
  return `<song>${el('id')}${el('diff')}${el('songname')}${el('styles')}${el('exscore')}${v.mods ?? ''}${el('cleartype')}${el('date')}${v.extra ?? ''}</song>`;
}
const s3 = (...songs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<s3data><userdata><id>5</id><login>dj</login><djname>DJ TEST</djname></userdata><scoredata>${songs.join('\n')}</scoredata></s3data>`;

const parse = (xml: string, fields: Record<string, string> = {}, maxScores = 1000) =>
  solidStateSquad.parse(solidStateSquad.read({ file: Buffer.from(xml, 'utf8'), fields }), { maxScores });
function rejection(xml: string, fields: Record<string, string> = {}, maxScores = 1000) {
  try {
    parse(xml, fields, maxScores);
  } catch (err) {
    expect(err).toBeInstanceOf(ImportRejectedError);
    return { status: (err as ImportRejectedError).getStatus(), message: (err as Error).message };
  }
  throw new Error('expected a rejection');
}
const convertAll = (parsed: ParsedImport<S3Song>) => parsed.items.map((i) => solidStateSquad.convert(i, parsed));
function element(songXml: string, fields: Record<string, string> = {}) {
  const [c] = convertAll(parse(s3(songXml), fields));
  if (c.kind !== 'score') throw new Error(`expected a score, got ${JSON.stringify(c)}`);
  return c.element as Record<string, unknown>;
}

describe('the XML subset reader', () => {
  it('reads elements, CDATA, entities, character references, comments, a declaration and a BOM', () => {
    const r = readXmlSubset(
      '\uFEFF<?xml version="1.0" encoding="utf-8" standalone="yes"?><!-- c --><a>\n <b> x &amp; y &lt;&gt;&quot;&apos; &#65;&#x42; </b><!-- c --><c><![CDATA[<raw & text>]]></c><d/><d>2</d><e></e></a>\n<!-- end -->',
    );
    expect(r).toEqual({ root: 'a', value: { b: 'x & y <>"\' AB', c: '<raw & text>', d: ['', '2'], e: '' } });
  });

  it('makes three repeats an array of three, and reads an element named __proto__ as a plain key', () => {
    const r = readXmlSubset('<a><s>1</s><s>2</s><s>3</s><__proto__>x</__proto__></a>');
    expect(r.value).toEqual(Object.assign(Object.create(null), { s: ['1', '2', '3'], ['__proto__']: 'x' }));
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it.each([
    [
      'a billion-laughs DOCTYPE',
      '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><a>&lol2;</a>',
      /DOCTYPE and other declarations are not accepted/,
    ],
    ['an external entity', '<?xml version="1.0"?><!DOCTYPE a SYSTEM "file:///etc/passwd"><a/>', /DOCTYPE/],
    ['an undeclared entity', '<a>&lol;</a>', /Unknown entity &lol;/],
    ['a bare ampersand', '<a>fish & chips</a>', /bare '&'/],
    ['a NUL character reference', '<a>&#0;</a>', /not a valid character/],
    ['a surrogate character reference', '<a>&#xD800;</a>', /not a valid character/],
    ['an attribute', '<a><song id="1">x</song></a>', /attributes are not part of this format/],
    ['a processing instruction', '<a><?php echo 1 ?></a>', /Processing instructions/],
    ['a late declaration', ' <?xml version="1.0"?><a/>', /Processing instructions/],
    ['another encoding', '<?xml version="1.0" encoding="Shift_JIS"?><a/>', /Only UTF-8/],
    ['text mixed with elements', '<a>text<b>1</b></a>', /mixes text with elements/],
    ['an unclosed element', '<a><b>1</b>', /<a> is not closed/],
    ['a mismatched closing tag', '<a><b>1</a></b>', /<\/a> closes <b>/],
    ['a stray closing tag', '</a>', /closes nothing/],
    ['two roots', '<a/><b/>', /Content after the root element/],
    ['text outside the root', 'hello<a/>', /Text outside the root element/],
    ['no root', '<!-- only a comment -->', /No root element/],
    ['an empty document', '', /No root element/],
    ['an unterminated comment', '<a><!-- x</a>', /Unterminated comment/],
    ['an unterminated CDATA', '<a><![CDATA[x</a>', /Unterminated CDATA/],
    ['a namespace prefix', '<x:a/>', /attributes/],
    ['nesting deeper than 32', `${'<a>'.repeat(40)}${'</a>'.repeat(40)}`, /nested more than 32 deep/],
  ])('refuses %s', (_, xml, message) => {
    expect(() => readXmlSubset(xml)).toThrow(message);
  });

  it('says on which line the problem is', () => {
    expect(() => readXmlSubset('<a>\n<b>\n&bogus;</b></a>')).toThrow(/\(line 3\)/);
  });
});

describe('file/solid-state-squad', () => {
  it("reads the reference's example: DP ANOTHER of Delta in 10-cs, lamp CLEAR, EX 1200, the date read as UTC", () => {
    const parsed = parse(s3(song()));
    expect(parsed.gpt.game).toBe('iidx');
    expect(parsed.gpt.playtype).toBe('DP');
    expect(parsed.context).toEqual({ service: 'Solid State Squad', version: '10-cs' });
    const [c] = convertAll(parsed);
    expect(c).toEqual({
      kind: 'score',
      playtype: 'DP',
      version: '10-cs',
      element: {
        matchType: 'songTitle',
        identifier: 'Delta',
        difficulty: 'ANOTHER',
        score: 1200,
        lamp: 'CLEAR',
        judgements: {},
        optional: {},
        timeAchieved: Date.UTC(2008, 4, 1, 20, 0, 0),
        comment: null,
      },
    });
    if (c.kind === 'score') expect(validateScoreElement(c.element, 0, parsed.gpt, Date.now()).ok).toBe(true);
  });

  describe('the mapping tables, value by value', () => {
    it.each([
      ['L7', 'SP', 'NORMAL'],
      ['7', 'SP', 'HYPER'],
      ['A', 'SP', 'ANOTHER'],
      ['B', 'SP', 'LEGGENDARIA'],
      ['L14', 'DP', 'NORMAL'],
      ['14', 'DP', 'HYPER'],
      ['A14', 'DP', 'ANOTHER'],
      ['B14', 'DP', 'LEGGENDARIA'],
    ])('diff %s → %s %s', (diff, playtype, difficulty) => {
      const parsed = parse(s3(song({ diff })));
      expect(parsed.gpt.playtype).toBe(playtype);
      const [c] = convertAll(parsed);
      expect(c.kind === 'score' && c.playtype).toBe(playtype);
      expect(c.kind === 'score' && (c.element as { difficulty: string }).difficulty).toBe(difficulty);
    });

    it('has exactly those eight charts (5 is skipped)', () => expect(Object.keys(DIFFS).sort()).toEqual(['14', '7', 'A', 'A14', 'B', 'B14', 'L14', 'L7']));

    it.each([
      ['3rd', '3-cs'],
      ['4th', '4-cs'],
      ['5th', '5-cs'],
      ['6th', '6-cs'],
      ['7th', '7-cs'],
      ['8th', '8-cs'],
      ['9th', '9-cs'],
      ['10th', '10-cs'],
      ['red', '11-cs'],
      ['hs', '12-cs'],
      ['dd', '13-cs'],
      ['gold', '14-cs'],
      ['djt', '15-cs'],
      ['emp', '16-cs'],
      ['pb', '16-cs'],
      ['us', 'bmus'],
    ])('last style %s → version %s', (style, version) => {
      const parsed = parse(s3(song({ styles: `3rd, ${style}` })));
      expect(parsed.context.version).toBe(version);
      const [c] = convertAll(parsed);
      expect(c.kind === 'score' && c.version).toBe(version);
    });

    it('has exactly those sixteen styles', () => expect(Object.keys(STYLES)).toHaveLength(16));

    it.each([
      ['played', '<mods/>', 'FAILED'],
      ['played', '<mods><hardeasy>H</hardeasy></mods>', 'FAILED'],
      ['cleared', '<mods/>', 'CLEAR'],
      ['cleared', '<mods></mods>', 'CLEAR'],
      ['cleared', '<mods><hardeasy>E</hardeasy></mods>', 'EASY CLEAR'],
      ['cleared', '<mods><hardeasy>H</hardeasy></mods>', 'HARD CLEAR'],
      ['combo', '<mods/>', 'FULL COMBO'],
      ['comboed', '<mods><hardeasy>E</hardeasy></mods>', 'FULL COMBO'],
      ['perfect', '<mods/>', 'FULL COMBO'],
      ['perfected', '<mods/>', 'FULL COMBO'],
    ])('cleartype %s with %s → %s', (cleartype, mods, lamp) => {
      expect(element(song({ cleartype, mods })).lamp).toBe(lamp);
    });

    it('maps the score breakdown onto judgements, and copies the comment', () => {
      const e = element(
        song({
          exscore: '1200',
          extra:
            '<scorebreakdown><justgreats>500</justgreats><greats>200</greats><good>10</good><bad>3</bad><poor>7</poor></scorebreakdown><comment>first clear!</comment>',
        }),
      );
      expect(e.judgements).toEqual({ pgreat: 500, great: 200, good: 10, bad: 3, poor: 7 });
      expect(e.comment).toBe('first clear!');
    });
  });

  describe('per-score rules', () => {
    it('skips a 5KEY score silently', () => {
      const parsed = parse(s3(song({ diff: '5' }), song()));
      expect(convertAll(parsed).map((c) => c.kind)).toEqual(['skip', 'score']);
    });

    it('refuses a score whose last style is unknown (INVALID), and the rest imports', () => {
      const parsed = parse(s3(song({ styles: '9th,11th' }), song()));
      const [bad, good] = convertAll(parsed);
      expect(bad).toEqual({ kind: 'error', message: "'Delta': unknown style '11th' (the last of its styles)." });
      expect(good.kind).toBe('score');
    });

    it('reads dates as UTC (with or without seconds), an empty date as none, and refuses an impossible one', () => {
      expect(element(song({ date: '2010-10-19 04:54:22' })).timeAchieved).toBe(Date.UTC(2010, 9, 19, 4, 54, 22));
      expect(element(song({ date: '2010-10-19T04:54' })).timeAchieved).toBe(Date.UTC(2010, 9, 19, 4, 54));
      expect(element(song({ date: '' })).timeAchieved).toBeNull();
      for (const date of ['2010-02-30 10:00:00', '19 Oct 2010', '2010-10-19 24:00:00']) {
        const [c] = convertAll(parse(s3(song({ date }))));
        expect(c).toEqual({ kind: 'error', message: `'Delta': Invalid/Unparsable score timestamp '${date}'.` });
      }
    });

    it('keeps numeric titles such as 2002 or .59 as written, and trims the title', () => {
      expect(element(song({ songname: '2002' })).identifier).toBe('2002');
      expect(element(song({ songname: '.59' })).identifier).toBe('.59');
      expect(element(song({ songname: '  <![CDATA[ Spaced ]]>  ' })).identifier).toBe('Spaced');
    });

    it('refuses an empty title', () => {
      expect(convertAll(parse(s3(song({ songname: '' }))))).toEqual([{ kind: 'error', message: 'A score has an empty songname.' }]);
    });
  });

  describe('whole-file rules (400, nothing imported)', () => {
    it.each([
      ['XML that does not parse', '<s3data><scoredata>', /^Could not parse XML: Element <scoredata> is not closed \(line 1\)\.$/],
      ['a billion-laughs payload', `<!DOCTYPE s3data [<!ENTITY a "aaaaaaaaaa">]>${s3(song({ songname: '&a;' }))}`, /^Could not parse XML: DOCTYPE/],
      ['another root element', '<scores><song/></scores>', /root element must be <s3data>/],
      ['no scoredata', '<s3data><userdata><id>1</id><login>a</login><djname>b</djname></userdata></s3data>', /no <song> inside <s3data><scoredata>/],
      ['an empty scoredata', '<s3data><userdata/><scoredata/></s3data>', /no <song>/],
      ['no userdata', '<s3data><scoredata>' + song() + '</scoredata></s3data>', /^Invalid S3 XML\. s3data\.userdata: /],
      [
        'a userdata id that is no number',
        s3(song()).replace('<id>5</id>', '<id>five</id>'),
        /^Invalid S3 XML\. s3data\.userdata\.id: expected a non-negative whole number/,
      ],
      ['an unknown diff', s3(song({ diff: 'X7' })), /^Invalid S3 XML\. s3data\.scoredata\.song\[0\]\.diff: /],
      ['a missing diff', s3(song(), song({ diff: null })), /song\[1\]\.diff/],
      ['a negative exscore', s3(song({ exscore: '-1' })), /song\[0\]\.exscore: expected a non-negative whole number/],
      ['a fractional exscore', s3(song({ exscore: '12.5' })), /song\[0\]\.exscore/],
      ['a missing mods element', s3(song({ mods: null })), /song\[0\]\.mods/],
      ['an unknown hardeasy', s3(song({ mods: '<mods><hardeasy>X</hardeasy></mods>' })), /song\[0\]\.mods/],
      ['an unknown cleartype', s3(song({ cleartype: 'failed' })), /song\[0\]\.cleartype/],
      ['a missing date', s3(song({ date: null })), /song\[0\]\.date/],
      ['a missing songname', s3(song({ songname: null })), /song\[0\]\.songname/],
      ['a songname with elements inside', s3(song({ songname: '<b>x</b>' })), /song\[0\]\.songname: expected text/],
      ['a partial scorebreakdown', s3(song({ extra: '<scorebreakdown><justgreats>1</justgreats></scorebreakdown>' })), /song\[0\]\.scorebreakdown\.greats/],
      ['a doubled exscore', s3(song({ extra: '<exscore>5</exscore>' })), /song\[0\]\.exscore/],
    ])('%s', (_, xml, message) => {
      const r = rejection(xml);
      expect(r.status).toBe(400);
      expect(r.message).toMatch(message);
    });

    it('allows extra elements anywhere, and a single <song>', () => {
      const xml = s3(song({ extra: '<rank>AAA</rank><mods2/>' }))
        .replace('<scoredata>', '<scoredata><note>hi</note>')
        .replace('</s3data>', '<other/></s3data>');
      expect(parse(xml).items).toHaveLength(1);
    });

    it('refuses more songs than IMPORT_MAX_SCORES with a 413', () => {
      expect(rejection(s3(song(), song(), song()), {}, 2)).toEqual({
        status: 413,
        message: 'This file has 3 scores; the limit is 2 per import. Split it into several files.',
      });
    });

    it('parses a queued import from its stored input exactly as the request', () => {
      const input = solidStateSquad.read({ file: Buffer.from(s3(song({ diff: 'A' }), song()), 'utf8'), fields: {} });
      const stored = JSON.parse(JSON.stringify(input)) as unknown;
      expect(solidStateSquad.parse(stored, { maxScores: 10 })).toEqual(solidStateSquad.parse(input, { maxScores: 10 }));
      expect(solidStateSquad.parse(stored, { maxScores: 10 }).gpt.playtype).toBe('SP');
    });

    it('needs the file', () => {
      expect(() => solidStateSquad.read({ fields: {} })).toThrow(/multipart field 'scoreData'/);
    });
  });

  describe('files that mix playtypes and versions', () => {
    const mixed = s3(song(), song({ diff: 'A' }), song({ diff: 'A', styles: 'red' }), song({ diff: '7', styles: 'red' }), song({ diff: '5', styles: 'us' }));

    it('gives each score its own playtype and version, and the import those of the first score', () => {
      const parsed = parse(mixed);
      expect(parsed.gpt.playtype).toBe('DP');
      expect(parsed.context.version).toBe('10-cs');
      expect(convertAll(parsed).map((c) => (c.kind === 'score' ? `${c.playtype} ${c.version}` : c.kind))).toEqual([
        'DP 10-cs',
        'SP 10-cs',
        'SP 11-cs',
        'SP 11-cs',
        'skip',
      ]);
    });

    it('takes the group of the import from the first score that imports (not 5KEY, of a known style)', () => {
      const parsed = parse(s3(song({ diff: '5' }), song({ styles: 'nope' }), song({ diff: 'L7', styles: 'us' })));
      expect(parsed.gpt.playtype).toBe('SP');
      expect(parsed.context.version).toBe('bmus');
    });

    it('ignores the form fields playtype and version, which once chose a group', () => {
      const parsed = parse(mixed, { playtype: 'SP', version: '11-cs' });
      expect(parsed).toEqual(parse(mixed));
      expect(convertAll(parsed).filter((c) => c.kind === 'score')).toHaveLength(4);
    });

    it('a file of only 5KEY scores is an import of nothing, as SP with no version', () => {
      const parsed = parse(s3(song({ diff: '5' })));
      expect(parsed.gpt.playtype).toBe('SP');
      expect(parsed.context.version).toBeNull();
      expect(convertAll(parsed)).toEqual([{ kind: 'skip' }]);
    });
  });

  describe('property: random and truncated input', () => {
    function rng(seed: number) {
      let s = seed >>> 0;
      return () => {
        s = (s * 1664525 + 1013904223) >>> 0;
        return s / 2 ** 32;
      };
    }
    const pieces = [
      '<',
      '>',
      '/',
      's3data',
      'song',
      'scoredata',
      '<![CDATA[',
      ']]>',
      '&amp;',
      '&',
      '<!--',
      '-->',
      'x',
      ' ',
      '\n',
      '"',
      '=',
      '<?xml',
      '?>',
      '5',
      'A14',
    ];

    it('only ever rejects with a 4xx or converts each song to a score, an error or a skip', () => {
      const good = s3(
        song({ extra: '<scorebreakdown><justgreats>500</justgreats><greats>200</greats><good>0</good><bad>0</bad><poor>0</poor></scorebreakdown>' }),
        song({ diff: '5' }),
      );
      const inputs: string[] = [];
      for (let cut = 0; cut <= good.length; cut += 3) inputs.push(good.slice(0, cut));
      const next = rng(7);
      for (let n = 0; n < 300; n++) {
        const len = Math.floor(next() * 60);
        const parts: string[] = [];
        for (let i = 0; i < len; i++) parts.push(pieces[Math.floor(next() * pieces.length)]);
        inputs.push(parts.join(''));
        // The good document with one piece spliced in somewhere.
        const at = Math.floor(next() * good.length);
        inputs.push(good.slice(0, at) + pieces[Math.floor(next() * pieces.length)] + good.slice(at));
      }
      for (const xml of inputs) {
        let parsed: ParsedImport<S3Song>;
        try {
          parsed = parse(xml);
        } catch (err) {
          expect(err).toBeInstanceOf(ImportRejectedError);
          const status = (err as ImportRejectedError).getStatus();
          expect(status >= 400 && status < 500).toBe(true);
          continue;
        }
        for (const c of convertAll(parsed)) {
          expect(['score', 'error', 'skip']).toContain(c.kind);
          if (c.kind === 'score') validateScoreElement(c.element, 0, IIDX.gpts[c.playtype as 'SP' | 'DP'], Date.now());
        }
      }
    });
  });
});
