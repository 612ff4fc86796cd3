/** How an artifact's text is shown: JSON pretty-printed, anything else as written. */

export const isJsonName = (name: string): boolean => name.toLowerCase().endsWith('.json');

/**
 * JSON artifacts are hashed in canonical form, so their layout on disk carries no meaning:
 * show (and diff) them with two-space indentation. Text that does not parse is shown as is.
 */
export function displayText(name: string, text: string): string {
  if (!isJsonName(name)) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2) + '\n';
  } catch {
    return text;
  }
}

export const formatBytes = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
};
