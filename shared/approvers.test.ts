import { describe, expect, it } from 'vitest';
import { allowedApprovers, approverRefusal, emailOf, policyProblems } from './approvers';

const POLICY = {
  gates: { acceptance: ['@po', 'Lead@Example.com'], deploy: ['ops@example.com'] },
  approverRoles: { po: ['ada@example.com', 'bob@example.com'] },
};

describe('the approver policy', () => {
  it('reads the email of "Name <email>" or a bare email, lower-cased; anything else has none', () => {
    expect(emailOf('Ada Lovelace <Ada@Example.com>')).toBe('ada@example.com');
    expect(emailOf(' ops@example.com ')).toBe('ops@example.com');
    expect(emailOf('Ada Lovelace')).toBeNull();
    expect(emailOf('<not an email>')).toBeNull();
  });

  it('expands roles; a gate it does not name can be decided by anyone', () => {
    expect(allowedApprovers(POLICY, 'acceptance')).toEqual(['ada@example.com', 'bob@example.com', 'lead@example.com']);
    expect(allowedApprovers(POLICY, 'spec')).toBeNull();
    expect(allowedApprovers(undefined, 'deploy')).toBeNull();
  });

  it('refuses whoever is not named, saying who may and where the policy is', () => {
    expect(approverRefusal(POLICY, 'acceptance', 'Bob <BOB@example.com>')).toBeNull();
    expect(approverRefusal(POLICY, 'spec', 'Eve <eve@example.com>')).toBeNull();
    expect(approverRefusal(POLICY, 'deploy', 'Ada Lovelace <ada@example.com>')).toBe(
      'Only ops@example.com may decide the deploy gate (gates.deploy in .baton/project.json); Ada Lovelace <ada@example.com> is not among them. Decide as one of them, or change the policy in project.json.',
    );
    expect(approverRefusal(POLICY, 'deploy', 'Ops')).toContain('"Ops" names no email to check');
  });

  it('names every problem: an undefined role, an entry that is neither email nor role', () => {
    expect(policyProblems(POLICY)).toEqual([]);
    expect(policyProblems({ gates: { spec: ['@pm', 'Ada'] }, approverRoles: { po: ['nobody'] } })).toEqual([
      'gates.spec names the role @pm, which approverRoles does not define',
      'gates.spec: "Ada" is neither an email nor a @role',
      'approverRoles.po: "nobody" is not an email',
    ]);
  });
});
