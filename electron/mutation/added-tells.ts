/**
 * The tells in the tests a strengthening round added (issue 30). A test that reads the code it
 * tests as text, or that can tell a mutant's run from the GREEN run (where it runs from, its
 * process, its environment), kills every mutant while testing nothing: such a file is refused,
 * never run and never kept (the item stays weak; the PO decides at the acceptance gate). What a
 * test file does by being one (loading the runner, its globals, a helper beside it) is not held
 * against it. Pure.
 */
import { tellsIn, type Tell } from '../agents/test-detection';
import { WHY } from '../agents/tell-names';

const OF_A_TEST: ReadonlySet<string> = new Set([WHY.runnerModule, WHY.runnerGlobal, WHY.testFiles]);

export interface AddedTells {
  /** The files with no tell, in the order given. */
  readonly accepted: Map<string, string>;
  /** Every tell of the refused files, by file and line. */
  readonly refused: readonly Tell[];
}

/** Splits the added test files (path → content) into those that may run and the tells that refuse the others. */
export function judgeAddedTests(files: ReadonlyMap<string, string>): AddedTells {
  const refused = [...files].flatMap(([path, content]) => tellsIn(path, null, content)).filter((t) => !OF_A_TEST.has(t.why));
  const out = new Set(refused.map((t) => t.file));
  return { accepted: new Map([...files].filter(([path]) => !out.has(path))), refused };
}

/** "refused test/a.test.js:4 (reads source code at run time), …": what a round says of the files it refused. */
export const refusedLine = (refused: readonly Tell[]): string => `refused ${refused.map((t) => `${t.file}:${t.line} (${t.why})`).join(', ')}`;
