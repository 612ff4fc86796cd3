/**
 * Reads picked files as attachments: text only (read with File.text()), at most 1 MB each and 10
 * in all, each under a plain file name no other attachment has. A file that does not qualify is
 * left out with a sentence saying why; the others are still added.
 */
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, plainName, REQUEST_FILE, type Attachment } from '../lib/feature-draft';

export interface ReadOutcome {
  readonly added: readonly Attachment[];
  readonly problems: readonly string[];
}

/** Types that are never text, refused before reading a byte. */
const NOT_TEXT_TYPE = /^(image|audio|video|font)\/|^application\/(pdf|zip|gzip|x-7z-compressed|x-tar|vnd\.openxmlformats|msword)/;

const megabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`;

const notText = (file: File): string => `${file.name} is not a text file: attach text (Markdown, plain text, JSON, CSV), or a summary of it.`;

async function readOne(file: File, taken: ReadonlySet<string>): Promise<Attachment | string> {
  if (file.size > MAX_ATTACHMENT_BYTES) return `${file.name} is larger than 1 MB (${megabytes(file.size)}): attach a summary instead.`;
  if (NOT_TEXT_TYPE.test(file.type)) return notText(file);
  const name = plainName(file.name);
  if (name === REQUEST_FILE) return `${file.name}: ${REQUEST_FILE} is the name Baton gives the request itself; rename the file, then attach it.`;
  if (taken.has(name)) return `${file.name}: an attachment is already called ${name}; remove it or rename one of the files.`;
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    return `${file.name} could not be read (${error instanceof Error ? error.message : String(error)}): pick it again.`;
  }
  // File.text() decodes UTF-8 and replaces what is not with U+FFFD; a NUL byte is never in text.
  if (text.includes('\u0000') || text.includes('\uFFFD')) return notText(file);
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_ATTACHMENT_BYTES) return `${file.name} is larger than 1 MB (${megabytes(bytes)}): attach a summary instead.`;
  return { name, original: file.name, text, bytes };
}

export async function readAttachments(files: readonly File[], current: readonly Attachment[]): Promise<ReadOutcome> {
  const added: Attachment[] = [];
  const problems: string[] = [];
  const taken = new Set(current.map((a) => a.name));
  for (const file of files) {
    if (current.length + added.length >= MAX_ATTACHMENTS) {
      problems.push(`${file.name} was not added: a request takes at most ${MAX_ATTACHMENTS} attachments. Remove one to add another.`);
      continue;
    }
    const read = await readOne(file, taken);
    if (typeof read === 'string') problems.push(read);
    else {
      added.push(read);
      taken.add(read.name);
    }
  }
  return { added, problems };
}
