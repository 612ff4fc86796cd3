/** `baton export <dir> -o review.baton [--attestations] [--sign]`: one file for offline review. */
import { resolve } from 'node:path';
import { exportProject, signProject } from '../../core/project-tools';
import { flag, JSON_OPTION, onePath, required, type Command } from '../command';
import { EXIT } from '../exit-codes';
import { printJson } from '../io';
import { failed, withProject } from '../open-project';

export const exportCommand: Command = {
  name: 'export',
  synopsis: 'export <dir> -o FILE [--attestations] [--sign] [--json]',
  summary: 'Write a review bundle: artifacts, ledger, blobs and a manifest with the chain head',
  options: {
    ...JSON_OPTION,
    output: { type: 'string', short: 'o' },
    attestations: { type: 'boolean', default: false },
    sign: { type: 'boolean', default: false },
  },
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    const out = resolve(required(values, 'output', this.synopsis));
    return withProject(onePath(positionals, this.synopsis), json, io, async (session) => {
      const result = await exportProject(session.workbench, { out, attestations: flag(values, 'attestations'), sign: flag(values, 'sign') });
      if (!result.ok) return failed(io, result.error, json);
      const r = result.value;
      if (json) printJson(io, { ok: true, ...r });
      else
        io.out(
          `Wrote ${r.file}: ${r.files} files, ${r.records} ledger records, head ${r.head?.slice(0, 12) ?? '(none)'}…, ${r.attestations} attestations, ${r.signed ? 'signed' : 'unsigned'}.\nReview it with \`baton verify ${r.file}\` or \`baton serve ${r.file}\`.`,
        );
      return EXIT.ok;
    });
  },
};

export const signCommand: Command = {
  name: 'sign',
  synopsis: 'sign <dir> [--json]',
  summary: "Sign the ledger's head with your local ed25519 key (kept in the config folder)",
  options: JSON_OPTION,
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    return withProject(onePath(positionals, this.synopsis), json, io, async (session) => {
      const result = await signProject(session.workbench);
      if (!result.ok) return failed(io, result.error, json);
      const signed = result.value;
      if (json) printJson(io, { ok: true, ...signed });
      else io.out(`Signed record #${signed.seq} (head ${signed.head.slice(0, 12)}…) with key ${signed.publicKey.slice(0, 24)}…`);
      return EXIT.ok;
    });
  },
};
