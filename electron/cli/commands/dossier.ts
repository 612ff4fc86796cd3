/**
 * `baton dossier <dir|bundle> [--feature F] [--out FILE] [--force] [--json]`: the story dossier
 * (shared/dossier.ts), story → item → cycle in words, as ONE self-contained HTML page a reviewer
 * opens offline. Read-only on the project; it writes only the page, and never over a file already
 * there unless --force. Like `baton metrics`, a chain that does not verify still gets its page (the
 * page says so) and the exit code is 1.
 */
import { resolve } from 'node:path';
import { flag, onePath, text, type Command } from '../command';
import { dossiers } from '../core';
import { EXIT } from '../exit-codes';
import { printJson } from '../io';
import { failed, withProject } from '../open-project';
import { featuresAndLedger } from '../whole-ledger';

export const DEFAULT_DOSSIER = 'dossier.html';

export const dossierCommand: Command = {
  name: 'dossier',
  synopsis: 'dossier <dir|bundle> [--feature F] [--out FILE] [--force] [--json]',
  summary: `The story dossier: each story's items and cycles as a timeline in words (who did what, verdicts and their test runs, repairs, violations, decisions, cost), one self-contained HTML page for offline review (default ./${DEFAULT_DOSSIER}; --force replaces an existing file)`,
  options: {
    json: { type: 'boolean', default: false },
    feature: { type: 'string' },
    out: { type: 'string', short: 'o' },
    force: { type: 'boolean', default: false },
  },
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    const feature = text(values, 'feature');
    const out = resolve(text(values, 'out') ?? DEFAULT_DOSSIER);
    const root = onePath(positionals, this.synopsis);
    return withProject(root, json, io, async (session, view) => {
      const read = await featuresAndLedger(session, view, feature, root);
      if (!read.ok) return failed(io, read.error, json);
      const { features, ledger } = read.value;
      const { records, head, chain } = ledger;
      const tools = await dossiers();
      const html = tools.dossierPage(view.name, records, features, { generatedAt: new Date().toISOString(), head, records: records.length, chain });
      const written = await tools.writeDossier(out, html, flag(values, 'force'));
      if (!written.ok) return failed(io, written.error, json);
      const { file, bytes } = written.value;
      const stories = features.reduce((n, f) => n + f.stories.length, 0);
      const items = features.reduce((n, f) => n + f.testList.length, 0);
      if (json) printJson(io, { ok: true, file, bytes, features: features.length, stories, items, records: records.length, chain });
      else
        io.out(
          `Wrote ${file}: ${features.length} features, ${stories} stories, ${items} items from ${records.length} ledger records. Open it in any browser; it needs no network.`,
        );
      if (!chain.ok)
        io.err(
          `baton: the ledger's chain is broken at record #${chain.brokenAt}: the dossier says so, and may rest on altered records. Run \`baton verify\` for details.`,
        );
      return chain.ok ? EXIT.ok : EXIT.problems;
    });
  },
};
