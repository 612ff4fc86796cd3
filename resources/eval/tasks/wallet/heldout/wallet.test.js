/**
 * The wallet task's held-out acceptance suite: never shown to an agent, run by `baton eval`
 * against the delivered project on a fresh, migrated database (DATABASE_URL). Every test uses its
 * own accounts (a run prefix plus the test's own names), so the tests can share one database.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import process from 'node:process';
import pg from 'pg';
import * as wallet from '../src/wallet.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 3 });
const run = `h${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const name = (s) => `${run}-${s}`;

/** Opens accounts `{ suffix: [currency, cents] }` and returns their ids by suffix. */
async function accounts(spec) {
  const ids = {};
  for (const [suffix, [currency, cents]] of Object.entries(spec)) {
    ids[suffix] = name(suffix);
    await wallet.openAccount(pool, { id: ids[suffix], owner: `Owner ${suffix}`, currency });
    if (cents > 0) await wallet.deposit(pool, ids[suffix], cents);
  }
  return ids;
}
const balances = async (...ids) => Promise.all(ids.map((id) => wallet.getBalance(pool, id)));
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

describe('wallet transfers (held out)', () => {
  after(() => pool.end());

  it('moves the amount from the source to the destination and returns the transfer', async () => {
    const a = await accounts({ mvA: ['EUR', 1000], mvB: ['EUR', 200] });
    const result = await wallet.transfer(pool, { from: a.mvA, to: a.mvB, amount: 300, key: name('mv-k') });
    assert.deepEqual(result, { key: name('mv-k'), from: a.mvA, to: a.mvB, amount: 300 });
    assert.deepEqual(await balances(a.mvA, a.mvB), [700, 500]);
  });

  it('keeps the sum of balances through a series of transfers, refused ones included', async () => {
    const a = await accounts({ sA: ['EUR', 5000], sB: ['EUR', 300], sC: ['EUR', 0] });
    const before = sum(await balances(a.sA, a.sB, a.sC));
    const attempts = [
      { from: a.sA, to: a.sB, amount: 1200 },
      { from: a.sB, to: a.sC, amount: 1500 },
      { from: a.sC, to: a.sA, amount: 99999 },
      { from: a.sC, to: a.sA, amount: 0 },
      { from: a.sA, to: a.sA, amount: 10 },
      { from: a.sB, to: a.sC, amount: 2.5 },
      { from: a.sC, to: a.sB, amount: 1500 },
    ];
    let i = 0;
    for (const t of attempts) await wallet.transfer(pool, { ...t, key: name(`sum-${i++}`) }).catch(() => {});
    assert.equal(sum(await balances(a.sA, a.sB, a.sC)), before);
    assert.deepEqual(await balances(a.sA, a.sB, a.sC), [3800, 1500, 0]);
  });

  it('refuses a fractional amount with InvalidAmountError and moves nothing', async () => {
    const a = await accounts({ frA: ['EUR', 1000], frB: ['EUR', 0] });
    await assert.rejects(wallet.transfer(pool, { from: a.frA, to: a.frB, amount: 10.5, key: name('fr') }), { name: 'InvalidAmountError', amount: 10.5 });
    assert.deepEqual(await balances(a.frA, a.frB), [1000, 0]);
  });

  it('refuses a zero or negative amount with InvalidAmountError and moves nothing', async () => {
    const a = await accounts({ zA: ['EUR', 1000], zB: ['EUR', 1000] });
    for (const amount of [0, -1, -500]) {
      await assert.rejects(wallet.transfer(pool, { from: a.zA, to: a.zB, amount, key: name(`z${amount}`) }), { name: 'InvalidAmountError' });
    }
    assert.deepEqual(await balances(a.zA, a.zB), [1000, 1000]);
  });

  it('refuses amounts that are not numbers: strings, NaN, Infinity, null', async () => {
    const a = await accounts({ nnA: ['EUR', 1000], nnB: ['EUR', 0] });
    let i = 0;
    for (const amount of ['100', NaN, Infinity, null]) {
      await assert.rejects(wallet.transfer(pool, { from: a.nnA, to: a.nnB, amount, key: name(`nn${i++}`) }), { name: 'InvalidAmountError' });
    }
    assert.deepEqual(await balances(a.nnA, a.nnB), [1000, 0]);
  });

  it('refuses a transfer that would overdraw the source with InsufficientFundsError, and moves nothing', async () => {
    const a = await accounts({ odA: ['EUR', 500], odB: ['EUR', 20] });
    await assert.rejects(wallet.transfer(pool, { from: a.odA, to: a.odB, amount: 501, key: name('od') }), {
      name: 'InsufficientFundsError',
      id: a.odA,
      balance: 500,
      amount: 501,
    });
    assert.deepEqual(await balances(a.odA, a.odB), [500, 20]);
    assert.deepEqual(await wallet.history(pool, a.odA), []);
  });

  it('allows a transfer that takes the source to exactly zero', async () => {
    const a = await accounts({ exA: ['EUR', 750], exB: ['EUR', 0] });
    await wallet.transfer(pool, { from: a.exA, to: a.exB, amount: 750, key: name('ex') });
    assert.deepEqual(await balances(a.exA, a.exB), [0, 750]);
    await assert.rejects(wallet.transfer(pool, { from: a.exA, to: a.exB, amount: 1, key: name('ex2') }), { name: 'InsufficientFundsError' });
  });

  it('refuses a transfer to the same account with SameAccountError', async () => {
    const a = await accounts({ self: ['EUR', 400] });
    await assert.rejects(wallet.transfer(pool, { from: a.self, to: a.self, amount: 100, key: name('self') }), { name: 'SameAccountError', id: a.self });
    assert.equal(await wallet.getBalance(pool, a.self), 400);
    assert.deepEqual(await wallet.history(pool, a.self), []);
  });

  it('refuses a transfer between different currencies with CurrencyMismatchError', async () => {
    const a = await accounts({ cE: ['EUR', 1000], cU: ['USD', 1000] });
    await assert.rejects(wallet.transfer(pool, { from: a.cE, to: a.cU, amount: 100, key: name('cur') }), { name: 'CurrencyMismatchError', from: a.cE, to: a.cU });
    assert.deepEqual(await balances(a.cE, a.cU), [1000, 1000]);
  });

  it('refuses an unknown source or destination with UnknownAccountError and moves nothing', async () => {
    const a = await accounts({ ukA: ['EUR', 300] });
    await assert.rejects(wallet.transfer(pool, { from: a.ukA, to: name('nobody'), amount: 100, key: name('uk1') }), { name: 'UnknownAccountError', id: name('nobody') });
    await assert.rejects(wallet.transfer(pool, { from: name('ghost'), to: a.ukA, amount: 100, key: name('uk2') }), { name: 'UnknownAccountError', id: name('ghost') });
    assert.equal(await wallet.getBalance(pool, a.ukA), 300);
  });

  it('refuses a transfer without an idempotency key with MissingKeyError', async () => {
    const a = await accounts({ mkA: ['EUR', 300], mkB: ['EUR', 0] });
    await assert.rejects(wallet.transfer(pool, { from: a.mkA, to: a.mkB, amount: 100 }), { name: 'MissingKeyError' });
    await assert.rejects(wallet.transfer(pool, { from: a.mkA, to: a.mkB, amount: 100, key: '' }), { name: 'MissingKeyError' });
    assert.deepEqual(await balances(a.mkA, a.mkB), [300, 0]);
  });

  it('moves the money once when the same transfer is sent again with its key, and returns the same result', async () => {
    const a = await accounts({ idA: ['EUR', 1000], idB: ['EUR', 0] });
    const t = { from: a.idA, to: a.idB, amount: 300, key: name('id') };
    const first = await wallet.transfer(pool, t);
    const second = await wallet.transfer(pool, { ...t });
    assert.deepEqual(second, first);
    assert.deepEqual(await balances(a.idA, a.idB), [700, 300]);
    assert.equal((await wallet.history(pool, a.idA)).length, 1);
  });

  it('answers a retry from the first result even when the source can no longer pay', async () => {
    const a = await accounts({ rpA: ['EUR', 300], rpB: ['EUR', 0] });
    const t = { from: a.rpA, to: a.rpB, amount: 300, key: name('rp') };
    const first = await wallet.transfer(pool, t);
    assert.deepEqual(await wallet.transfer(pool, { ...t }), first);
    assert.deepEqual(await balances(a.rpA, a.rpB), [0, 300]);
  });

  it('refuses a key reused with another amount or destination with IdempotencyConflictError', async () => {
    const a = await accounts({ icA: ['EUR', 1000], icB: ['EUR', 0], icC: ['EUR', 0] });
    const key = name('ic');
    await wallet.transfer(pool, { from: a.icA, to: a.icB, amount: 100, key });
    await assert.rejects(wallet.transfer(pool, { from: a.icA, to: a.icB, amount: 200, key }), { name: 'IdempotencyConflictError', key });
    await assert.rejects(wallet.transfer(pool, { from: a.icA, to: a.icC, amount: 100, key }), { name: 'IdempotencyConflictError', key });
    assert.deepEqual(await balances(a.icA, a.icB, a.icC), [900, 100, 0]);
  });

  it('does not use up the key of a refused transfer', async () => {
    const a = await accounts({ rkA: ['EUR', 100], rkB: ['EUR', 0] });
    const t = { from: a.rkA, to: a.rkB, amount: 250, key: name('rk') };
    await assert.rejects(wallet.transfer(pool, t), { name: 'InsufficientFundsError' });
    await wallet.deposit(pool, a.rkA, 200);
    assert.deepEqual(await wallet.transfer(pool, { ...t }), { key: t.key, from: a.rkA, to: a.rkB, amount: 250 });
    assert.deepEqual(await balances(a.rkA, a.rkB), [50, 250]);
  });

  it('handles billions of cents and returns balances and amounts as numbers', async () => {
    const a = await accounts({ bgA: ['EUR', 0], bgB: ['EUR', 0] });
    await wallet.deposit(pool, a.bgA, 6_000_000_000);
    const t = await wallet.transfer(pool, { from: a.bgA, to: a.bgB, amount: 4_500_000_000, key: name('bg') });
    assert.equal(t.amount, 4_500_000_000);
    assert.deepEqual(await balances(a.bgA, a.bgB), [1_500_000_000, 4_500_000_000]);
    assert.deepEqual(await wallet.history(pool, a.bgB), [{ key: name('bg'), counterparty: a.bgA, amount: 4_500_000_000 }]);
  });

  it('lists an account history oldest first, out as negative and in as positive, whatever the keys', async () => {
    const a = await accounts({ hA: ['EUR', 1000], hB: ['EUR', 1000], hC: ['EUR', 1000] });
    await wallet.transfer(pool, { from: a.hA, to: a.hB, amount: 100, key: name('zz-first') });
    await wallet.transfer(pool, { from: a.hC, to: a.hA, amount: 250, key: name('mm-second') });
    await wallet.transfer(pool, { from: a.hA, to: a.hC, amount: 70, key: name('aa-third') });
    await wallet.transfer(pool, { from: a.hB, to: a.hC, amount: 5, key: name('bb-other') });
    assert.deepEqual(await wallet.history(pool, a.hA), [
      { key: name('zz-first'), counterparty: a.hB, amount: -100 },
      { key: name('mm-second'), counterparty: a.hC, amount: 250 },
      { key: name('aa-third'), counterparty: a.hC, amount: -70 },
    ]);
  });

  it('refuses the history of an unknown account with UnknownAccountError', async () => {
    await assert.rejects(wallet.history(pool, name('nobody-h')), { name: 'UnknownAccountError' });
  });

  it('never overdraws or loses money when transfers out of one account run at the same time', async () => {
    const a = await accounts({ ccA: ['EUR', 1000], ccB: ['EUR', 0], ccC: ['EUR', 0] });
    // Two connections open before the race, so both transfers really start together.
    await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1')]);
    const results = await Promise.allSettled([
      wallet.transfer(pool, { from: a.ccA, to: a.ccB, amount: 700, key: name('cc1') }),
      wallet.transfer(pool, { from: a.ccA, to: a.ccC, amount: 700, key: name('cc2') }),
    ]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'exactly one of the two fits');
    assert.equal(results.find((r) => r.status === 'rejected')?.reason?.name, 'InsufficientFundsError');
    const [ccA, ccB, ccC] = await balances(a.ccA, a.ccB, a.ccC);
    assert.equal(ccA, 300);
    assert.equal(ccA + ccB + ccC, 1000);
  });

  it('moves the money once when a retry races the original transfer', async () => {
    const a = await accounts({ rrA: ['EUR', 1000], rrB: ['EUR', 0] });
    await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1')]);
    const t = { from: a.rrA, to: a.rrB, amount: 400, key: name('rr') };
    const [one, two] = await Promise.all([wallet.transfer(pool, t), wallet.transfer(pool, { ...t })]);
    assert.deepEqual(one, two);
    assert.deepEqual(await balances(a.rrA, a.rrB), [600, 400]);
  });
});
