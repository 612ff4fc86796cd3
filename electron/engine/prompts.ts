/**
 * The instructions each role's turn receives: its context pack rendered into
 * `resources/prompts/<role>.md`. Scripted agents ignore them; real agent CLIs read them on stdin.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContextPack } from '../agents/agent-port';
import { packageRoot } from '../platform/package-root';

const PROMPTS = join(packageRoot(import.meta.url), 'resources', 'prompts');

const STEP: Record<string, string> = {
  'navigator:red':
    'Write the smallest failing test for test-list item {item}. Write only test files. Do not write production code. The test must fail because the behaviour is missing, not because of a syntax or import error.',
  'driver:green': 'Make the locked tests for {item} pass with the smallest change to source and migrations. Tests are locked: changing them is a violation.',
  'driver:refactor': 'Improve the structure of the code for {item} without changing behaviour. Tests are locked and must stay green.',
  'navigator:review': 'Review the diff of the cycle for {item}: accept, ask for one more refactor, or flag a smell.',
  'navigator:strengthen':
    'The tests of {item} let the mutants below through: they still pass when the code is changed that way. Add test files (never change a locked one) whose tests pass on the current code and fail on each of these mutants by what the code does: a test that reads source files as text, or tells a mutant’s run apart, is refused.',
};

const templates = new Map<string, string>();
function template(role: string): string {
  let text = templates.get(role);
  if (text === undefined) {
    try {
      text = readFileSync(join(PROMPTS, `${role}.md`), 'utf8');
    } catch {
      text = '{{instructions}}\n\n{{item}}\n\n{{acceptance}}\n\n{{scope}}\n\n{{failure}}\n\n{{guidance}}\n\n{{diff}}\n\n{{review}}\n';
    }
    templates.set(role, text);
  }
  return text;
}

const block = (heading: string, body: string | null | undefined): string => (body && body.trim() ? `## ${heading}\n${body.trimEnd()}` : '');
const list = (items: readonly string[]): string => items.map((i) => `- ${i}`).join('\n');
const asJson = (value: unknown): string | null => (value === null || value === undefined ? null : `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``);

/** The sections of a prompt, each empty when the pack has nothing for it. */
export function sections(pack: ContextPack, instructions: string): Record<string, string> {
  const { item, story, acceptanceCriterion: ac } = pack;
  return {
    instructions: block('Your task', instructions),
    feature: block('Feature', `${pack.feature.id} ${pack.feature.name}\n${pack.feature.description}`),
    story: block('Story', story ? `${story.id} ${story.title}\nAs ${story.asA}, I want ${story.iWant}, so that ${story.soThat}.` : null),
    item: block('Test-list item', item ? `${item.id}${item.kind ? ` (${item.kind})` : ''}: ${item.description}` : null),
    acceptance: block('Acceptance criterion', ac ? `${ac.id} ${ac.title}\nGiven ${ac.given}\nWhen ${ac.when}\nThen ${ac.then}` : null),
    architecture: block('Architecture', asJson(pack.architecture)),
    database: block('Database design', asJson(pack.databaseDesign)),
    scope: block(
      'What you may change',
      pack.mayWrite.length
        ? `You may write only: ${pack.mayWrite.join(', ')}.${pack.readOnly.length ? `\nLocked (read, never change):\n${list(pack.readOnly)}` : ''}`
        : 'Nothing: this turn writes no file.',
    ),
    tests: block(
      'Tests',
      pack.testCommand
        ? `The tests run with \`${pack.testCommand}\`${pack.migrations ? ` on a database with the migrations in ${pack.migrations}/ applied (DATABASE_URL)` : ''}.`
        : null,
    ),
    failure: block(
      'The last run failed',
      pack.failure ? `${pack.failure.failingTests.length ? `Failing tests:\n${list(pack.failure.failingTests)}\n\n` : ''}${pack.failure.output}` : null,
    ),
    guidance: block(
      'A person asked for another try',
      pack.guidance ? `This is round ${pack.round} of ${item?.id ?? 'this item'}. Their note:\n${pack.guidance}` : null,
    ),
    diff: block('The diff of the cycle', pack.diff ? `\`\`\`diff\n${pack.diff}\n\`\`\`` : null),
    review:
      pack.step === 'review'
        ? block(
            'Your verdict',
            'End with one line: `BATON-REVIEW: accept`, `BATON-REVIEW: refactor <what to improve>` or `BATON-REVIEW: smell <what is wrong>`.\n' +
              "If one of this item's locked tests is itself wrong (it contradicts its acceptance criterion), propose an amendment: write the corrected test over the locked file and add a line `BATON-AMEND: <path> <why>`. A person decides; approved, the item runs RED and GREEN again against it. Your files are reverted either way.",
          )
        : '',
  };
}

/** The prompt for a turn: the role's template with its sections filled in. */
export function promptFor(pack: ContextPack, extra = ''): string {
  const instructions = `${(STEP[`${pack.role}:${pack.step}`] ?? `Do your part for {item} (${pack.step}).`).replace('{item}', pack.item?.id ?? 'the feature')}${extra}`;
  const filled = sections(pack, instructions);
  return `${template(pack.role)
    .replace(/\{\{(\w+)\}\}/g, (_m, name: string) => filled[name] ?? '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
