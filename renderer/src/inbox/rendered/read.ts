/**
 * Reading a hand-written JSON artifact defensively. A field is taken only when it has a shape the
 * view can show; everything else (keys no view knows, values of an unexpected type) is collected as
 * "other", so the rendered view can say "Other fields: … — see JSON" instead of hiding it.
 */

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The paths of what a view could not show, e.g. `priority` or `tables[].columns[].planned`. */
export class Leftovers {
  private readonly paths = new Set<string>();
  add(path: string): void {
    this.paths.add(path);
  }
  list(): string[] {
    return [...this.paths];
  }
}

/** A scalar as text; a list of scalars as lines (Consort allows a list of lines for a step). */
const asText = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.join('\n');
  return undefined;
};

/** One object being read. Each key a view takes is marked taken; `done()` reports the rest. */
export class ObjectReader {
  private readonly taken = new Set<string>();

  constructor(
    private readonly value: JsonObject,
    private readonly at: string,
    private readonly left: Leftovers,
  ) {}

  /** The first of `keys` present (an alias the file may use instead); only that one is taken. */
  private pick(keys: readonly string[]): { key: string; value: unknown } | null {
    for (const key of keys) {
      if (key in this.value && this.value[key] !== undefined) {
        this.taken.add(key);
        return { key, value: this.value[key] };
      }
    }
    return null;
  }

  private miss(key: string): null {
    this.left.add(this.at + key);
    return null;
  }

  /** Text (a string, a number, or a list of lines), or null when absent, null or not text. */
  text(...keys: string[]): string | null {
    const found = this.pick(keys);
    if (found === null || found.value === null) return null;
    return asText(found.value) ?? this.miss(found.key);
  }

  bool(...keys: string[]): boolean | null {
    const found = this.pick(keys);
    if (found === null || found.value === null) return null;
    return typeof found.value === 'boolean' ? found.value : this.miss(found.key);
  }

  /** A list of texts; a single text reads as a list of one. Entries that are not text are "other". */
  texts(...keys: string[]): string[] | null {
    const found = this.pick(keys);
    if (found === null || found.value === null) return null;
    if (!Array.isArray(found.value)) {
      const one = asText(found.value);
      return one === undefined ? this.miss(found.key) : [one];
    }
    const out: string[] = [];
    for (const entry of found.value) {
      const text = typeof entry === 'string' || typeof entry === 'number' ? String(entry) : undefined;
      if (text === undefined) this.left.add(`${this.at}${found.key}[]`);
      else out.push(text);
    }
    return out;
  }

  /**
   * A list whose entries are objects (read with `object`) or, where the file may abbreviate them,
   * plain texts (read with `text`). An entry of another shape is "other"; null when absent.
   */
  list<T>(keys: readonly string[], read: { object?: (entry: ObjectReader) => T; text?: (text: string) => T }): T[] | null {
    const found = this.pick(keys);
    if (found === null || found.value === null) return null;
    if (!Array.isArray(found.value)) return this.miss(found.key);
    return readList(found.value, `${this.at}${found.key}[]`, this.left, read);
  }

  /** Marks every key not taken as "other". Call once the view has read what it shows. */
  done(): void {
    for (const key of Object.keys(this.value)) if (!this.taken.has(key)) this.left.add(this.at + key);
  }
}

/** The entries of a list (see ObjectReader.list); `at` names an entry, e.g. `items[]`. */
export function readList<T>(
  entries: readonly unknown[],
  at: string,
  left: Leftovers,
  read: { object?: (entry: ObjectReader) => T; text?: (text: string) => T },
): T[] {
  const out: T[] = [];
  for (const entry of entries) {
    if (isObject(entry) && read.object) {
      const reader = new ObjectReader(entry, `${at}.`, left);
      out.push(read.object(reader));
      reader.done();
    } else if ((typeof entry === 'string' || typeof entry === 'number') && read.text) {
      out.push(read.text(String(entry)));
    } else {
      left.add(at);
    }
  }
  return out;
}

/** What a parser hands a view: the document, and what it left out. */
export interface Read<T> {
  readonly doc: T;
  readonly others: readonly string[];
}

/** Reads a top-level object with `read`; null when the value is not an object or `read` finds nothing it knows. */
export function readObject<T>(value: unknown, read: (reader: ObjectReader) => T | null): Read<T> | null {
  if (!isObject(value)) return null;
  const left = new Leftovers();
  const reader = new ObjectReader(value, '', left);
  const doc = read(reader);
  if (doc === null) return null;
  reader.done();
  return { doc, others: left.list() };
}

/** True when at least one of the values is present: a parser's "did I find anything I know". */
export const anyPresent = (...values: readonly unknown[]): boolean => values.some((v) => v !== null && v !== undefined);
