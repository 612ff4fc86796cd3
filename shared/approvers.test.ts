import { describe, expect, it } from 'vitest';
import { allowedApprovers, approverProof, approverRefusal, emailOf, keyRefusal, keysOf, policyProblems, proofWords } from './approvers';

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

const ADA_KEY = 'A'.repeat(43);
const OTHER_KEY = 'B'.repeat(43);
const KEYED = { ...POLICY, approverKeys: { 'Ada@Example.com': [ADA_KEY] } };

describe('approvers who are who they say', () => {
  it('finds a person’s keys by email, whatever the case; none when the policy lists none', () => {
    expect(keysOf(KEYED, 'Ada Lovelace <ada@example.com>')).toEqual([ADA_KEY]);
    expect(keysOf(KEYED, 'Bob <bob@example.com>')).toBeNull();
    expect(keysOf(POLICY, 'Ada Lovelace <ada@example.com>')).toBeNull();
    expect(keysOf(KEYED, 'Ada')).toBeNull();
  });

  it('refuses a decision as a keyed person unless it is signed with one of their keys', () => {
    expect(keyRefusal(KEYED, 'Ada <ada@example.com>', ADA_KEY)).toBeNull();
    expect(keyRefusal(KEYED, 'Bob <bob@example.com>', null)).toBeNull();
    expect(keyRefusal(KEYED, 'Ada <ada@example.com>', null)).toContain('this machine has no signing key');
    expect(keyRefusal(KEYED, 'Ada <ada@example.com>', OTHER_KEY)).toContain(`this machine's key is ${OTHER_KEY.slice(0, 12)}…`);
  });

  it('judges a recorded approval: signed, typed (no policy) or unauthenticated (with why)', () => {
    const valid = { key: ADA_KEY, valid: true };
    expect(approverProof(undefined, 'spec', 'Ada <ada@example.com>', null)).toEqual({ state: 'typed' });
    // Signed, but no policy ties the key to Ada: it proves which machine, not who: typed.
    expect(approverProof(undefined, 'spec', 'Ada <ada@example.com>', valid)).toEqual({ state: 'typed', key: ADA_KEY });
    expect(proofWords(approverProof(undefined, 'spec', 'Ada <ada@example.com>', valid))).toBe('typed; signed by a key not listed for them');
    expect(proofWords(approverProof(undefined, 'spec', 'Ada <ada@example.com>', null))).toBe('typed, not signed');
    expect(approverProof(KEYED, 'spec', 'Ada <ada@example.com>', valid)).toEqual({ state: 'signed', key: ADA_KEY });
    // A gate the policy names, or a person it lists keys for, needs a signature.
    expect(approverProof(POLICY, 'acceptance', 'Bob <bob@example.com>', null).why).toContain('it is not signed');
    expect(approverProof(KEYED, 'spec', 'Ada <ada@example.com>', null).state).toBe('unauthenticated');
    expect(approverProof(KEYED, 'spec', 'Ada <ada@example.com>', { key: OTHER_KEY, valid: true }).why).toContain(
      'which approverKeys in .baton/project.json does not list for ada@example.com',
    );
    expect(approverProof(POLICY, 'acceptance', 'Bob <bob@example.com>', { key: OTHER_KEY, valid: true }).why).toContain('lists no key for bob@example.com');
    // A signature that fails is never proof, with or without a policy.
    expect(approverProof(undefined, 'spec', 'Ada <ada@example.com>', { key: ADA_KEY, valid: false }).why).toContain('does not verify');
  });

  it('names a key that is not a key and an email that is not an email', () => {
    expect(policyProblems(KEYED)).toEqual([]);
    expect(policyProblems({ approverKeys: { ada: ['short'] } })).toEqual([
      'approverKeys: "ada" is not an email',
      'approverKeys["ada"]: "short" is not a public key (43 base64url characters, as `baton key` prints it)',
    ]);
  });
});
