/** The project reader: turns a `.baton/`, `.consort/` or `.sftdd/` folder into a ProjectView. */
export { readProject } from './read-project';
export { detectLayout, type DetectedLayout } from './detect-layout';
export { MAX_ARTIFACT_BYTES } from './read-context';
export { inspectReport, formatInspect, type InspectReport } from './inspect';
