/**
 * Who may decide a gate: `gates` in project.json names, per gate, the people (by email) or the
 * roles (`@po`, listed in `approverRoles`) allowed to approve, reject, withdraw or restore it. A
 * gate not named there can be decided by anyone who gives a name. Pure: the backend enforces it
 * on every decision and the Inbox shows it.
 */
import { hasNameControl, visible } from './text-input';

export interface ApproverPolicy {
  /** Gate name → emails and `@role`s. */
  readonly gates?: Readonly<Partial<Record<string, readonly string[]>>> | undefined;
  /** Role name → emails. */
  readonly approverRoles?: Readonly<Record<string, readonly string[]>> | undefined;
}

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
  return problems;
}
