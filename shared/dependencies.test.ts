import { describe, expect, it } from 'vitest';
import { dependencyRequestsIn } from './dependencies';

describe('dependency request lines', () => {
  it('reads name, version or range, and --dev; a bare name means latest; one request per package', () => {
    const text = [
      'I will need two packages.',
      'BATON-DEPENDENCY: left-pad@^1.3.0',
      '  BATON-DEPENDENCY: @scope/tool@>=2 <3 --dev',
      'BATON-DEPENDENCY: zod',
      'BATON-DEPENDENCY: left-pad@2',
    ].join('\n');
    expect(dependencyRequestsIn(text)).toEqual({
      requests: [
        { name: 'left-pad', spec: '^1.3.0', dev: false },
        { name: 'zod', spec: 'latest', dev: false },
      ],
      refused: [{ line: 'BATON-DEPENDENCY: @scope/tool@>=2 <3 --dev', why: 'expected one package, as BATON-DEPENDENCY: name@^1.2.0 (optionally --dev)' }],
    });
    expect(dependencyRequestsIn('BATON-DEPENDENCY: @scope/tool@>=2 --dev').requests).toEqual([{ name: '@scope/tool', spec: '>=2', dev: true }]);
  });

  it('refuses URLs, paths, git, aliases and names npm would not accept', () => {
    const why = (line: string) => dependencyRequestsIn(`BATON-DEPENDENCY: ${line}`).refused[0]?.why;
    expect(why('x@https://evil.example/x.tgz')).toMatch(/not a version, range or tag/);
    expect(why('x@file:../x')).toMatch(/not a version, range or tag/);
    expect(why('x@github:me/x')).toMatch(/not a version, range or tag/);
    expect(why('x@npm:other@1')).toMatch(/not a version, range or tag/);
    expect(why('../x')).toMatch(/not a registry package name/);
    expect(why('Upper')).toMatch(/not a registry package name/);
  });

  it('only a line that starts with the marker counts: quoting it in a sentence asks for nothing', () => {
    expect(dependencyRequestsIn('To ask, write BATON-DEPENDENCY: left-pad@1 on a line.')).toEqual({ requests: [], refused: [] });
  });
});
