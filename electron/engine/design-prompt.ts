/** The design roles' prompt: resources/prompts/designer.md filled in for one role's turn. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DesignRole } from '../../shared/design-artifacts';
import { packageRoot } from '../platform/package-root';

const TEMPLATE = join(packageRoot(import.meta.url), 'resources', 'prompts', 'designer.md');

const TASK: Readonly<Record<DesignRole, string>> = {
  specAuthor:
    'Turn the request into the feature spec: a name and description, whether it has a user interface, and the stories — each with "As a / I want / so that", whether it is independent (and which stories it depends on if not, with the note why) and its acceptance criteria as Given / When / Then. Every criterion must be testable and different from the others.',
  architectReviewer:
    'Review the approved spec and give the architecture: the layers and what each is responsible for, the non-functional requirements each with a fitness check that can run as a test, the persistence invariants the database must keep (each with an id), and your decisions.',
  dba: 'Design the database for the persistence invariants: the tables with their columns, types and constraints (each invariant enforced by a constraint where Postgres can), and the migrations you plan, in order.',
  uxDesigner:
    'Design the screens this feature needs and, for each, the states it must show (empty, loading, error, success and any other), saying what each state shows.',
  testStrategist:
    'Write the ordered test list: every acceptance criterion covered by at least one item, every persistence invariant tested by an item naming it in invariant_id, at least one fitness item for the non-functional requirements; each item with its story, its acceptance criterion (ac_id) and its kind (behavior, fitness or client). Order the items so each can be built on the ones before.',
};

export interface DesignPromptInput {
  readonly role: DesignRole;
  readonly roleName: string;
  readonly request: string;
  readonly attachments: readonly string[];
  /** The feature's current files by path. */
  readonly current: Readonly<Record<string, string>>;
  readonly feedback: string | null;
  readonly problems: readonly string[];
  readonly schema: string;
}

const block = (heading: string, body: string | null): string => (body && body.trim() ? `## ${heading}\n${body.trimEnd()}` : '');

export function designPrompt(input: DesignPromptInput): string {
  const template = readFileSync(TEMPLATE, 'utf8');
  const files = Object.entries(input.current).map(([name, text]) => `### ${name}\n\`\`\`json\n${text.trimEnd()}\n\`\`\``);
  const values: Record<string, string> = {
    role: input.roleName,
    instructions: block('Your task', TASK[input.role]),
    request: block('The request', input.request),
    attachments: block('Attachments (in attachments/)', input.attachments.map((a) => `- ${a}`).join('\n')),
    artifacts: block('The feature as it stands (also under feature/)', files.join('\n\n')),
    feedback: block("The Product Owner's note (they sent this back: address it)", input.feedback),
    problems: block('Why your last artifact was refused (fix every point)', input.problems.map((p) => `- ${p}`).join('\n')),
    schema: input.schema,
  };
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '').replace(/\n{3,}/g, '\n\n');
}
