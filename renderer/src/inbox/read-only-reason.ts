/** Why nothing can be decided in this project, or null when decisions can be recorded here. */
export function readOnlyReasonOf(readOnly: boolean, bundle: string | null, what: 'gates' | 'escalations'): string | null {
  if (bundle) return `This is a review bundle, opened read-only: decide ${what} in the Baton project it was exported from.`;
  if (readOnly) return `Baton reads this project and never writes it: decide its ${what} with the tool that owns it.`;
  return null;
}
