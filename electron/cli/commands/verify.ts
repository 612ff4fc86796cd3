/** `baton verify <dir|bundle> [--json] [--repair-tail]`: is the evidence intact? */
import type { VerifyReport } from '../../../shared/ledger';
import type { RerunReport } from '../../core/rerun-green';
import { greenReruns, projectTools, verification } from '../core';
import { flag, JSON_OPTION, onePath, type Command } from '../command';
import { EXIT } from '../exit-codes';
import { printJson, type Io } from '../io';
import { failed, withProject } from '../open-project';

export const verifyCommand: Command = {
  name: 'verify',
  synopsis: 'verify <dir|bundle> [--json] [--strict] [--own-trust] [--repair-tail] [--rerun]',
  summary:
    "Check the hash chain, every blob, the signed checkpoints, git's evidence trailers and every approved gate against the disk; --strict also fails unless trusted checkpoints vouch for every record and, under an approver policy, every approval is signed by a key it lists for the approver; --rerun runs again the tests each GREEN in the checked-out commit recorded as passing",
  options: {
    ...JSON_OPTION,
    strict: { type: 'boolean', default: false },
    'own-trust': { type: 'boolean', default: false },
    'repair-tail': { type: 'boolean', default: false },
    rerun: { type: 'boolean', default: false },
  },
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    const path = onePath(positionals, this.synopsis);
    return withProject(path, json, io, async (session, view) => {
      if (flag(values, 'repair-tail')) {
        // No channel mends a ledger: a core function does, behind the same read-only guard.
        const identity = await session.call('identity:default', {});
        const approver = (identity.ok ? identity.value.approver : null) ?? 'baton verify --repair-tail';
        const result = await (await projectTools()).repairLedgerTail(session.workbench, approver);
        if (!result.ok) return failed(io, result.error, json);
        const repaired = result.value;
        if (!json) {
          io.out(
            repaired.droppedBytes
              ? `Dropped an incomplete final line (${repaired.droppedBytes} bytes); recorded as ledger record #${repaired.record?.seq}.`
              : 'No incomplete final line: nothing to repair.',
          );
        }
      }
      const result = await session.call('ledger:verify', flag(values, 'own-trust') ? { ownTrust: true } : {});
      if (!result.ok) return failed(io, result.error, json);
      let report: VerifyReport & { rerun?: RerunReport } = result.value;
      if (flag(values, 'strict') && view.layout === 'baton') {
        const strict = (await verification()).strictFailures(report);
        report = { ...report, ok: report.ok && strict.length === 0, strict };
      }
      if (flag(values, 'rerun')) {
        if (view.layout !== 'baton' || view.bundle)
          return failed(
            io,
            { code: 'unsupported', message: `--rerun needs a Baton project folder with its git repository (${path} is not one): run it in the checkout.` },
            json,
          );
        if (!json) io.err('baton verify: re-running the tests each GREEN in this commit recorded as passing (twice, on a fresh embedded database)…');
        const rerun = await (await greenReruns()).rerunGreens(view.root, view.artifactRoot);
        report = { ...report, ok: report.ok && rerun.problems.length === 0, problems: [...report.problems, ...rerun.problems], rerun };
        if (!json)
          io.out(
            `Re-ran ${rerun.tests} test${rerun.tests === 1 ? '' : 's'} of ${rerun.items} GREEN item${rerun.items === 1 ? '' : 's'} at ${rerun.commit.slice(0, 12)}.`,
          );
      }
      if (json) printJson(io, report);
      else printReport(io, report, view.layout === 'baton' ? null : view.layout);
      return report.ok ? EXIT.ok : EXIT.problems;
    });
  },
};

/** `foreign` names a Consort layout, which has no Baton ledger: its decisions live in gates.json. */
function printReport(io: Io, report: VerifyReport, foreign: string | null): void {
  const head = report.head ? `head ${report.head.slice(0, 12)}…` : 'no records';
  if (foreign) io.out(`A ${foreign} project has no Baton ledger: each gates.json's approved hashes are checked against the files.`);
  else
    io.out(
      report.chain.ok
        ? // "intact" only when nothing else is wrong: a ledger cut short still chains perfectly.
          `${report.ok ? 'Ledger intact' : 'Ledger chain unbroken, with problems (below)'} · ${report.records} records · ${head} · ${report.signature}`
        : `Ledger BROKEN at record #${report.chain.brokenAt} · ${report.records} records read · ${report.signature}`,
    );
  const c = report.checkpoints;
  if (!foreign && c && (c.count > 0 || report.signature !== 'unsigned')) io.out(`  Checkpoints: ${c.count} valid · ${c.message ?? report.signature}`);
  const a = report.approvals;
  if (!foreign && a && a.signed + a.typed + a.unauthenticated.length > 0) {
    io.out(`  Approvals: ${a.signed} signed by their approver · ${a.typed} typed (no key listed for them) · ${a.unauthenticated.length} unauthenticated`);
    for (const u of a.unauthenticated) io.out(`    ✗ #${u.seq} the ${u.gate} gate, approved as ${u.approver}: ${u.why}`);
  }
  for (const gate of report.gates) {
    const where = `${gate.feature}${gate.story ? `/${gate.story}` : ''} ${gate.gate}`;
    io.out(
      `  ${gate.drift.length ? '✗' : '·'} ${where}: ${gate.status}${gate.references?.length ? ` · records a reference, not a file (${gate.references.join(', ')})` : ''}`,
    );
    for (const d of gate.drift)
      io.out(
        `      ${d.artifact}: ${d.expected ? `expected ${d.expected.slice(0, 12)}…` : 'not in the approval'}, found ${d.actual ? `${d.actual.slice(0, 12)}…` : 'nothing (missing)'}`,
      );
  }
  if (report.strict?.length) {
    io.out(`\nStrict (${report.strict.length})`);
    for (const s of report.strict) io.out(`  ${s}`);
  }
  if (report.problems.length) {
    io.out(`\nProblems (${report.problems.length})`);
    for (const p of report.problems) io.out(`  ${p.file}${p.seq !== undefined ? ` #${p.seq}` : ''}: ${p.message}`);
  } else if (report.strict?.length)
    io.out('\nNo problems in the evidence, but --strict needs every record vouched for by a trusted key and every approval signed by its approver.');
  else io.out('\nNo problems: the evidence is intact.');
}
