/** `baton export <dir> -o review.baton [--attestations] [--sign]`: one file for offline review. */
import { resolve } from 'node:path';
import { projectTools } from '../core';
import { flag, JSON_OPTION, onePath, required, text, type Command } from '../command';
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
      const result = await (
        await projectTools()
      ).exportProject(session.workbench, { out, attestations: flag(values, 'attestations'), sign: flag(values, 'sign') });
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
  synopsis: 'sign <dir> [--rotate] [--json]',
  summary:
    "Append a signed checkpoint of the ledger's head, with your local ed25519 key (kept in the config folder); --rotate retires that key and signs with a new one",
  options: { ...JSON_OPTION, rotate: { type: 'boolean', default: false } },
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    return withProject(onePath(positionals, this.synopsis), json, io, async (session) => {
      const result = await (await projectTools()).signProject(session.workbench, { rotate: flag(values, 'rotate') });
      if (!result.ok) return failed(io, result.error, json);
      const signed = result.value;
      if (json) printJson(io, { ok: true, ...signed });
      else {
        if (signed.retired) io.out(`Retired key ${signed.retired} (kept: the checkpoints it signed still verify, and still count for you).`);
        io.out(`Checkpoint: record #${signed.seq} (head ${signed.head.slice(0, 12)}…) signed at ${signed.time} with key ${signed.publicKey}`);
        if (!signed.trustedByProject)
          io.out(
            `This key is not in the project's trustedKeys, so other people's \`baton verify\` calls it untrusted. To vouch for it, add "${signed.publicKey}" to "trustedKeys" in .baton/project.json and commit it${signed.retired ? `; remove ${signed.retired.slice(0, 16)}… once its checkpoints should no longer count` : ''}.`,
          );
      }
      return EXIT.ok;
    });
  },
};

export const keyCommand: Command = {
  name: 'key',
  synopsis: 'key <dir> [--approver "Name <email>"] [--json]',
  summary:
    'Set up signed decisions: make your ed25519 key (kept in the config folder) if you have none, and list it under approverKeys for your email in .baton/project.json; from then on decisions as that email must be signed with it, and `baton verify` proves who made them',
  options: { ...JSON_OPTION, approver: { type: 'string' } },
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    return withProject(onePath(positionals, this.synopsis), json, io, async (session) => {
      const identity = await session.call('identity:default', {});
      const approver = text(values, 'approver') ?? (identity.ok ? identity.value.approver : null);
      if (!approver)
        return failed(
          io,
          { code: 'no-identity', message: 'Say whose key this is: --approver "Ada Lovelace <ada@example.com>" (or set git\'s user.name and user.email).' },
          json,
        );
      const result = await (await projectTools()).listApproverKey(session.workbench, approver);
      if (!result.ok) return failed(io, result.error, json);
      const k = result.value;
      if (json) printJson(io, { ok: true, ...k });
      else {
        io.out(`${k.created ? 'Made your signing key' : 'Your signing key'}: ${k.key}`);
        io.out(
          k.added
            ? `Listed it for ${k.email} under approverKeys in ${k.file}. Commit that file: from now on decisions as ${k.email} must be signed with this key, and \`baton verify\` proves they were.`
            : `approverKeys in ${k.file} already lists it for ${k.email}: nothing changed.`,
        );
      }
      return EXIT.ok;
    });
  },
};
