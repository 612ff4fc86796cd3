// The held-out acceptance suite of the inventory task (issue 36): never shown to an agent, run by
// `baton eval` on the delivered tree with a fresh database. Every test uses SKUs of its own, since
// the tests share one database; the low-stock tests read only their own rows of the report.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import process from 'node:process';
import pg from 'pg';
import * as inventory from '../src/inventory.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
after(() => pool.end());

const qtyOf = async (sku) => (await inventory.getProduct(pool, sku))?.qty;
const reportFor = async (prefix) => (await inventory.lowStockReport(pool)).filter((row) => row.sku.startsWith(prefix));

test('addProduct returns the product with its SKU, name and quantity', async () => {
  const product = await inventory.addProduct(pool, { sku: 'H1-MUG', name: 'Mug', qty: 4 });
  assert.deepEqual({ sku: product.sku, name: product.name, qty: product.qty }, { sku: 'H1-MUG', name: 'Mug', qty: 4 });
  assert.deepEqual(await inventory.getProduct(pool, 'H1-MUG'), { sku: 'H1-MUG', name: 'Mug', qty: 4 });
});

test('a product added without a quantity starts with nothing on the shelf', async () => {
  await inventory.addProduct(pool, { sku: 'H2-JUG', name: 'Jug' });
  assert.equal(await qtyOf('H2-JUG'), 0);
});

test('getProduct of an unknown SKU returns null', async () => {
  assert.equal(await inventory.getProduct(pool, 'H3-NOPE'), null);
});

test('a second product with the same SKU is refused with DuplicateSkuError naming the SKU', async () => {
  await inventory.addProduct(pool, { sku: 'H4-BOWL', name: 'Bowl', qty: 2 });
  await assert.rejects(inventory.addProduct(pool, { sku: 'H4-BOWL', name: 'Other bowl', qty: 9 }), {
    name: 'DuplicateSkuError',
    sku: 'H4-BOWL',
  });
});

test('a refused duplicate leaves the first product name and quantity as they were', async () => {
  await inventory.addProduct(pool, { sku: 'H5-VASE', name: 'Vase', qty: 3 });
  await assert.rejects(inventory.addProduct(pool, { sku: 'H5-VASE', name: 'Impostor', qty: 50 }));
  assert.deepEqual(await inventory.getProduct(pool, 'H5-VASE'), { sku: 'H5-VASE', name: 'Vase', qty: 3 });
});

test('receiveStock adds to the quantity on hand and returns the new quantity', async () => {
  await inventory.addProduct(pool, { sku: 'H6-POT', name: 'Pot', qty: 2 });
  assert.equal(await inventory.receiveStock(pool, 'H6-POT', 5), 7);
  assert.equal(await qtyOf('H6-POT'), 7);
});

test('two deliveries of the same product add up', async () => {
  await inventory.addProduct(pool, { sku: 'H7-PAN', name: 'Pan' });
  await inventory.receiveStock(pool, 'H7-PAN', 3);
  await inventory.receiveStock(pool, 'H7-PAN', 4);
  assert.equal(await qtyOf('H7-PAN'), 7);
});

test('receiving zero units is refused with InvalidQuantityError', async () => {
  await inventory.addProduct(pool, { sku: 'H8-LID', name: 'Lid', qty: 1 });
  await assert.rejects(inventory.receiveStock(pool, 'H8-LID', 0), { name: 'InvalidQuantityError', qty: 0 });
  assert.equal(await qtyOf('H8-LID'), 1);
});

test('receiving a negative quantity is refused and the shelf keeps its stock', async () => {
  await inventory.addProduct(pool, { sku: 'H9-CUP', name: 'Cup', qty: 5 });
  await assert.rejects(inventory.receiveStock(pool, 'H9-CUP', -2), { name: 'InvalidQuantityError' });
  assert.equal(await qtyOf('H9-CUP'), 5);
});

test('receiving a fractional quantity is refused with InvalidQuantityError', async () => {
  await inventory.addProduct(pool, { sku: 'H10-TRAY', name: 'Tray', qty: 1 });
  await assert.rejects(inventory.receiveStock(pool, 'H10-TRAY', 1.5), { name: 'InvalidQuantityError', qty: 1.5 });
  assert.equal(await qtyOf('H10-TRAY'), 1);
});

test('receiving a quantity given as a string is refused', async () => {
  await inventory.addProduct(pool, { sku: 'H11-RACK', name: 'Rack', qty: 1 });
  await assert.rejects(inventory.receiveStock(pool, 'H11-RACK', '5'), { name: 'InvalidQuantityError' });
  assert.equal(await qtyOf('H11-RACK'), 1);
});

test('reserving an order takes every line off the shelf', async () => {
  await inventory.addProduct(pool, { sku: 'H12-A', name: 'Plate', qty: 6 });
  await inventory.addProduct(pool, { sku: 'H12-B', name: 'Saucer', qty: 4 });
  await inventory.reserveStock(pool, [
    { sku: 'H12-A', qty: 2 },
    { sku: 'H12-B', qty: 3 },
  ]);
  assert.deepEqual([await qtyOf('H12-A'), await qtyOf('H12-B')], [4, 1]);
});

test('reserving exactly what is on the shelf leaves zero', async () => {
  await inventory.addProduct(pool, { sku: 'H13-JAR', name: 'Jar', qty: 3 });
  await inventory.reserveStock(pool, [{ sku: 'H13-JAR', qty: 3 }]);
  assert.equal(await qtyOf('H13-JAR'), 0);
});

test('an order with one short line reserves nothing from any line', async () => {
  await inventory.addProduct(pool, { sku: 'H14-A', name: 'Fork', qty: 10 });
  await inventory.addProduct(pool, { sku: 'H14-B', name: 'Knife', qty: 1 });
  await inventory.addProduct(pool, { sku: 'H14-C', name: 'Spoon', qty: 10 });
  await assert.rejects(
    inventory.reserveStock(pool, [
      { sku: 'H14-A', qty: 4 },
      { sku: 'H14-B', qty: 2 },
      { sku: 'H14-C', qty: 4 },
    ]),
  );
  assert.deepEqual([await qtyOf('H14-A'), await qtyOf('H14-B'), await qtyOf('H14-C')], [10, 1, 10]);
});

test('InsufficientStockError names the short SKU, the quantity asked for and what is on the shelf', async () => {
  await inventory.addProduct(pool, { sku: 'H15-A', name: 'Glass', qty: 8 });
  await inventory.addProduct(pool, { sku: 'H15-B', name: 'Carafe', qty: 1 });
  await assert.rejects(
    inventory.reserveStock(pool, [
      { sku: 'H15-A', qty: 1 },
      { sku: 'H15-B', qty: 3 },
    ]),
    { name: 'InsufficientStockError', sku: 'H15-B', requested: 3, available: 1 },
  );
});

test('an order naming an unknown SKU is refused and reserves nothing', async () => {
  await inventory.addProduct(pool, { sku: 'H16-A', name: 'Teapot', qty: 5 });
  await assert.rejects(
    inventory.reserveStock(pool, [
      { sku: 'H16-A', qty: 2 },
      { sku: 'H16-GHOST', qty: 1 },
    ]),
    { name: 'InsufficientStockError', sku: 'H16-GHOST', available: 0 },
  );
  assert.equal(await qtyOf('H16-A'), 5);
});

test('two lines for the same SKU count together and are refused when together they exceed the shelf', async () => {
  await inventory.addProduct(pool, { sku: 'H17-TIN', name: 'Tin', qty: 5 });
  await assert.rejects(
    inventory.reserveStock(pool, [
      { sku: 'H17-TIN', qty: 3 },
      { sku: 'H17-TIN', qty: 3 },
    ]),
    { name: 'InsufficientStockError', sku: 'H17-TIN' },
  );
  assert.equal(await qtyOf('H17-TIN'), 5);
});

test('a refused order leaves the service able to reserve the next order', async () => {
  await inventory.addProduct(pool, { sku: 'H18-BIN', name: 'Bin', qty: 2 });
  for (let i = 0; i < 3; i += 1) await assert.rejects(inventory.reserveStock(pool, [{ sku: 'H18-BIN', qty: 9 }]));
  await inventory.reserveStock(pool, [{ sku: 'H18-BIN', qty: 2 }]);
  assert.equal(await qtyOf('H18-BIN'), 0);
});

test('the low-stock report includes a product exactly at its reorder level with a shortfall of zero', async () => {
  await inventory.addProduct(pool, { sku: 'H19-AT', name: 'Towel', qty: 3, reorderLevel: 3 });
  assert.deepEqual(await reportFor('H19-'), [{ sku: 'H19-AT', name: 'Towel', qty: 3, reorderLevel: 3, shortfall: 0 }]);
});

test('the low-stock report leaves out products above their reorder level', async () => {
  await inventory.addProduct(pool, { sku: 'H20-ABOVE', name: 'Mat', qty: 4, reorderLevel: 3 });
  await inventory.addProduct(pool, { sku: 'H20-BELOW', name: 'Rug', qty: 1, reorderLevel: 3 });
  assert.deepEqual(
    (await reportFor('H20-')).map((row) => row.sku),
    ['H20-BELOW'],
  );
});

test('the low-stock report lists the largest shortfall first', async () => {
  await inventory.addProduct(pool, { sku: 'H21-A', name: 'Candle', qty: 4, reorderLevel: 5 });
  await inventory.addProduct(pool, { sku: 'H21-B', name: 'Lamp', qty: 0, reorderLevel: 9 });
  await inventory.addProduct(pool, { sku: 'H21-C', name: 'Shade', qty: 2, reorderLevel: 6 });
  assert.deepEqual(
    (await reportFor('H21-')).map((row) => [row.sku, row.shortfall]),
    [
      ['H21-B', 9],
      ['H21-C', 4],
      ['H21-A', 1],
    ],
  );
});

test('products with the same shortfall are reported in SKU order', async () => {
  await inventory.addProduct(pool, { sku: 'H22-C', name: 'Hook', qty: 1, reorderLevel: 3 });
  await inventory.addProduct(pool, { sku: 'H22-A', name: 'Peg', qty: 0, reorderLevel: 2 });
  await inventory.addProduct(pool, { sku: 'H22-B', name: 'Nail', qty: 2, reorderLevel: 4 });
  assert.deepEqual(
    (await reportFor('H22-')).map((row) => row.sku),
    ['H22-A', 'H22-B', 'H22-C'],
  );
});

test('the low-stock report follows stock as it is received and reserved', async () => {
  await inventory.addProduct(pool, { sku: 'H23-SOAP', name: 'Soap', qty: 2, reorderLevel: 2 });
  await inventory.receiveStock(pool, 'H23-SOAP', 5);
  assert.deepEqual(await reportFor('H23-'), []);
  await inventory.reserveStock(pool, [{ sku: 'H23-SOAP', qty: 6 }]);
  assert.deepEqual(
    (await reportFor('H23-')).map((row) => [row.qty, row.shortfall]),
    [[1, 1]],
  );
});
