/**
 * The readable source of resources/demo/.baton/scenario.json: every file version the scripted
 * Navigator and Driver write, as template strings, and the turns that write them. The JSON is
 * what Baton reads; demo-scenario.test.ts checks that it matches this file. After an edit here:
 *
 *   npx tsx electron/demo/scenario-source.ts resources/demo/.baton/scenario.json
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Scenario, ScriptedTurn } from '../agents/scenario';

const HEADER = `/**
 * The inventory service. Every function takes a pg Pool (anything with query() and connect())
 * as its first argument, so the caller decides which database it talks to.
 */
`;

// ---------- tests ----------
const productsHead = `import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPool } from '../src/db.js';
// A namespace import: a function that does not exist yet fails its test, not the whole file.
import * as inventory from '../src/inventory.js';

const pool = createPool({ max: 1 });

describe('products', () => {
  after(() => pool.end());
`;
const t1 = `
  it('T1 adds a product and reads it back', async () => {
    await inventory.addProduct(pool, { sku: 'T1-MUG', name: 'Enamel mug', qty: 12 });
    assert.deepEqual(await inventory.getProduct(pool, 'T1-MUG'), { sku: 'T1-MUG', name: 'Enamel mug', qty: 12 });
    assert.equal(await inventory.getProduct(pool, 'T1-NOPE'), null);
  });
`;
const t2 = `
  it('T2 refuses a second product with the same SKU', async () => {
    await inventory.addProduct(pool, { sku: 'T2-LAMP', name: 'Desk lamp', qty: 3 });
    await assert.rejects(inventory.addProduct(pool, { sku: 'T2-LAMP', name: 'Another lamp', qty: 9 }), { name: 'DuplicateSkuError', sku: 'T2-LAMP' });
    assert.deepEqual(await inventory.getProduct(pool, 'T2-LAMP'), { sku: 'T2-LAMP', name: 'Desk lamp', qty: 3 });
  });
`;
const t3 = `
  it('T3 receiving stock adds to the quantity on hand', async () => {
    await inventory.addProduct(pool, { sku: 'T3-KETTLE', name: 'Kettle', qty: 3 });
    assert.equal(await inventory.receiveStock(pool, 'T3-KETTLE', 5), 8);
    assert.equal((await inventory.getProduct(pool, 'T3-KETTLE')).qty, 8);
  });
`;
// Attempt 1: the CHECK constraint of 001_products.sql already refuses this, so it passes at once.
const t4a = `
  it('T4 stock on hand never goes below zero', async () => {
    await inventory.addProduct(pool, { sku: 'T4-TRAY', name: 'Tray', qty: 2 });
    await assert.rejects(inventory.receiveStock(pool, 'T4-TRAY', -5));
    assert.equal((await inventory.getProduct(pool, 'T4-TRAY')).qty, 2);
  });
`;
const t4b = `
  it('T4 refuses to receive zero, negative or fractional quantities', async () => {
    await inventory.addProduct(pool, { sku: 'T4-TRAY', name: 'Tray', qty: 2 });
    for (const qty of [0, -5, 1.5]) {
      await assert.rejects(inventory.receiveStock(pool, 'T4-TRAY', qty), { name: 'InvalidQuantityError', qty });
    }
    assert.equal((await inventory.getProduct(pool, 'T4-TRAY')).qty, 2);
  });
`;
const products = (...cases: string[]) => `${productsHead}${cases.join('')}});
`;

const reservationsHead = `import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPool } from '../src/db.js';
import * as inventory from '../src/inventory.js';

const pool = createPool({ max: 1 });
const qtyOf = async (sku) => (await inventory.getProduct(pool, sku)).qty;

describe('reservations', () => {
  after(() => pool.end());
`;
const t5 = `
  it('T5 reserving an order takes every line off the shelf', async () => {
    await inventory.addProduct(pool, { sku: 'T5-CUP', name: 'Cup', qty: 10 });
    await inventory.addProduct(pool, { sku: 'T5-SAUCER', name: 'Saucer', qty: 4 });
    await inventory.reserveStock(pool, [
      { sku: 'T5-CUP', qty: 6 },
      { sku: 'T5-SAUCER', qty: 4 },
    ]);
    assert.equal(await qtyOf('T5-CUP'), 4);
    assert.equal(await qtyOf('T5-SAUCER'), 0);
  });
`;
const t6 = `
  it('T6 an order that cannot be filled reserves nothing at all', async () => {
    await inventory.addProduct(pool, { sku: 'T6-BOWL', name: 'Bowl', qty: 5 });
    await inventory.addProduct(pool, { sku: 'T6-PLATE', name: 'Plate', qty: 1 });
    await assert.rejects(
      inventory.reserveStock(pool, [
        { sku: 'T6-BOWL', qty: 2 },
        { sku: 'T6-PLATE', qty: 3 },
      ]),
      { name: 'InsufficientStockError', sku: 'T6-PLATE', requested: 3, available: 1 },
    );
    assert.equal(await qtyOf('T6-BOWL'), 5, 'the bowls must not stay reserved when the plates are short');
    assert.equal(await qtyOf('T6-PLATE'), 1);
  });
`;
const reservations = (...cases: string[]) => `${reservationsHead}${cases.join('')}});
`;

const reportsHead = `import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPool } from '../src/db.js';
import * as inventory from '../src/inventory.js';

const pool = createPool({ max: 1 });
// Other test files add products too: each test looks only at its own SKUs.
const lowStock = async (prefix) => (await inventory.lowStockReport(pool)).filter((row) => row.sku.startsWith(prefix));

describe('reports', () => {
  after(() => pool.end());
`;
const t7 = `
  it('T7 the low-stock report lists products at or below their reorder level', async () => {
    await inventory.addProduct(pool, { sku: 'T7-FILTER', name: 'Coffee filter', qty: 2, reorderLevel: 5 });
    await inventory.addProduct(pool, { sku: 'T7-GRINDER', name: 'Grinder', qty: 5, reorderLevel: 5 });
    await inventory.addProduct(pool, { sku: 'T7-SCALE', name: 'Scale', qty: 9, reorderLevel: 5 });
    assert.deepEqual(await lowStock('T7-'), [
      { sku: 'T7-FILTER', name: 'Coffee filter', qty: 2, reorderLevel: 5, shortfall: 3 },
      { sku: 'T7-GRINDER', name: 'Grinder', qty: 5, reorderLevel: 5, shortfall: 0 },
    ]);
  });
`;
const t8 = `
  it('T8 the low-stock report puts the largest shortfall first', async () => {
    await inventory.addProduct(pool, { sku: 'T8-APRON', name: 'Apron', qty: 4, reorderLevel: 5 });
    await inventory.addProduct(pool, { sku: 'T8-BRUSH', name: 'Brush', qty: 0, reorderLevel: 6 });
    await inventory.addProduct(pool, { sku: 'T8-CLOTH', name: 'Cloth', qty: 1, reorderLevel: 4 });
    const skus = (await lowStock('T8-')).map((row) => row.sku);
    assert.deepEqual(skus, ['T8-BRUSH', 'T8-CLOTH', 'T8-APRON']);
  });
`;
// The Driver's "fix" of T8: it only checks which products are listed, not their order.
const t8weak = `
  it('T8 the low-stock report puts the largest shortfall first', async () => {
    await inventory.addProduct(pool, { sku: 'T8-APRON', name: 'Apron', qty: 4, reorderLevel: 5 });
    await inventory.addProduct(pool, { sku: 'T8-BRUSH', name: 'Brush', qty: 0, reorderLevel: 6 });
    await inventory.addProduct(pool, { sku: 'T8-CLOTH', name: 'Cloth', qty: 1, reorderLevel: 4 });
    const skus = (await lowStock('T8-')).map((row) => row.sku);
    assert.deepEqual([...skus].sort(), ['T8-APRON', 'T8-BRUSH', 'T8-CLOTH']);
  });
`;
const reports = (...cases: string[]) => `${reportsHead}${cases.join('')}});
`;

// ---------- source ----------
const inv: Record<string, string> = {};
inv.t1green = `${HEADER}
export async function addProduct(db, { sku, name, qty = 0 }) {
  await db.query('INSERT INTO products (sku, name, qty) VALUES ($1, $2, $3)', [sku, name, qty]);
}

export async function getProduct(db, sku) {
  const result = await db.query('SELECT sku, name, qty FROM products WHERE sku = $1', [sku]);
  if (result.rows.length === 0) return null;
  const row = result.rows[0];
  return { sku: row.sku, name: row.name, qty: row.qty };
}
`;
const mapping = `
/** The columns every product query selects, and how a row becomes a product. */
const PRODUCT = 'sku, name, qty';
const toProduct = (row) => (row ? { sku: row.sku, name: row.name, qty: row.qty } : null);
`;
inv.t1refactor = `${HEADER}${mapping}
export async function addProduct(db, { sku, name, qty = 0 }) {
  const { rows } = await db.query(\`INSERT INTO products (sku, name, qty) VALUES ($1, $2, $3) RETURNING \${PRODUCT}\`, [sku, name, qty]);
  return toProduct(rows[0]);
}

export async function getProduct(db, sku) {
  const { rows } = await db.query(\`SELECT \${PRODUCT} FROM products WHERE sku = $1\`, [sku]);
  return toProduct(rows[0]);
}
`;
inv.t2green = `${HEADER}
export class DuplicateSkuError extends Error {
  constructor(sku) {
    super(\`A product with SKU \${sku} already exists.\`);
    this.name = 'DuplicateSkuError';
    this.sku = sku;
  }
}
${mapping}
export async function addProduct(db, { sku, name, qty = 0 }) {
  try {
    const { rows } = await db.query(\`INSERT INTO products (sku, name, qty) VALUES ($1, $2, $3) RETURNING \${PRODUCT}\`, [sku, name, qty]);
    return toProduct(rows[0]);
  } catch (error) {
    // 23505: unique_violation, here the primary key on sku.
    if (error.code === '23505') throw new DuplicateSkuError(sku);
    throw error;
  }
}

export async function getProduct(db, sku) {
  const { rows } = await db.query(\`SELECT \${PRODUCT} FROM products WHERE sku = $1\`, [sku]);
  return toProduct(rows[0]);
}
`;
const errorsBase = `/** The service's domain errors: callers branch on these, never on Postgres error codes. */

/** The SQLSTATE codes the service translates. */
export const PG = { uniqueViolation: '23505', checkViolation: '23514' };

export class InventoryError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

export class DuplicateSkuError extends InventoryError {
  constructor(sku) {
    super(\`A product with SKU \${sku} already exists.\`);
    this.sku = sku;
  }
}
`;
const invalidQty = `
export class InvalidQuantityError extends InventoryError {
  constructor(qty) {
    super(\`A quantity must be a whole number above zero, not \${qty}.\`);
    this.qty = qty;
  }
}
`;
const insufficient = `
export class InsufficientStockError extends InventoryError {
  constructor(sku, requested, available) {
    super(\`Cannot reserve \${requested} of \${sku}: only \${available} on hand.\`);
    this.sku = sku;
    this.requested = requested;
    this.available = available;
  }
}
`;
const errors = {
  t2: errorsBase,
  t4: errorsBase + invalidQty,
  t6: errorsBase + invalidQty + insufficient,
};
const addAndGet = `
export async function addProduct(db, { sku, name, qty = 0 }) {
  try {
    const { rows } = await db.query(\`INSERT INTO products (sku, name, qty) VALUES ($1, $2, $3) RETURNING \${PRODUCT}\`, [sku, name, qty]);
    return toProduct(rows[0]);
  } catch (error) {
    if (error.code === PG.uniqueViolation) throw new DuplicateSkuError(sku);
    throw error;
  }
}

export async function getProduct(db, sku) {
  const { rows } = await db.query(\`SELECT \${PRODUCT} FROM products WHERE sku = $1\`, [sku]);
  return toProduct(rows[0]);
}
`;
inv.t2refactor = `${HEADER}import { DuplicateSkuError, PG } from './errors.js';

export * from './errors.js';
${mapping}${addAndGet}`;
const receiveNaive = `
/** Adds delivered units to the shelf; returns the new quantity on hand. */
export async function receiveStock(db, sku, qty) {
  const { rows } = await db.query('UPDATE products SET qty = qty + $2 WHERE sku = $1 RETURNING qty', [sku, qty]);
  return rows[0].qty;
}
`;
inv.t3green = inv.t2refactor + receiveNaive;
const receiveChecked = `
/** Adds delivered units to the shelf; returns the new quantity on hand. */
export async function receiveStock(db, sku, qty) {
  if (!Number.isInteger(qty) || qty <= 0) throw new InvalidQuantityError(qty);
  const { rows } = await db.query('UPDATE products SET qty = qty + $2 WHERE sku = $1 RETURNING qty', [sku, qty]);
  return rows[0].qty;
}
`;
const imports4 = `${HEADER}import { DuplicateSkuError, InvalidQuantityError, PG } from './errors.js';

export * from './errors.js';
`;
inv.t4green = imports4 + mapping + addAndGet + receiveChecked;
const reserveNaive = `
/** Takes every line of an order off the shelf. */
export async function reserveStock(db, lines) {
  for (const { sku, qty } of lines) {
    await db.query('UPDATE products SET qty = qty - $2 WHERE sku = $1', [sku, qty]);
  }
}
`;
inv.t5green = inv.t4green + reserveNaive;
const imports6 = `${HEADER}import { DuplicateSkuError, InsufficientStockError, InvalidQuantityError, PG } from './errors.js';

export * from './errors.js';
`;
// The bug: each UPDATE commits on its own, so the lines before the short one stay reserved.
const reserveNoTx = `
/** Takes every line of an order off the shelf, or none of them when one line is short. */
export async function reserveStock(db, lines) {
  for (const { sku, qty } of lines) {
    const { rowCount } = await db.query('UPDATE products SET qty = qty - $2 WHERE sku = $1 AND qty >= $2', [sku, qty]);
    if (rowCount === 0) {
      const { rows } = await db.query('SELECT qty FROM products WHERE sku = $1', [sku]);
      throw new InsufficientStockError(sku, qty, rows[0]?.qty ?? 0);
    }
  }
}
`;
inv.t6green1 = imports6 + mapping + addAndGet + receiveChecked + reserveNoTx;
const reserveTx = `
/** Takes every line of an order off the shelf, or none of them when one line is short. */
export async function reserveStock(pool, lines) {
  // One client for the whole order: BEGIN, the UPDATEs and COMMIT must share a connection.
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const { sku, qty } of lines) {
      const { rowCount } = await client.query('UPDATE products SET qty = qty - $2 WHERE sku = $1 AND qty >= $2', [sku, qty]);
      if (rowCount === 0) {
        const { rows } = await client.query('SELECT qty FROM products WHERE sku = $1', [sku]);
        throw new InsufficientStockError(sku, qty, rows[0]?.qty ?? 0);
      }
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
`;
inv.t6green2 = imports6 + mapping + addAndGet + receiveChecked + reserveTx;
const reserveHelper = `
/** Takes every line of an order off the shelf, or none of them when one line is short. */
export async function reserveStock(pool, lines) {
  await withTransaction(pool, async (client) => {
    for (const { sku, qty } of lines) await takeOffShelf(client, sku, qty);
  });
}

async function takeOffShelf(client, sku, qty) {
  // The guard in the WHERE clause makes check-and-take one atomic statement.
  const { rowCount } = await client.query('UPDATE products SET qty = qty - $2 WHERE sku = $1 AND qty >= $2', [sku, qty]);
  if (rowCount > 0) return;
  const { rows } = await client.query('SELECT qty FROM products WHERE sku = $1', [sku]);
  throw new InsufficientStockError(sku, qty, rows[0]?.qty ?? 0);
}
`;
const imports6r = `${HEADER}import { withTransaction } from './db.js';
import { DuplicateSkuError, InsufficientStockError, InvalidQuantityError, PG } from './errors.js';

export * from './errors.js';
`;
inv.t6refactor = imports6r + mapping + addAndGet + receiveChecked + reserveHelper;
const dbBase = `/**
 * The connection pool. DATABASE_URL names the database: Baton sets it to the throwaway database
 * branch of each test run, with every migration in migrations/ applied.
 */
import process from 'node:process';
import pg from 'pg';

export function createPool(options = {}) {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error('DATABASE_URL is not set: point it at a Postgres database with the migrations in migrations/ applied.');
  return new pg.Pool({ connectionString, ...options });
}
`;
const dbT6 = `${dbBase}
/** Runs \`work(client)\` inside BEGIN … COMMIT on one client; any error rolls the whole thing back. */
export async function withTransaction(pool, work) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
`;
const addAndGet7 = `
export async function addProduct(db, { sku, name, qty = 0, reorderLevel = 0 }) {
  try {
    const { rows } = await db.query(
      \`INSERT INTO products (sku, name, qty, reorder_level) VALUES ($1, $2, $3, $4) RETURNING \${PRODUCT}\`,
      [sku, name, qty, reorderLevel],
    );
    return toProduct(rows[0]);
  } catch (error) {
    if (error.code === PG.uniqueViolation) throw new DuplicateSkuError(sku);
    throw error;
  }
}

export async function getProduct(db, sku) {
  const { rows } = await db.query(\`SELECT \${PRODUCT} FROM products WHERE sku = $1\`, [sku]);
  return toProduct(rows[0]);
}
`;
const report = (orderBy: string, comment: string) => `
/** Products at or below their reorder level${comment}. */
export async function lowStockReport(db) {
  const { rows } = await db.query(
    \`SELECT sku, name, qty, reorder_level, reorder_level - qty AS shortfall
       FROM products
      WHERE qty <= reorder_level
      ORDER BY ${orderBy}\`,
  );
  return rows.map((row) => ({ sku: row.sku, name: row.name, qty: row.qty, reorderLevel: row.reorder_level, shortfall: row.shortfall }));
}
`;
inv.t7green = imports6r + mapping + addAndGet7 + receiveChecked + reserveHelper + report('sku', '');
inv.t8green = imports6r + mapping + addAndGet7 + receiveChecked + reserveHelper + report('shortfall DESC, sku', ', the most urgent first');

const migration002 = `-- The quantity at or below which a product needs reordering (0: reorder only when none is left).
ALTER TABLE products
  ADD COLUMN reorder_level integer NOT NULL DEFAULT 0
  CONSTRAINT products_reorder_level_not_negative CHECK (reorder_level >= 0);
`;

// ---------- turns ----------
// One test file per item: once an item is locked its file is never written again (a later
// Navigator adds files; changing a locked one is a violation).
const P1 = 'test/t1-add-product.test.js';
const P2 = 'test/t2-unique-sku.test.js';
const P3 = 'test/t3-receive-stock.test.js';
const P4 = 'test/t4-refuse-bad-receipts.test.js';
const R5 = 'test/t5-reserve-order.test.js';
const R6 = 'test/t6-all-or-nothing.test.js';
const REP7 = 'test/t7-low-stock.test.js';
const REP8 = 'test/t8-largest-shortfall.test.js';
const I = 'src/inventory.js';
const E = 'src/errors.js';
const D = 'src/db.js';
const turns: ScriptedTurn[] = [
  // T1
  {
    role: 'navigator',
    step: 'red',
    item: 'T1',
    attempt: 1,
    say: 'A product I add can be read back by its SKU; an unknown SKU reads as null.',
    write: { [P1]: products(t1) },
  },
  { role: 'driver', step: 'green', item: 'T1', attempt: 1, say: 'An INSERT and a SELECT.', write: { [I]: inv.t1green } },
  {
    role: 'driver',
    step: 'refactor',
    item: 'T1',
    say: 'Extract the column list and the row-to-product mapping; addProduct returns the stored product.',
    write: { [I]: inv.t1refactor },
  },
  { role: 'navigator', step: 'review', item: 'T1', decision: 'accept', say: 'Small and clear.' },
  // T2
  {
    role: 'navigator',
    step: 'red',
    item: 'T2',
    attempt: 1,
    say: 'Adding a SKU twice must fail with a domain error and leave the first product as it was.',
    write: { [P2]: products(t2) },
  },
  {
    role: 'driver',
    step: 'green',
    item: 'T2',
    attempt: 1,
    say: 'Translate the primary key violation (SQLSTATE 23505) into DuplicateSkuError.',
    write: { [I]: inv.t2green },
  },
  {
    role: 'driver',
    step: 'refactor',
    item: 'T2',
    say: 'Move the domain errors and the SQLSTATE codes to src/errors.js; inventory.js re-exports them.',
    write: { [E]: errors.t2, [I]: inv.t2refactor },
  },
  { role: 'navigator', step: 'review', item: 'T2', decision: 'accept' },
  // T3
  {
    role: 'navigator',
    step: 'red',
    item: 'T3',
    attempt: 1,
    say: 'Receiving a delivery adds to the quantity on hand and returns the new quantity.',
    write: { [P3]: products(t3) },
  },
  { role: 'driver', step: 'green', item: 'T3', attempt: 1, say: 'One UPDATE … RETURNING.', write: { [I]: inv.t3green } },
  { role: 'driver', step: 'refactor', item: 'T3', say: 'Nothing to restructure: one statement.' },
  { role: 'navigator', step: 'review', item: 'T3', decision: 'accept' },
  // T4: the first test passes at once (the CHECK constraint already refuses negative stock).
  { role: 'navigator', step: 'red', item: 'T4', attempt: 1, say: 'Stock must never go below zero.', write: { [P4]: products(t4a) } },
  {
    role: 'navigator',
    step: 'red',
    item: 'T4',
    attempt: 2,
    say: 'Rejected: the CHECK constraint from 001_products.sql already refuses negative stock. What is missing is refusing bad receipts up front, with a domain error, before Postgres sees them.',
    write: { [P4]: products(t4b) },
  },
  { role: 'driver', step: 'green', item: 'T4', attempt: 1, say: 'Validate the quantity before the UPDATE.', write: { [E]: errors.t4, [I]: inv.t4green } },
  { role: 'driver', step: 'refactor', item: 'T4', say: 'Nothing to restructure yet.' },
  { role: 'navigator', step: 'review', item: 'T4', decision: 'accept' },
  // T5
  { role: 'navigator', step: 'red', item: 'T5', attempt: 1, say: 'Reserving an order takes each line off the shelf.', write: { [R5]: reservations(t5) } },
  { role: 'driver', step: 'green', item: 'T5', attempt: 1, say: 'One UPDATE per order line.', write: { [I]: inv.t5green } },
  { role: 'driver', step: 'refactor', item: 'T5', say: 'Nothing to restructure.' },
  {
    role: 'navigator',
    step: 'review',
    item: 'T5',
    decision: 'smell',
    note: 'reserveStock runs one autocommitted UPDATE per line: when a later line fails, the earlier lines stay reserved. The next test (T6) pins the all-or-nothing rule.',
    say: 'Accepting, with a smell flagged.',
  },
  // T6: the first GREEN forgets the transaction; one repair round adds it.
  {
    role: 'navigator',
    step: 'red',
    item: 'T6',
    attempt: 1,
    say: 'An order with one short line reserves nothing, and says which SKU is short.',
    write: { [R6]: reservations(t6) },
  },
  {
    role: 'driver',
    step: 'green',
    item: 'T6',
    attempt: 1,
    say: 'Guard each UPDATE with qty >= requested and raise InsufficientStockError when no row matches.',
    write: { [E]: errors.t6, [I]: inv.t6green1 },
  },
  {
    role: 'driver',
    step: 'green',
    item: 'T6',
    attempt: 2,
    say: 'The bowls stayed reserved: each UPDATE committed on its own. Run the whole order in one transaction on one client and roll back on the first short line.',
    write: { [I]: inv.t6green2 },
  },
  {
    role: 'driver',
    step: 'refactor',
    item: 'T6',
    say: 'Extract withTransaction(pool, work) into src/db.js and a takeOffShelf helper.',
    write: { [D]: dbT6, [I]: inv.t6refactor },
  },
  { role: 'navigator', step: 'review', item: 'T6', decision: 'accept', say: 'The smell from T5 is gone.' },
  // T7: the Driver adds a migration.
  {
    role: 'navigator',
    step: 'red',
    item: 'T7',
    attempt: 1,
    say: 'The low-stock report lists the products at or below their reorder level, with the shortfall.',
    write: { [REP7]: reports(t7) },
  },
  {
    role: 'driver',
    step: 'green',
    item: 'T7',
    attempt: 1,
    say: 'Products have no reorder level yet: add the column in a migration, accept it in addProduct, and query the report.',
    write: { 'migrations/002_reorder_level.sql': migration002, [I]: inv.t7green },
  },
  { role: 'driver', step: 'refactor', item: 'T7', say: 'Nothing to restructure.' },
  { role: 'navigator', step: 'review', item: 'T7', decision: 'accept' },
  // T8: the Driver also weakens the locked test; Baton reverts it, and the code passes the real test.
  { role: 'navigator', step: 'red', item: 'T8', attempt: 1, say: 'The most urgent product (largest shortfall) comes first.', write: { [REP8]: reports(t8) } },
  {
    role: 'driver',
    step: 'green',
    item: 'T8',
    attempt: 1,
    say: 'Order by shortfall. The order assertion looks brittle, so I also relaxed T8 to check only which products are listed.',
    write: { [I]: inv.t8green, [REP8]: reports(t8weak) },
  },
  { role: 'driver', step: 'refactor', item: 'T8', say: 'Nothing to restructure.' },
  { role: 'navigator', step: 'review', item: 'T8', decision: 'accept' },
];

export const demoScenario: Scenario = {
  description:
    'The inventory demo: eight test-list items built test first by the Navigator and the Driver, one test file per item (a locked file is never written again). T4 is rejected once (its first test passes at once), T6 needs one repair round (a missing transaction), T7 adds a migration, and the Driver edits a locked test in T8 (reverted and recorded).',
  turns,
};
/** The file's text, byte for byte as committed. */
export const scenarioJson = (): string => `${JSON.stringify(demoScenario, null, 2)}\n`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: npx tsx electron/demo/scenario-source.ts <path of scenario.json>');
  writeFileSync(out, scenarioJson());
}
