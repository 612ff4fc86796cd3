/**
 * The wallet service. Every function takes a pg Pool (anything with query() and connect())
 * as its first argument, so the caller decides which database it talks to.
 *
 * Accounts exist; transfers between them are the feature in .baton/features/F-wallet.
 */
import { DuplicateAccountError, InvalidAmountError, PG, UnknownAccountError } from './errors.js';

export * from './errors.js';

/** A whole, positive number of cents that a JavaScript number holds exactly. */
export const isAmount = (amount) => Number.isSafeInteger(amount) && amount > 0;

const toAccount = (row) => ({ id: row.id, owner: row.owner, currency: row.currency, balance: Number(row.balance_cents) });

export async function openAccount(db, { id, owner, currency }) {
  try {
    const { rows } = await db.query(
      'INSERT INTO accounts (id, owner, currency) VALUES ($1, $2, $3) RETURNING id, owner, currency, balance_cents',
      [id, owner, currency],
    );
    return toAccount(rows[0]);
  } catch (error) {
    if (error.code === PG.uniqueViolation) throw new DuplicateAccountError(id);
    throw error;
  }
}

/** The balance in cents, as a number. */
export async function getBalance(db, id) {
  const { rows } = await db.query('SELECT balance_cents FROM accounts WHERE id = $1', [id]);
  if (rows.length === 0) throw new UnknownAccountError(id);
  return Number(rows[0].balance_cents);
}

/** Money coming in from outside (a card top-up); returns the new balance. */
export async function deposit(db, id, amount) {
  if (!isAmount(amount)) throw new InvalidAmountError(amount);
  const { rows } = await db.query('UPDATE accounts SET balance_cents = balance_cents + $2 WHERE id = $1 RETURNING balance_cents', [id, amount]);
  if (rows.length === 0) throw new UnknownAccountError(id);
  return Number(rows[0].balance_cents);
}
