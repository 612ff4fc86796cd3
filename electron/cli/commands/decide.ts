/**
 * `baton approve | reject | withdraw` (and `resolve` for escalations): gate decisions from a terminal, with the same fail-closed
 * rules as the inbox. An approval names the exact hashes the person saw: `--expect name=sha256`
 * for each artifact, or `--yes` to approve exactly the hashes this command prints. Every decision
 * goes through the channel the inbox uses (gates:*, escalations:decide), so it is refused the same way.
 */
import { GATE_NAMES, type GateName, type LedgerRecord } from '../../../shared/ledger';
import { ESCALATION_DECISIONS, type EscalationDecision } from '../../../shared/model';
import type { AppError, Result } from '../../../shared/result';
import { textProblem, visible, type TextKind } from '../../../shared/text-input';
import type { HostSession } from '../../core/host-session';
import { flag, given, JSON_OPTION, list, onePath, text, type Command, type Values } from '../command';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import { printJson, type Io } from '../io';
import { failed, withProject } from '../open-project';

const GATE_OPTIONS = {
  ...JSON_OPTION,
  feature: { type: 'string' },
  story: { type: 'string' },
  gate: { type: 'string' },
  approver: { type: 'string' },
} as const;

/** The gate named on the command line; the gate's name is part of the command's grammar (usage error), the rest is the channel's to check. */
function gateRef(values: Values, synopsis: string): { feature: string; story?: string; gate: GateName } {
  const gate = given(values, 'gate', synopsis);
  if (!(GATE_NAMES as readonly string[]).includes(gate)) {
    throw new UsageError(`--gate must be one of ${GATE_NAMES.join(', ')}; got "${gate}".`);
  }
  const story = text(values, 'story');
  return { feature: given(values, 'feature', synopsis), gate: gate as GateName, ...(story !== undefined ? { story } : {}) };
}

/** --approver, else the identity the inbox offers (`identity:default`); empty when there is none, which the channel refuses. */
export async function approverOf(values: Values, session: HostSession): Promise<string> {
  const named = text(values, 'approver');
  if (named !== undefined) return named;
  const identity = await session.call('identity:default', {});
  return (identity.ok ? identity.value.approver : null) ?? '';
}

/** The person's words a decision records, by flag: judged before anything is opened (shared/text-input.ts). */
const WORDS: readonly (readonly [flag: string, kind: TextKind, what: string])[] = [
  ['approver', 'name', 'The approver name (--approver)'],
  ['reason', 'note', 'The reason (--reason)'],
  ['comment', 'note', 'The note (--comment)'],
  ['note', 'note', 'The note (--note)'],
];

/** Why the words on the command line cannot be recorded, or null: the channel would refuse them too, less plainly. */
export function wordsRefusal(values: Values): AppError | null {
  for (const [name, kind, what] of WORDS) {
    const value = text(values, name);
    const problem = value === undefined ? null : textProblem(value, kind, what);
    if (problem !== null) return { code: 'invalid-request', message: `${problem} Nothing was recorded.` };
  }
  return null;
}

/** `--expect name=sha256` pairs, in a Map: a name is data, never a property (`__proto__` included). */
function parseExpect(pairs: string[]): Map<string, string> {
  const expect = new Map<string, string>();
  for (const pair of pairs) {
    const match = /^(.+)=([0-9a-f]{64})$/.exec(pair);
    if (!match) throw new UsageError(`--expect takes name=sha256 (64 lowercase hex digits); got "${visible(pair)}".`);
    if (expect.has(match[1]!)) throw new UsageError(`--expect names ${visible(match[1]!)} twice; give each artifact once.`);
    expect.set(match[1]!, match[2]!);
  }
  return expect;
}

/** Names in `--expect` that are not artifacts of the gate, refused with the list of those that are. */
function unknownNames(
  ref: { feature: string; story?: string; gate: GateName },
  expect: ReadonlyMap<string, string>,
  names: readonly string[],
): AppError | null {
  const unknown = [...expect.keys()].filter((name) => !names.includes(name));
  if (unknown.length === 0) return null;
  const gate = `the ${ref.gate} gate of ${ref.feature}${ref.story ? `, story ${ref.story}` : ''}`;
  return {
    code: 'invalid-request',
    message:
      `--expect names ${unknown.map((name) => `"${visible(name)}"`).join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not an artifact of ${gate}. ` +
      `Its artifacts are: ${names.join(', ') || 'none'}. Give --expect name=sha256 for each of them (or --yes to approve exactly what is listed). Nothing was recorded.`,
  };
}

/** `--exception AC … --reason TEXT`: the channel's `exceptions`, or nothing for a plain approval. */
const exceptionsOf = (values: Values) => {
  const acs = list(values, 'exception');
  return acs.length > 0 ? { exceptions: { acs, reason: text(values, 'reason') ?? '' } } : {};
};

function report(io: Io, json: boolean, result: Result<LedgerRecord>, done: string): ExitCode {
  if (!result.ok) return failed(io, result.error, json);
  if (json) printJson(io, { ok: true, record: result.value });
  else io.out(`${done} (ledger record #${result.value.seq}, ${result.value.hash.slice(0, 12)}…)`);
  return EXIT.ok;
}

export const approveCommand: Command = {
  name: 'approve',
  synopsis:
    'approve <dir> --feature F [--story S] --gate G [--approver "Name <email>"] [--expect name=sha256 ...] [--yes] [--comment TEXT] [--exception AC ... --reason TEXT] [--json]',
  summary: 'Approve a gate, binding who, when and the exact artifact hashes (an acceptance with unproven ACs: --exception for each, and --reason)',
  options: {
    ...GATE_OPTIONS,
    expect: { type: 'string', multiple: true },
    comment: { type: 'string' },
    yes: { type: 'boolean', default: false },
    exception: { type: 'string', multiple: true },
    reason: { type: 'string' },
  },
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    const ref = gateRef(values, this.synopsis);
    const pairs = parseExpect(list(values, 'expect'));
    const exceptions = list(values, 'exception');
    if (exceptions.length > 0 !== (text(values, 'reason') !== undefined))
      throw new UsageError('--exception and --reason go together: name each unproven AC with --exception and say why with --reason.');
    const refused = wordsRefusal(values);
    if (refused) return failed(io, refused, json);
    return withProject(
      onePath(positionals, this.synopsis),
      json,
      io,
      async (session) => {
        const evidence = await session.call('gates:evidence', ref);
        if (!evidence.ok) return failed(io, evidence.error, json);
        const unknown = unknownNames(
          ref,
          pairs,
          evidence.value.artifacts.map((a) => a.name),
        );
        if (unknown) return failed(io, unknown, json);
        let expect = Object.fromEntries(pairs);
        if (pairs.size === 0) {
          const shown = evidence.value.artifacts.map((a) => `${a.name}=${a.sha256 ?? '(missing)'}`);
          if (!flag(values, 'yes')) {
            io.err(
              `baton: say which content you approve. The ${ref.gate} gate covers:\n  ${shown.join('\n  ')}\n` +
                'Re-run with --expect name=sha256 for each (from what you reviewed), or --yes to approve exactly these.',
            );
            return EXIT.usage;
          }
          if (!json) io.out(`Approving ${ref.gate} of ${ref.feature}${ref.story ? `/${ref.story}` : ''}:\n  ${shown.join('\n  ')}`);
          expect = Object.fromEntries(evidence.value.artifacts.filter((a) => a.sha256).map((a) => [a.name, a.sha256!]));
        }
        const comment = text(values, 'comment');
        const approver = await approverOf(values, session);
        const result = await session.call('gates:approve', { ...ref, approver, expect, ...(comment ? { comment } : {}), ...exceptionsOf(values) });
        return report(io, json, result, exceptions.length ? `Approved ${ref.gate} with exceptions (${exceptions.join(', ')})` : `Approved ${ref.gate}`);
      },
      'gates',
    );
  },
};

function reasonedDecision(name: 'reject' | 'withdraw', summary: string, done: string): Command {
  const discard = name === 'reject';
  return {
    name,
    synopsis: `${name} <dir> --feature F [--story S] --gate G --reason TEXT${discard ? ' [--discard]' : ''} [--approver "Name <email>"] [--json]`,
    summary,
    options: { ...GATE_OPTIONS, reason: { type: 'string' }, ...(discard ? { discard: { type: 'boolean' as const, default: false } } : {}) },
    async run(positionals, values, io) {
      const json = flag(values, 'json');
      const ref = gateRef(values, this.synopsis);
      const reason = given(values, 'reason', this.synopsis);
      const refused = wordsRefusal(values);
      if (refused) return failed(io, refused, json);
      return withProject(onePath(positionals, this.synopsis), json, io, async (session) => {
        const request = { ...ref, approver: await approverOf(values, session), reason, ...(discard && flag(values, 'discard') ? { discard: true } : {}) };
        const result = await session.call(name === 'reject' ? 'gates:reject' : 'gates:withdraw', request);
        return report(io, json, result, `${done} ${ref.gate}`);
      });
    },
  };
}

export const rejectCommand = reasonedDecision('reject', 'Send a gate back, with a reason', 'Rejected');
export const withdrawCommand = reasonedDecision('withdraw', 'Withdraw an approval (reopens the gates after it)', 'Withdrew');

/** `baton resolve`: a person's decision on an escalated item, as the inbox records it. */
export const resolveCommand: Command = {
  name: 'resolve',
  synopsis: 'resolve <dir> --feature F --item T --decision retry|skip|abandon [--note TEXT] [--approver "Name <email>"] [--json]',
  summary: 'Decide an escalated item: retry it (a new round), skip it, or abandon the feature (note required)',
  options: {
    ...JSON_OPTION,
    feature: { type: 'string' },
    item: { type: 'string' },
    decision: { type: 'string' },
    note: { type: 'string' },
    approver: { type: 'string' },
  },
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    const feature = given(values, 'feature', this.synopsis);
    const item = given(values, 'item', this.synopsis);
    const decision = given(values, 'decision', this.synopsis);
    if (!(ESCALATION_DECISIONS as readonly string[]).includes(decision)) {
      throw new UsageError(`--decision must be one of ${ESCALATION_DECISIONS.join(', ')}; got "${decision}".`);
    }
    const note = text(values, 'note');
    const refused = wordsRefusal(values);
    if (refused) return failed(io, refused, json);
    return withProject(onePath(positionals, this.synopsis), json, io, async (session) => {
      const result = await session.call('escalations:decide', {
        feature,
        item,
        decision: decision as EscalationDecision,
        approver: await approverOf(values, session),
        ...(note ? { note } : {}),
      });
      const next = decision === 'retry' ? `: its next round runs with \`baton run\`` : decision === 'skip' ? ': it is set aside' : ': the feature stops';
      return report(io, json, result, `Decided ${decision} for ${item}${next}`);
    });
  },
};

/**
 * `baton restore`: put a drifted gate's approved files back from the ledger's frozen copies. Without
 * --yes it lists exactly what would be overwritten, re-created and removed, and changes nothing.
 */
export const restoreCommand: Command = {
  name: 'restore',
  synopsis: 'restore <dir> --feature F [--story S] --gate G [--yes] [--approver "Name <email>"] [--json]',
  summary: "Restore a drifted gate's approved files from the ledger (what they replace is kept in the ledger)",
  options: { ...GATE_OPTIONS, yes: { type: 'boolean', default: false } },
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    const ref = gateRef(values, this.synopsis);
    const refused = wordsRefusal(values);
    if (refused) return failed(io, refused, json);
    return withProject(
      onePath(positionals, this.synopsis),
      json,
      io,
      async (session, view) => {
        const gate = view.features.find((f) => f.id === ref.feature)?.gates.find((g) => g.name === ref.gate && g.story === (ref.story ?? null));
        if (!gate || gate.status !== 'drifted') {
          return failed(
            io,
            {
              code: 'not-drifted',
              message: `The ${ref.gate} gate of ${ref.feature}${ref.story ? `, story ${ref.story}` : ''} is ${gate?.status ?? 'not there'}: only a drifted gate has files to restore.`,
            },
            json,
          );
        }
        const lines = gate.drift.map((d) => `  ${d.expected === null ? 'remove  ' : d.actual === null ? 're-create' : 'overwrite'} ${d.artifact}`);
        if (!flag(values, 'yes')) {
          io.err(
            `baton: restoring the ${ref.gate} gate would:\n${lines.join('\n')}\n(what is overwritten or removed is kept in the ledger). Re-run with --yes to do it.`,
          );
          return EXIT.problems;
        }
        const expect = Object.fromEntries(gate.drift.map((d) => [d.artifact, d.actual]));
        const result = await session.call('gates:restore', { ...ref, approver: await approverOf(values, session), expect });
        if (result.ok && !json) io.out(`Restored:\n${lines.join('\n')}`);
        return report(io, json, result, `Restored the approved files of ${ref.gate}`);
      },
      'changes',
    );
  },
};
