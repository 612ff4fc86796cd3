/**
 * A small XML reader for test reports: elements, attributes, text, CDATA, comments, entities.
 * Enough for JUnit XML from every common runner; no DTDs, no namespaces (prefixes kept in names).
 * Linear in the size of its input (no backtracking regular expression meets a whole tag), and
 * elements nested deeper than MAX_XML_DEPTH are refused, so a hostile report cannot hang the
 * reader or overflow the stack of whatever walks the tree.
 */

export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  /** Concatenated text and CDATA directly inside this element. */
  text: string;
}

export class XmlError extends Error {}

/** The deepest element nesting read; real JUnit reports nest suites a handful of levels. */
export const MAX_XML_DEPTH = 512;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return safeCodePoint(parseInt(ref.slice(2), 16), whole);
    if (ref.startsWith('#')) return safeCodePoint(parseInt(ref.slice(1), 10), whole);
    return NAMED[ref] ?? whole;
  });
}

/** A character reference that names no character (or half a surrogate pair, `&#xD800;`) stays as written. */
function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : fallback;
}

/** Line number (1-based) of an offset, for errors a person can find in the file. */
function lineAt(source: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < source.length; i += 1) if (source.charCodeAt(i) === 10) line += 1;
  return line;
}

const isSpace = (ch: string | undefined): boolean => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';

/**
 * `name="value"` and `name='value'` pairs of a tag body, scanned once from left to right (a regular
 * expression here backtracked quadratically on a long run of name characters with no `=`).
 * Anything that is not such a pair is skipped, as before.
 */
function readAttributes(body: string): Record<string, string> {
  const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
  let i = 0;
  while (i < body.length) {
    while (i < body.length && (isSpace(body[i]) || body[i] === '/' || body[i] === '>' || body[i] === '=')) i += 1;
    const start = i;
    while (i < body.length && !isSpace(body[i]) && body[i] !== '=' && body[i] !== '/' && body[i] !== '>') i += 1;
    if (i === start) {
      i += 1;
      continue;
    }
    const name = body.slice(start, i);
    let j = i;
    while (isSpace(body[j])) j += 1;
    if (body[j] !== '=') continue;
    j += 1;
    while (isSpace(body[j])) j += 1;
    const quote = body[j];
    if (quote !== '"' && quote !== "'") {
      i = j;
      continue;
    }
    const close = body.indexOf(quote, j + 1);
    if (close === -1) {
      i = j + 1;
      continue;
    }
    attrs[name] = decodeEntities(body.slice(j + 1, close));
    i = close + 1;
  }
  return attrs;
}

export function parseXml(source: string): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  let i = 0;
  const fail = (what: string): never => {
    throw new XmlError(`${what} at line ${lineAt(source, i)}`);
  };
  while (i < source.length) {
    const lt = source.indexOf('<', i);
    const top = stack[stack.length - 1]!;
    if (lt === -1) {
      top.text += decodeEntities(source.slice(i));
      break;
    }
    if (lt > i) top.text += decodeEntities(source.slice(i, lt));
    i = lt;
    if (source.startsWith('<!--', i)) {
      const end = source.indexOf('-->', i + 4);
      if (end === -1) fail('unterminated comment');
      i = end + 3;
    } else if (source.startsWith('<![CDATA[', i)) {
      const end = source.indexOf(']]>', i + 9);
      if (end === -1) fail('unterminated CDATA section');
      top.text += source.slice(i + 9, end);
      i = end + 3;
    } else if (source.startsWith('<?', i) || source.startsWith('<!', i)) {
      const end = source.indexOf('>', i);
      if (end === -1) fail('unterminated declaration');
      i = end + 1;
    } else if (source.startsWith('</', i)) {
      const end = source.indexOf('>', i);
      if (end === -1) fail('unterminated closing tag');
      const name = source.slice(i + 2, end).trim();
      if (top === root || top.name !== name) fail(`closing tag </${name}> does not match <${top.name}>`);
      stack.pop();
      i = end + 1;
    } else {
      const end = findTagEnd(source, i);
      if (end === -1) fail('unterminated tag');
      const selfClosing = source[end - 1] === '/';
      const body = source.slice(i + 1, selfClosing ? end - 1 : end);
      const name = /^[^\s/>]+/.exec(body)?.[0];
      if (!name) fail('a tag without a name');
      const element: XmlElement = { name: name!, attrs: readAttributes(body.slice(name!.length)), children: [], text: '' };
      top.children.push(element);
      if (!selfClosing) {
        if (stack.length > MAX_XML_DEPTH) fail(`elements nested deeper than ${MAX_XML_DEPTH} levels`);
        stack.push(element);
      }
      i = end + 1;
    }
  }
  if (stack.length > 1) throw new XmlError(`<${stack[stack.length - 1]!.name}> is never closed`);
  return root;
}

/** The `>` ending a tag, skipping `>` inside quoted attribute values. */
function findTagEnd(source: string, from: number): number {
  let quote: string | null = null;
  for (let i = from + 1; i < source.length; i += 1) {
    const ch = source[i]!;
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '>') return i;
  }
  return -1;
}
