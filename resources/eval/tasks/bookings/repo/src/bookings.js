/**
 * The room booking service. Every function takes a pg Pool (anything with query() and connect())
 * as its first argument, so the caller decides which database it talks to.
 *
 * Rooms exist; booking them is the feature in .baton/features/F-bookings.
 */
import { DuplicateRoomError, PG } from './errors.js';

export * from './errors.js';

export async function addRoom(db, { id, name }) {
  try {
    const { rows } = await db.query('INSERT INTO rooms (id, name) VALUES ($1, $2) RETURNING id, name', [id, name]);
    return { id: rows[0].id, name: rows[0].name };
  } catch (error) {
    if (error.code === PG.uniqueViolation) throw new DuplicateRoomError(id);
    throw error;
  }
}
