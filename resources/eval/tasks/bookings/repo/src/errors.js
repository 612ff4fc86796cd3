/** The service's domain errors: callers branch on these, never on Postgres error codes. */

/** The SQLSTATE codes the service translates. */
export const PG = { uniqueViolation: '23505', foreignKeyViolation: '23503', checkViolation: '23514' };

export class BookingError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

export class DuplicateRoomError extends BookingError {
  constructor(id) {
    super(`A room with id ${id} already exists.`);
    this.id = id;
  }
}

export class UnknownRoomError extends BookingError {
  constructor(room) {
    super(`There is no room ${room}.`);
    this.room = room;
  }
}
