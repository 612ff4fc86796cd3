/** The service's domain errors: callers branch on these, never on Postgres error codes. */

/** The SQLSTATE codes the service translates. */
export const PG = { uniqueViolation: '23505', checkViolation: '23514' };

export class WalletError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

export class DuplicateAccountError extends WalletError {
  constructor(id) {
    super(`An account with id ${id} already exists.`);
    this.id = id;
  }
}

export class UnknownAccountError extends WalletError {
  constructor(id) {
    super(`There is no account ${id}.`);
    this.id = id;
  }
}

export class InvalidAmountError extends WalletError {
  constructor(amount) {
    super(`An amount must be a whole number of cents above zero, not ${String(amount)}.`);
    this.amount = amount;
  }
}
