/**
 * Reproducible load for the branch benchmark (issue 17): `cpu` runs N child processes that spin
 * (each keeps a core busy), `sql` runs N sessions writing and deleting rows in a scratch database
 * of their own on the postgres server (WAL, dirty buffers, fsyncs: what makes checkpoints and
 * commits slow). Started before the measurements, stopped after them; everything is removed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import pg from 'pg';

export type LoadKind = 'cpu' | 'sql';

export interface LoadSpec {
  readonly workers: number;
  readonly kind: LoadKind;
}

export interface LoadReport extends LoadSpec {
  /** The 1-minute load average when the measurements started and when they ended (`uptime`). */
  readonly loadAverage: { readonly before: number; readonly after: number };
  /** sql: write transactions the workers committed while the measurements ran. */
  readonly transactions?: number;
}

export interface RunningLoad {
  stop(): Promise<LoadReport>;
}

const SPIN = 'for (;;) { Math.sqrt(Math.random()); }';

/** Starts `spec.workers` workers (none when 0). `adminUrl` is needed for `sql`; `name` is the scratch database it makes. */
export async function startLoad(spec: LoadSpec, adminUrl: string | undefined, name: string): Promise<RunningLoad> {
  const before = loadavg()[0]!;
  const report = (extra: Partial<LoadReport> = {}): LoadReport => ({ ...spec, loadAverage: { before: round(before), after: round(loadavg()[0]!) }, ...extra });
  if (spec.workers <= 0) return { stop: async () => report() };
  if (spec.kind === 'cpu') {
    const children: ChildProcess[] = [];
    for (let i = 0; i < spec.workers; i++) {
      const child = spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
      child.on('error', () => undefined);
      children.push(child);
    }
    return {
      stop: async () => {
        const done = report();
        await Promise.all(children.map(async (child) => (child.exitCode === null && child.kill('SIGKILL') ? once(child, 'exit') : undefined)));
        return done;
      },
    };
  }
  if (!adminUrl) throw new Error('The sql load needs the postgres admin URL.');
  return startSqlLoad(spec, adminUrl, name, report);
}

async function startSqlLoad(spec: LoadSpec, adminUrl: string, name: string, report: (extra?: Partial<LoadReport>) => LoadReport): Promise<RunningLoad> {
  const db = pg.escapeIdentifier(name);
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${db}`));
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  const clients = Array.from({ length: spec.workers }, () => new pg.Client({ connectionString: url.toString(), application_name: 'baton-bench-load' }));
  for (const client of clients) client.on('error', () => undefined);
  let stopping = false;
  let transactions = 0;
  const loops = clients.map(async (client, worker) => {
    await client.connect();
    if (worker === 0) await client.query('create table if not exists load_rows (id bigint, worker int, payload text)');
    else await new Promise((resolve) => setTimeout(resolve, 200));
    for (let i = 0; !stopping; i++) {
      await client.query(
        `begin; delete from load_rows where worker = ${worker}; insert into load_rows select g, ${worker}, repeat(md5(g::text), 8) from generate_series(1, 2000) g; ` +
          `update load_rows set payload = md5(payload) where worker = ${worker} and id % 7 = ${i % 7}; commit`,
      );
      transactions += 1;
    }
  });
  const running = Promise.allSettled(loops);
  return {
    stop: async () => {
      stopping = true;
      const done = report();
      await running;
      await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
      await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`)).catch(() => undefined);
      return { ...done, transactions };
    },
  };
}

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const round = (value: number): number => Number(value.toFixed(2));
