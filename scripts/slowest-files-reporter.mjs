// A vitest reporter that writes each test file's duration (its hooks included: a beforeAll that
// builds a whole feature counts) to test-results/unit-files.json, for `npm test` to print the ten
// slowest files at the end (scripts/test.mjs).
import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class SlowestFilesReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules) {
    const files = testModules.map((m) => ({
      file: relative(this.root, m.moduleId),
      ms: Math.round(m.diagnostic().duration),
      tests: [...m.children.allTests()].length,
    }));
    mkdirSync('test-results', { recursive: true });
    writeFileSync(
      'test-results/unit-files.json',
      `${JSON.stringify(
        files.sort((a, b) => b.ms - a.ms),
        null,
        1,
      )}\n`,
    );
  }
}
