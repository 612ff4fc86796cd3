/**
 * A minimal POSIX ustar writer and reader, enough for review bundles: regular files only on
 * writing; on reading, every entry is returned with its type so the caller can refuse links and
 * anything else. Written here rather than pulled in, because a bundle is untrusted input and every
 * rule about what it may contain should be visible in this folder.
 */

const BLOCK = 512;
const encoder = new TextEncoder();

export interface TarEntry {
  readonly path: string;
  /** The ustar typeflag: '0' (or NUL) file, '5' directory, '1'/'2' links, others. */
  readonly typeflag: string;
  readonly content: Buffer;
}

const writeString = (header: Buffer, offset: number, length: number, value: string): void => {
  const bytes = encoder.encode(value);
  if (bytes.length > length) throw new Error(`"${value}" does not fit a ${length}-byte tar field`);
  header.set(bytes, offset);
};

const writeOctal = (header: Buffer, offset: number, length: number, value: number): void => {
  writeString(header, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
};

/** ustar keeps a path up to 100 bytes in `name`, and up to 155 more before a `/` in `prefix`. */
const splitPath = (path: string): { name: string; prefix: string } => {
  if (encoder.encode(path).length <= 100) return { name: path, prefix: '' };
  for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1)) {
    const prefix = path.slice(0, cut);
    const name = path.slice(cut + 1);
    if (encoder.encode(prefix).length <= 155 && encoder.encode(name).length <= 100) return { name, prefix };
  }
  throw new Error(`${path} is too long for a bundle entry (ustar allows 255 bytes split at a /). Shorten the file name.`);
};

/** One file entry: a header block, the content, zero padding to a whole block. */
export const tarFile = (path: string, content: Uint8Array, mtime: Date): Buffer => {
  const header = Buffer.alloc(BLOCK);
  const { name, prefix } = splitPath(path);
  writeString(header, 0, 100, name);
  writeOctal(header, 100, 8, 0o644);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, content.length);
  writeOctal(header, 136, 12, Math.floor(mtime.getTime() / 1000));
  header.fill(0x20, 148, 156); // the checksum is computed with its own field as spaces
  writeString(header, 156, 1, '0');
  writeString(header, 257, 6, 'ustar\0');
  writeString(header, 263, 2, '00');
  writeString(header, 345, 155, prefix);
  const sum = header.reduce((total, byte) => total + byte, 0);
  writeString(header, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  const padding = (BLOCK - (content.length % BLOCK)) % BLOCK;
  return Buffer.concat([header, content, Buffer.alloc(padding)]);
};

/** Two zero blocks end an archive. */
export const tarEnd = (): Buffer => Buffer.alloc(BLOCK * 2);

const readString = (block: Buffer, offset: number, length: number): string => {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
};

const readOctal = (block: Buffer, offset: number, length: number, what: string): number => {
  const text = readString(block, offset, length).trim();
  if (!/^[0-7]+$/.test(text)) throw new Error(`a tar header has an unreadable ${what} field`);
  return parseInt(text, 8);
};

/** The header at `offset`, or null at the end-of-archive zero block. */
export const readTarHeader = (data: Buffer, offset: number): { path: string; typeflag: string; size: number } | null => {
  if (offset + BLOCK > data.length) throw new Error('the archive ends in the middle of an entry header (truncated)');
  const block = data.subarray(offset, offset + BLOCK);
  if (block.every((byte) => byte === 0)) return null;
  const stored = readOctal(block, 148, 8, 'checksum');
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  if (sum !== stored) throw new Error(`an entry header at byte ${offset} is damaged (checksum mismatch)`);
  const name = readString(block, 0, 100);
  const prefix = readString(block, 257, 6) === 'ustar' ? readString(block, 345, 155) : '';
  const typeflag = String.fromCharCode(block[156]!);
  return { path: prefix ? `${prefix}/${name}` : name, typeflag: typeflag === '\0' ? '0' : typeflag, size: readOctal(block, 124, 12, 'size') };
};

/** Every entry of an uncompressed tar archive; throws on a damaged or truncated one. */
export const readTar = (data: Buffer): TarEntry[] => {
  const entries: TarEntry[] = [];
  let offset = 0;
  for (;;) {
    const header = readTarHeader(data, offset);
    if (header === null) return entries;
    const start = offset + BLOCK;
    if (start + header.size > data.length) throw new Error(`the archive ends in the middle of ${header.path} (truncated)`);
    entries.push({ path: header.path, typeflag: header.typeflag, content: data.subarray(start, start + header.size) });
    offset = start + Math.ceil(header.size / BLOCK) * BLOCK;
  }
};
