/**
 * A strict reader for the XML subset S3 exports use: an optional `<?xml?>` declaration, elements
 * without attributes, text, CDATA sections, comments, the five predefined entities and character
 * references. Anything else (a DOCTYPE and so any entity definition, processing instructions,
 * attributes, text mixed with elements) is refused, which also rules out entity-expansion attacks.
 *
 * The result is plain JSON: an element with child elements becomes an object of them (a name that
 * repeats becomes an array), any other element its trimmed text ('' when empty).
 */

export type XmlValue = string | XmlObject | XmlValue[];
export interface XmlObject {
  [name: string]: XmlValue;
}

export class XmlSubsetError extends Error {}

const NAME = /[A-Za-z_][A-Za-z0-9_.-]*/y;
const DECLARATION = /<\?xml(\s+(version|encoding|standalone)\s*=\s*("[^"]*"|'[^']*'))*\s*\?>/y;
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const MAX_DEPTH = 32;

interface Open {
  name: string;
  text: string;
  children: [string, XmlValue][];
}

export function readXmlSubset(source: string): { root: string; value: XmlValue } {
  const xml = source.replace(/^\uFEFF/, '');
  let pos = 0;
  function fail(what: string, at = pos): never {
    const line = xml.slice(0, at).split('\n').length;
    throw new XmlSubsetError(`${what} (line ${line}).`);
  }
  const skipMisc = () => {
    for (;;) {
      while (pos < xml.length && /\s/.test(xml[pos])) pos++;
      if (!xml.startsWith('<!--', pos)) return;
      const end = xml.indexOf('-->', pos + 4);
      if (end === -1) fail('Unterminated comment');
      pos = end + 3;
    }
  };
  const readName = (): string => {
    NAME.lastIndex = pos;
    const m = NAME.exec(xml);
    if (!m) fail('Expected an element name');
    pos += m[0].length;
    return m[0];
  };

  DECLARATION.lastIndex = 0;
  const declaration = DECLARATION.exec(xml);
  if (declaration) {
    if (/encoding\s*=\s*["'](?!utf-8["'])/i.test(declaration[0])) fail('Only UTF-8 documents are accepted');
    pos = declaration[0].length;
  }
  skipMisc();

  const stack: Open[] = [];
  let result: { root: string; value: XmlValue } | undefined;
  while (!result) {
    if (pos >= xml.length) fail(stack.length ? `Element <${stack[stack.length - 1].name}> is not closed` : 'No root element');
    const top = stack[stack.length - 1] as Open | undefined;
    if (xml[pos] !== '<') {
      if (!top) fail('Text outside the root element');
      const end = xml.indexOf('<', pos);
      top.text += decodeText(end === -1 ? xml.slice(pos) : xml.slice(pos, end), pos, fail);
      pos = end === -1 ? xml.length : end;
      continue;
    }
    if (xml.startsWith('<!--', pos)) {
      const end = xml.indexOf('-->', pos + 4);
      if (end === -1) fail('Unterminated comment');
      pos = end + 3;
    } else if (xml.startsWith('<![CDATA[', pos)) {
      if (!top) fail('CDATA outside the root element');
      const end = xml.indexOf(']]>', pos + 9);
      if (end === -1) fail('Unterminated CDATA section');
      top.text += xml.slice(pos + 9, end);
      pos = end + 3;
    } else if (xml.startsWith('<!', pos)) {
      fail('DOCTYPE and other declarations are not accepted');
    } else if (xml.startsWith('<?', pos)) {
      fail('Processing instructions are not accepted');
    } else if (xml.startsWith('</', pos)) {
      pos += 2;
      const name = readName();
      while (/\s/.test(xml[pos] ?? '')) pos++;
      if (xml[pos] !== '>') fail(`Malformed closing tag </${name}`);
      pos++;
      if (!top || top.name !== name) fail(top ? `</${name}> closes <${top.name}>` : `</${name}> closes nothing`);
      stack.pop();
      const value = close(top, fail);
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push([name, value]);
      else result = { root: name, value };
    } else {
      pos++;
      const name = readName();
      while (/\s/.test(xml[pos] ?? '')) pos++;
      const selfClosing = xml.startsWith('/>', pos);
      if (!selfClosing && xml[pos] !== '>') fail(`<${name}> has attributes or is malformed: attributes are not part of this format`);
      pos += selfClosing ? 2 : 1;
      if (selfClosing) {
        if (top) top.children.push([name, '']);
        else result = { root: name, value: '' };
      } else {
        if (stack.length >= MAX_DEPTH) fail(`Elements are nested more than ${MAX_DEPTH} deep`);
        stack.push({ name, text: '', children: [] });
      }
    }
  }
  skipMisc();
  if (pos < xml.length) fail('Content after the root element');
  return result;
}

function close(element: Open, fail: (what: string) => never): XmlValue {
  if (element.children.length === 0) return element.text.trim();
  if (element.text.trim() !== '') fail(`<${element.name}> mixes text with elements`);
  // No prototype: an element named __proto__ is an ordinary key.
  const object = Object.create(null) as XmlObject;
  for (const [name, value] of element.children) {
    const existing = object[name];
    if (existing === undefined) object[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else object[name] = [existing, value];
  }
  return object;
}

/** Text with its references replaced; `start` is its offset in the document, for the line of an error. */
function decodeText(raw: string, start: number, fail: (what: string, at: number) => never): string {
  return raw.replace(/&([^;&\s]*);?/g, (whole: string, ref: string, offset: number) => {
    const at = start + offset;
    if (!whole.endsWith(';')) return fail(`A bare '&' must be written &amp;`, at);
    if (Object.hasOwn(ENTITIES, ref)) return ENTITIES[ref];
    const code = /^#x[0-9a-f]{1,6}$/i.test(ref) ? parseInt(ref.slice(2), 16) : /^#\d{1,7}$/.test(ref) ? Number(ref.slice(1)) : undefined;
    if (code === undefined) return fail(`Unknown entity &${ref};`, at);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return fail(`&${ref}; is not a valid character`, at);
    return String.fromCodePoint(code);
  });
}
