/**
 * `baton feature new <dir> --title T --request FILE|-`: intake from a terminal, through the
 * `features:new` channel the workbench's "New feature" uses, so it is refused in the same words.
 * The request is one paragraph (a file, or `-` for stdin); `--attach FILE` adds a product overview,
 * constraints or design notes as text attachments.
 */
import { basename } from 'node:path';
import { flag, given, JSON_OPTION, list, text, type Command } from '../command';
import { EXIT, UsageError } from '../exit-codes';
import { printJson } from '../io';
import { failed, withProject } from '../open-project';
import { readInputFile } from '../read-input';

const SYNOPSIS = 'feature new <dir> --title TEXT --request FILE|- [--attach FILE ...] [--id F] [--approver "Name <email>"] [--json]';

/** Read at most: the request is one paragraph (8000 characters, up to 4 bytes each); an attachment 1 MB, as intake takes them. */
const MAX_REQUEST_BYTES = 32_000;
const MAX_ATTACHMENT_BYTES = 1_000_000;

export const featureCommand: Command = {
  name: 'feature',
  synopsis: SYNOPSIS,
  summary: 'Start a feature from a one-paragraph request (intake); the design roles take it from there on `baton run`',
  options: {
    ...JSON_OPTION,
    title: { type: 'string' },
    request: { type: 'string' },
    attach: { type: 'string', multiple: true },
    id: { type: 'string' },
    approver: { type: 'string' },
  },
  async run(positionals, values, io) {
    const [sub, dir, ...extra] = positionals;
    if (sub !== 'new' || !dir || extra.length > 0) throw new UsageError(`feature takes one subcommand and one folder: baton ${SYNOPSIS}`);
    const json = flag(values, 'json');
    const title = given(values, 'title', SYNOPSIS);
    const request = await readInputFile(given(values, 'request', SYNOPSIS), 'the request', MAX_REQUEST_BYTES);
    const attachments = await Promise.all(
      list(values, 'attach').map(async (file) => ({ name: basename(file), text: await readInputFile(file, 'the attachment', MAX_ATTACHMENT_BYTES) })),
    );
    const id = text(values, 'id');
    return withProject(dir, json, io, async (session) => {
      const named = text(values, 'approver');
      const identity = named ?? (await session.call('identity:default', {}).then((r) => (r.ok ? r.value.approver : null))) ?? '';
      const result = await session.call('features:new', { title, request, attachments, ...(id !== undefined ? { id } : {}), approver: identity });
      if (!result.ok) return failed(io, result.error, json);
      if (json) printJson(io, { ok: true, feature: result.value.feature, record: result.value.record });
      else {
        io.out(
          `Feature ${result.value.feature} created from the request (ledger record #${result.value.record.seq}, ${result.value.record.hash.slice(0, 12)}…).`,
        );
        io.out(`Next: \`baton run ${dir} --feature ${result.value.feature}\` — the Spec Author writes the spec, then the spec gate waits for you.`);
      }
      return EXIT.ok;
    });
  },
};
