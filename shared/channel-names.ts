/**
 * The allow-list: every invoke channel and pushed event by name, with no dependencies, so the
 * sandboxed preload can carry it without the schemas. contract.ts must define exactly these
 * channels (a compile-time check there fails otherwise).
 */
export const CHANNEL_NAMES = [
  'app:info',
  'app:badge',
  'project:open',
  'project:current',
  'project:reload',
  'project:recent',
  'project:pick',
  'identity:default',
  'gates:evidence',
  'gates:approve',
  'gates:reject',
  'gates:withdraw',
  'gates:restore',
  'escalations:decide',
  'tells:allow',
  'amendments:propose',
  'amendments:decide',
  'features:new',
  'ledger:list',
  'ledger:blob',
  'ledger:verify',
  'metrics:get',
  'branches:status',
  'branches:list',
  'branches:create',
  'branches:delete',
  'branches:reset',
  'branches:diff',
  'branches:migrations',
  'branches:cancel',
  'run:start',
  'run:stop',
  'run:state',
  'agents:settings',
  'agents:save',
  'agents:check',
  'settings:project',
  'settings:check',
  'settings:save',
] as const;
export type Channel = (typeof CHANNEL_NAMES)[number];

export const EVENT_NAMES = ['project:changed', 'branches:progressed', 'run:progressed'] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export const isChannel = (name: unknown): name is Channel => typeof name === 'string' && (CHANNEL_NAMES as readonly string[]).includes(name);

export const isEventName = (name: unknown): name is EventName => typeof name === 'string' && (EVENT_NAMES as readonly string[]).includes(name);

/** The name under which the preload exposes the API on `window`. */
export const BRIDGE_KEY = 'baton';
