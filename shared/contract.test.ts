import { describe, expect, it } from 'vitest';
import { CHANNELS, channels, EVENTS, isChannel, isEventName } from './contract';

describe('the contract', () => {
  it('names every channel domain:verb and every event domain:happened', () => {
    for (const channel of CHANNELS) expect(channel).toMatch(/^[a-z]+:[a-z]+$/);
    for (const event of EVENTS) expect(event).toMatch(/^[a-z]+:[a-z]+ed$/);
  });

  it('recognises only its own channels, not inherited object keys', () => {
    expect(isChannel('project:open')).toBe(true);
    expect(isChannel('fs:read')).toBe(false);
    expect(isChannel('toString')).toBe(false);
    expect(isChannel('__proto__')).toBe(false);
    expect(isChannel(42)).toBe(false);
    expect(isEventName('project:changed')).toBe(true);
    expect(isEventName('project:open')).toBe(false);
  });

  it('validates project:open paths', () => {
    const schema = channels['project:open'].request;
    expect(schema.safeParse({ path: '/tmp/project' }).success).toBe(true);
    expect(schema.safeParse({ path: '' }).success).toBe(false);
    expect(schema.safeParse({ path: 'a\0b' }).success).toBe(false);
    expect(schema.safeParse({ path: '/x', extra: 1 }).success).toBe(false);
    expect(schema.safeParse({}).success).toBe(false);
  });

  it('refuses extra keys on the empty requests', () => {
    expect(channels['app:info'].request.safeParse({}).success).toBe(true);
    expect(channels['app:info'].request.safeParse({ sneaky: true }).success).toBe(false);
  });
});
