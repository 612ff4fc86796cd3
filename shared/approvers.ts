/**
 * Who may decide a gate: `gates` in project.json names, per gate, the people (by email) or the
 * roles (`@po`, listed in `approverRoles`) allowed to approve, reject, withdraw or restore it. A
 * gate not named there can be decided by anyone who gives a name. `approverKeys` names, per email,
 * the signing keys that person decides with: a typed name is a claim, a signature by one of these
 * keys is the proof (electron/ledger/person-signing.ts signs, `baton verify` checks). Pure: the
 * backend enforces it on every decision and the Inbox shows it.
 */
import { hasNameControl, visible } from './text-input';

export interface ApproverPolicy {
  /** Gate name → emails and `@role`s. */
  readonly gates?: Readonly<Partial<Record<string, readonly string[]>>> | undefined;
  /** Role name → emails. */
  readonly approverRoles?: Readonly<Record<string, readonly string[]>> | undefined;
  /** Email → the public keys (ed25519, base64url, as `baton key` prints them) that person signs decisions with. */
  readonly approverKeys?: Readonly<Record<string, readonly string[]>> | undefined;
}

/** An ed25519 public key as Baton prints it: the raw 32 bytes in base64url (43 characters). */
export const PUBLIC_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A key in messages: long enough to tell two apart, short enough to read. */
export const shortKey = (key: string): string => `${key.slice(0, 12)}…`;

/**
 * The email in "Name <email>", or the whole text when it is an email; lower-cased. Null when there is
 * none, and for any text holding a control character (shared/text-input.ts): such a name names nobody.
 */
export function emailOf(approver: string): string | null {
  if (hasNameControl(approver.trim())) return null;
  const bracketed = /<([^<>\s]+@[^<>\s]+)>/.exec(approver);
  const text = bracketed ? bracketed[1]! : approver.trim();
  return /^[^\s@<>]+@[^\s@<>]+$/.test(text) ? text.toLowerCase() : null;
}

/** The emails allowed to decide `gate`, roles expanded (sorted, unique); null when anyone may. */
export function allowedApprovers(policy: ApproverPolicy | undefined, gate: string): string[] | null {
  const named = policy?.gates?.[gate];
  if (!named) return null;
  const emails = named.flatMap((entry) => (entry.startsWith('@') ? [...(policy?.approverRoles?.[entry.slice(1)] ?? [])] : [entry]));
  return [...new Set(emails.map((e) => e.trim().toLowerCase()))].sort();
}

/** Null when `approver` may decide `gate`; otherwise why not, in words that say what to do. */
export function approverRefusal(policy: ApproverPolicy | undefined, gate: string, approver: string, what = `the ${gate} gate`): string | null {
  const allowed = allowedApprovers(policy, gate);
  if (allowed === null) return null;
  const email = emailOf(approver);
  if (email !== null && allowed.includes(email)) return null;
  const who = email ? `${approver.trim()} is not among them` : `"${visible(approver.trim())}" names no email to check`;
  return `Only ${allowed.join(', ') || 'no one'} may decide ${what} (gates.${gate} in .baton/project.json); ${who}. Decide as one of them, or change the policy in project.json.`;
}

/** The keys `approverKeys` lists for the person `approver` names; null when it lists none (or names nobody). */
export function keysOf(policy: ApproverPolicy | undefined, approver: string): readonly string[] | null {
  const email = emailOf(approver);
  if (email === null || !policy?.approverKeys) return null;
  const entry = Object.entries(policy.approverKeys).find(([listed]) => listed.trim().toLowerCase() === email);
  return entry && entry[1].length > 0 ? entry[1] : null;
}

/**
 * Null when a decision by `approver`, signed with `signer` (this machine's public key; null: it has
 * none), may be made: a person whose keys the policy lists decides only with one of them.
 */
export function keyRefusal(policy: ApproverPolicy | undefined, approver: string, signer: string | null): string | null {
  const keys = keysOf(policy, approver);
  if (keys === null || (signer !== null && keys.includes(signer))) return null;
  const email = emailOf(approver)!;
  const listed = keys.map(shortKey).join(', ');
  const mine = signer === null ? 'this machine has no signing key' : `this machine's key is ${shortKey(signer)}`;
  return `Decisions as ${email} must be signed with ${keys.length === 1 ? 'their key' : 'one of their keys'} (${listed}, approverKeys in .baton/project.json), and ${mine}. Decide on ${email}'s own machine, or run \`baton key <dir> --approver "${email}"\` there to list a key.`;
}

/** How far a recorded decision proves who made it. */
export type ApproverProofState = 'signed' | 'typed' | 'unauthenticated';

/** The words every host shows for a proof (the Gates screen, `baton gates`). */
export const proofWords = (proof: ApproverProof): string =>
  proof.state === 'signed'
    ? 'signed by their key'
    : proof.state === 'unauthenticated'
      ? 'unauthenticated'
      : proof.key
        ? 'typed; signed by a key not listed for them'
        : 'typed, not signed';

export interface ApproverProof {
  readonly state: ApproverProofState;
  /** The key that signed it (valid signatures only); on a typed approval, a key no policy ties to the approver. */
  readonly key?: string;
  /** Why it is unauthenticated, in words that say what to do. */
  readonly why?: string;
}

/**
 * A recorded decision on `gate` by `approver` against the policy: `signed` (a valid signature by a
 * key `approverKeys` lists for that person: only then does a signature say who it was); `typed` (no
 * policy names who may decide and none lists their keys: today's trust in a typed name, signed or
 * not — a signature by a key tied to nobody proves which machine, not which person);
 * `unauthenticated` (the policy names who may decide or lists the person's keys, and the signature
 * is missing, does not verify, or is by a key not listed for them).
 */
export function approverProof(
  policy: ApproverPolicy | undefined,
  gate: string,
  approver: string,
  signature: { readonly key: string; readonly valid: boolean } | null,
): ApproverProof {
  const email = emailOf(approver) ?? `"${visible(approver.trim())}"`;
  if (signature && !signature.valid)
    return { state: 'unauthenticated', why: `its signature (key ${shortKey(signature.key)}) does not verify: the record was changed after it was signed` };
  const keys = keysOf(policy, approver);
  const guarded = keys !== null || allowedApprovers(policy, gate) !== null;
  if (!guarded) return signature ? { state: 'typed', key: signature.key } : { state: 'typed' };
  if (!signature) return { state: 'unauthenticated', why: `it is not signed, and the policy in .baton/project.json names who may decide the ${gate} gate` };
  if (keys === null)
    return {
      state: 'unauthenticated',
      key: signature.key,
      why: `approverKeys in .baton/project.json lists no key for ${email}, so the signature by ${shortKey(signature.key)} proves nothing about them`,
    };
  if (!keys.includes(signature.key))
    return {
      state: 'unauthenticated',
      key: signature.key,
      why: `it is signed by ${shortKey(signature.key)}, which approverKeys in .baton/project.json does not list for ${email}`,
    };
  return { state: 'signed', key: signature.key };
}

/** Every problem with a policy: a role used but not defined, an entry that is neither an email nor a role. */
export function policyProblems(policy: ApproverPolicy): string[] {
  const problems: string[] = [];
  for (const [gate, entries] of Object.entries(policy.gates ?? {}))
    for (const entry of entries ?? []) {
      if (entry.startsWith('@')) {
        if (!policy.approverRoles?.[entry.slice(1)]) problems.push(`gates.${gate} names the role ${entry}, which approverRoles does not define`);
      } else if (emailOf(entry) === null) problems.push(`gates.${gate}: "${entry}" is neither an email nor a @role`);
    }
  for (const [role, emails] of Object.entries(policy.approverRoles ?? {}))
    for (const e of emails) if (emailOf(e) === null) problems.push(`approverRoles.${role}: "${e}" is not an email`);
  for (const [email, keys] of Object.entries(policy.approverKeys ?? {})) {
    if (emailOf(email) === null) problems.push(`approverKeys: "${visible(email)}" is not an email`);
    for (const key of keys)
      if (!PUBLIC_KEY_PATTERN.test(key))
        problems.push(`approverKeys["${visible(email)}"]: "${visible(key)}" is not a public key (43 base64url characters, as \`baton key\` prints it)`);
  }
  return problems;
}
