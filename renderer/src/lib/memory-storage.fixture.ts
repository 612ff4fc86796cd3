/** Test helper: a Storage with Web Storage's behaviour (strings only), optionally refusing writes like a full one. */
export function memoryStorage(refuse = false): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => {
      if (refuse) throw new DOMException('full', 'QuotaExceededError');
      items.set(key, String(value));
    },
  };
}
